import { z } from 'zod';
import { dateTimeText, textField } from '../validation.js';

/**
 * Batches to outside providers (issue 16): SMS and voice calls through Vonage (/SMS, /VoiceCall), Instagram direct
 * messages through Meta's Graph API (/InstaDirect). One recipient a line; sent one by one with a pause (§9: 5 s).
 */
export const OUTREACH_CHANNELS = ['sms', 'voice', 'instagram'] as const;
export type OutreachChannel = (typeof OUTREACH_CHANNELS)[number];
export const OUTREACH_STATUSES = ['queued', 'running', 'done', 'cancelled'] as const;
export type OutreachStatus = (typeof OUTREACH_STATUSES)[number];
/** `unknown`: the provider gave no answer in time, so the send may have happened (it is not made again). */
export const OUTREACH_ITEM_STATUSES = ['pending', 'running', 'sent', 'failed', 'unknown'] as const;
export type OutreachItemStatus = (typeof OUTREACH_ITEM_STATUSES)[number];
/** Text-to-speech languages of a call (the user's language). */
export const VOICE_LANGUAGES = ['pt-BR', 'en-US', 'es-ES'] as const;
export const MAX_OUTREACH_RECIPIENTS = 1000;
export const OUTREACH_PAGE_SIZE = 20;

/** Phone numbers: international digits (a leading + and blanks, dashes, dots, brackets are dropped). */
export function normalizePhone(value: string): string | null {
  const digits = value.trim().replace(/[\s().+-]/g, '');
  return /^\d{8,15}$/.test(digits) ? digits : null;
}

/** Instagram-scoped user ids (IGSID): digits. */
export function normalizeIgUser(value: string): string | null {
  const id = value.trim();
  return /^\d{5,30}$/.test(id) ? id : null;
}

/** Parses the recipients' lines for a channel: the valid ones (deduplicated) and the lines that are not. */
export function parseRecipients(channel: OutreachChannel, lines: string): { recipients: string[]; invalid: number[] } {
  const normalize = channel === 'instagram' ? normalizeIgUser : normalizePhone;
  const recipients: string[] = [];
  const invalid: number[] = [];
  lines.split(/\r?\n/).forEach((line, index) => {
    if (line.trim() === '') return;
    const value = normalize(line);
    if (!value) invalid.push(index + 1);
    else if (!recipients.includes(value)) recipients.push(value);
  });
  return { recipients, invalid };
}

/** A Vonage sender: a number (digits) or an alphanumeric name of up to 11 characters. */
const sender = z
  .string({ error: 'Required' })
  .trim()
  .min(1, 'Required')
  .refine((v) => normalizePhone(v) !== null || /^[A-Za-z0-9 ]{1,11}$/.test(v), 'A number or up to 11 letters and digits');
const message = textField(1000).trim().min(1, 'Required');
const apiToken = z.string().max(500).optional();

/** `POST /api/outreach`: a batch from a page. */
export const OutreachStartInput = z.object({
  channel: z.enum(OUTREACH_CHANNELS),
  recipients: textField(100000).trim().min(1, 'Required'),
  text: message,
  /** SMS and voice: who it comes from. */
  from: sender.optional(),
  /** Voice: the text-to-speech language. */
  language: z.enum(VOICE_LANGUAGES).optional(),
});
export type OutreachStartInput = z.infer<typeof OutreachStartInput>;

export const OutreachListQuery = z.object({ channel: z.enum(OUTREACH_CHANNELS), pageNumber: z.coerce.number().int().min(1).max(100000).default(1) });

/** `POST /api/sendSms`, `/api/makeVoiceCall` (§7): one recipient. */
export const SendSmsInput = z.object({ from: sender, to: z.string({ error: 'Required' }).trim().min(1, 'Required').max(40), text: message, token: apiToken });
export const MakeVoiceCallInput = SendSmsInput.extend({ language: z.enum(VOICE_LANGUAGES).optional() });
/** `POST /api/sendDirect` (§7): one Instagram direct message. */
export const SendDirectInput = z.object({ userIg: z.string({ error: 'Required' }).trim().min(1, 'Required').max(40), message, token: apiToken });

export const OutreachDto = z
  .object({
    id: z.number().int(),
    channel: z.enum(OUTREACH_CHANNELS),
    status: z.enum(OUTREACH_STATUSES),
    /** Who started it from the page (null: the send API). */
    userId: z.number().int().nullable(),
    userName: z.string().nullable(),
    sender: z.string().nullable(),
    text: z.string(),
    language: z.string().nullable(),
    total: z.number().int(),
    done: z.number().int(),
    failed: z.number().int(),
    unknown: z.number().int(),
    lastError: z.string().nullable(),
    createdAt: dateTimeText,
    finishedAt: dateTimeText.nullable(),
  })
  .meta({ id: 'Outreach', description: 'A batch of SMS, voice calls or Instagram direct messages, and how far it went.' });
export type OutreachDto = z.infer<typeof OutreachDto>;

export const OutreachItemDto = z
  .object({
    line: z.number().int(),
    recipient: z.string(),
    status: z.enum(OUTREACH_ITEM_STATUSES),
    providerId: z.string().nullable(),
    error: z.string().nullable(),
    finishedAt: dateTimeText.nullable(),
  })
  .meta({ id: 'OutreachItem', description: 'One recipient of a batch (its line in the list).' });
export type OutreachItemDto = z.infer<typeof OutreachItemDto>;

export const OutreachListResponse = z.object({ batches: z.array(OutreachDto), hasMore: z.boolean() });
export type OutreachListResponse = z.infer<typeof OutreachListResponse>;

export const OutreachDetailResponse = z.object({ batch: OutreachDto, items: z.array(OutreachItemDto) });
export type OutreachDetailResponse = z.infer<typeof OutreachDetailResponse>;

/** The answer of a start (page or send API): the batch and the job of its first step. */
export const OutreachStartedResponse = z.object({ batch: OutreachDto, jobId: z.string() });
export type OutreachStartedResponse = z.infer<typeof OutreachStartedResponse>;

/** The send API's answer (`/api/sendSms`, `/api/makeVoiceCall`, `/api/sendDirect`): a batch of one, queued. */
export const OutreachAcceptedResponse = z
  .object({ jobId: z.string(), outreachId: z.number().int() })
  .meta({ id: 'OutreachAccepted', description: 'Accepted: a batch of one (`outreachId`) whose first step is the job `jobId` (GET /api/jobs/{id}).' });
export type OutreachAcceptedResponse = z.infer<typeof OutreachAcceptedResponse>;

/** The `outreach.step` job's payload. */
export const OutreachStepJob = z.object({ batchId: z.number().int().positive(), chain: z.string().min(1).max(64) });
