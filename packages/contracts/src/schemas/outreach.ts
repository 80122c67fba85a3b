import { z } from 'zod';
import { idField, textField } from '../validation.js';

/**
 * Batches to outside providers (issue 16): SMS and voice calls through Vonage (/SMS, /VoiceCall), Instagram direct
 * messages through Meta's Graph API (/InstaDirect). One recipient a line; sent one by one with a pause (§9: 5 s).
 */
export const OUTREACH_CHANNELS = ['sms', 'voice', 'instagram'] as const;
export type OutreachChannel = (typeof OUTREACH_CHANNELS)[number];
export type OutreachStatus = 'queued' | 'running' | 'done' | 'cancelled';
export type OutreachItemStatus = 'pending' | 'running' | 'sent' | 'failed' | 'unknown';
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
export const OutreachParams = z.object({ id: idField });

/** `POST /api/sendSms`, `/api/makeVoiceCall` (§7): one recipient. */
export const SendSmsInput = z.object({ from: sender, to: z.string({ error: 'Required' }).trim().min(1, 'Required').max(40), text: message, token: apiToken });
export const MakeVoiceCallInput = SendSmsInput.extend({ language: z.enum(VOICE_LANGUAGES).optional() });
/** `POST /api/sendDirect` (§7): one Instagram direct message. */
export const SendDirectInput = z.object({ userIg: z.string({ error: 'Required' }).trim().min(1, 'Required').max(40), message, token: apiToken });

export interface OutreachDto {
  id: number;
  channel: OutreachChannel;
  status: OutreachStatus;
  /** Who started it from the page (null: the send API). */
  userId: number | null;
  userName: string | null;
  sender: string | null;
  text: string;
  language: string | null;
  total: number;
  done: number;
  failed: number;
  unknown: number;
  lastError: string | null;
  createdAt: string;
  finishedAt: string | null;
}

export interface OutreachItemDto {
  line: number;
  recipient: string;
  status: OutreachItemStatus;
  providerId: string | null;
  error: string | null;
  finishedAt: string | null;
}

export interface OutreachListResponse {
  batches: OutreachDto[];
  hasMore: boolean;
}

export interface OutreachDetailResponse {
  batch: OutreachDto;
  items: OutreachItemDto[];
}

/** The answer of a start (page or send API): the batch and the job of its first step. */
export interface OutreachStartedResponse {
  batch: OutreachDto;
  jobId: string;
}

/** The `outreach.step` job's payload. */
export const OutreachStepJob = z.object({ batchId: z.number().int().positive(), chain: z.string().min(1).max(64) });
