import { FIELD_MESSAGES } from '../validation-messages.js';
import { z } from 'zod';
import { dateTimeText, idField, integerField, pageNumberField, textField } from '../validation.js';
import { NUMBER_PROBLEM_MESSAGES, type NumberProblem } from '../whatsapp-number.js';
import { MessageTemplateField } from './whatsapp.js';

const NUMBER_PROBLEMS = Object.keys(NUMBER_PROBLEM_MESSAGES) as [NumberProblem, ...NumberProblem[]];

/**
 * Bulk sends (§2 "Bulk-send tools", §5, §9): one campaign per send, run by the server as a durable job.
 * - text (/ZDG): `message`;
 * - mediaUrl (/ZDGMedia): a file fetched from `url`, sent with `title` as its caption;
 * - mediaPath (/ZDGMedia2): a file of the bulk media folder at `path` (relative to the folder, or absolute), with `title`;
 * - audio (/ZDGMedia3): an `.ogg` file fetched from `url`, sent as a voice note.
 */
export const CAMPAIGN_KINDS = ['text', 'mediaUrl', 'mediaPath', 'audio'] as const;
export type CampaignKind = (typeof CAMPAIGN_KINDS)[number];

export const CAMPAIGN_STATUSES = ['queued', 'running', 'paused', 'done', 'cancelled'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

export const RECIPIENT_STATUSES = ['pending', 'sending', 'sent', 'failed', 'invalid', 'unknown'] as const;
export type RecipientStatus = (typeof RECIPIENT_STATUSES)[number];

/** Longest pause between two sends, in seconds (one hour). */
export const MAX_CAMPAIGN_INTERVAL = 3600;
/** Most recipients in one campaign. */
export const MAX_CAMPAIGN_NUMBERS = 10_000;
/** The advice shown on every bulk-send page (§9). */
export const CAMPAIGN_BLOCK_ADVICE = 30;

/** Which fields each kind needs besides the numbers and intervals (§5: all of them required). */
export const CAMPAIGN_FIELDS: Record<CampaignKind, readonly ('message' | 'url' | 'title' | 'path')[]> = {
  text: ['message'],
  mediaUrl: ['url', 'title'],
  mediaPath: ['path', 'title'],
  audio: ['url'],
};

/** Whether `url` is an http(s) URL whose path ends in `.ogg` (the audio tool accepts nothing else, §5). */
export function isOggUrl(url: string): boolean {
  try {
    return new URL(url).pathname.toLowerCase().endsWith('.ogg');
  } catch {
    return false;
  }
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

const optionalText = (max: number) => textField(max).trim().optional();
const intervalField = integerField(0, MAX_CAMPAIGN_INTERVAL, `Must be a whole number of seconds from 0 to ${MAX_CAMPAIGN_INTERVAL}`);

/** `POST /api/campaigns`. */
export const CampaignInput = z
  .object({
    whatsappId: idField.optional(),
    kind: z.enum(CAMPAIGN_KINDS, { error: `Must be one of: ${CAMPAIGN_KINDS.join(', ')}` }),
    numbers: textField(MAX_CAMPAIGN_NUMBERS * 40),
    message: optionalText(30000),
    url: optionalText(2000),
    title: optionalText(1000),
    path: optionalText(1000),
    minInterval: intervalField,
    maxInterval: intervalField,
    /** An approved template instead of `message` (kind text only): required on a `cloud-api` connection (issue 18). */
    template: MessageTemplateField.optional(),
  })
  .superRefine((input, ctx) => {
    if (input.template && input.kind !== 'text') ctx.addIssue({ code: 'custom', path: ['template'], message: 'Only a text send can be a template' });
    for (const field of CAMPAIGN_FIELDS[input.kind]) {
      if (field === 'message' && input.template) continue;
      if (!input[field]) ctx.addIssue({ code: 'custom', path: [field], message: 'Required' });
    }
    if (input.numbers.trim() === '') ctx.addIssue({ code: 'custom', path: ['numbers'], message: 'Required' });
    if (input.minInterval > input.maxInterval) {
      ctx.addIssue({ code: 'custom', path: ['maxInterval'], message: 'Must not be less than the minimum interval' });
    }
    if ((input.kind === 'mediaUrl' || input.kind === 'audio') && input.url && !isHttpUrl(input.url)) {
      ctx.addIssue({ code: 'custom', path: ['url'], message: FIELD_MESSAGES.httpUrl });
    }
    if (input.kind === 'audio' && input.url && !isOggUrl(input.url)) {
      ctx.addIssue({ code: 'custom', path: ['url'], message: 'Only .ogg audio is accepted' });
    }
  });
export type CampaignInput = z.input<typeof CampaignInput>;
export type CampaignData = z.output<typeof CampaignInput>;

/**
 * `GET /api/campaigns/media-folder`: where /ZDGMedia2's files must be. Attendants read the folder's label (its name),
 * never the server's absolute path; admins read the path too.
 */
export const BulkMediaFolderDto = z
  .object({
    label: z.string(),
    /** The absolute path on the server: admins only. */
    folder: z.string().optional(),
    /** Its files, named relative to it (sorted, at most MEDIA_FOLDER_LIST_MAX): /ZDGMedia2 offers them (issue 33 item 14). */
    files: z.array(z.string()).optional(),
  })
  .meta({ id: 'BulkMediaFolder' });
export type BulkMediaFolderDto = z.infer<typeof BulkMediaFolderDto>;

/** How many file names GET /api/campaigns/media-folder lists at most. */
export const MEDIA_FOLDER_LIST_MAX = 500;

export const CampaignInvalidLine = z.object({ line: z.number().int(), reason: z.enum(NUMBER_PROBLEMS) });
export type CampaignInvalidLine = z.infer<typeof CampaignInvalidLine>;

export const CampaignCreatedResponse = z
  .object({
    id: z.number().int(),
    /** Recipients that will be sent to (valid, distinct numbers). */
    total: z.number().int(),
    invalid: z.array(CampaignInvalidLine),
  })
  .meta({ id: 'CampaignCreated' });
export type CampaignCreatedResponse = z.infer<typeof CampaignCreatedResponse>;

/** The approved template a bulk send or a scheduled message goes out as (an answer: `MessageTemplateField` as stored). */
export const MessageTemplateDto = z
  .object({ name: z.string(), language: z.string(), variables: z.array(z.string()) })
  .meta({ id: 'MessageTemplate', description: 'An approved Cloud API template: its name, language and the values of its {{n}} placeholders in order.' });

export const CampaignDto = z
  .object({
    id: z.number().int(),
    kind: z.enum(CAMPAIGN_KINDS),
    status: z.enum(CAMPAIGN_STATUSES),
    whatsappId: z.number().int(),
    whatsappName: z.string().nullable(),
    userId: z.number().int().nullable(),
    userName: z.string().nullable(),
    message: z.string().nullable(),
    url: z.string().nullable(),
    title: z.string().nullable(),
    path: z.string().nullable(),
    minInterval: z.number().int(),
    maxInterval: z.number().int(),
    /** The template each recipient gets (cloud-api connections, issue 18); null for a free-text send. */
    template: MessageTemplateDto.nullable(),
    /** Valid recipients. */
    total: z.number().int(),
    sent: z.number().int(),
    failed: z.number().int(),
    /** Recipients whose outcome is not known (the server stopped during their send): never sent again. */
    unknown: z.number().int(),
    /** Lines that were not numbers (or repeated one). */
    invalid: z.number().int(),
    /** When the next send is due, while running. */
    nextSendAt: dateTimeText.nullable(),
    /** Why the campaign paused or stopped by itself (e.g. the connection went down). */
    lastError: z.string().nullable(),
    createdAt: dateTimeText,
    /** Last change: of two copies of a campaign, the later one is current (socket events may cross). */
    updatedAt: dateTimeText,
    startedAt: dateTimeText.nullable(),
    finishedAt: dateTimeText.nullable(),
  })
  .meta({ id: 'Campaign', description: 'A bulk send (a campaign), with its counts.' });
export type CampaignDto = z.infer<typeof CampaignDto>;

export const CampaignListResponse = z.object({ campaigns: z.array(CampaignDto), hasMore: z.boolean() });
export type CampaignListResponse = z.infer<typeof CampaignListResponse>;

export const CampaignRecipientDto = z
  .object({
    /** Line of the numbers text (1-based). */
    line: z.number().int(),
    /** The normalized number; the line's text for an invalid line. */
    number: z.string(),
    status: z.enum(RECIPIENT_STATUSES),
    error: z.string().nullable(),
    sentAt: dateTimeText.nullable(),
  })
  .meta({ id: 'CampaignRecipient' });
export type CampaignRecipientDto = z.infer<typeof CampaignRecipientDto>;

export const CampaignRecipientListResponse = z.object({ recipients: z.array(CampaignRecipientDto), hasMore: z.boolean() });
export type CampaignRecipientListResponse = z.infer<typeof CampaignRecipientListResponse>;

export const CampaignListQuery = z.object({ pageNumber: pageNumberField });
export const CampaignRecipientListQuery = z.object({ pageNumber: pageNumberField });

/** Page size of the campaign and recipient lists. */
export const CAMPAIGN_PAGE_SIZE = 20;

/** Payload of the `campaign.step` job: send the campaign's next recipient, if `chain` is still the campaign's. */
export const CampaignStepJob = z.object({ campaignId: z.number().int().positive(), chain: z.string().min(1).max(64) });
export type CampaignStepJob = z.infer<typeof CampaignStepJob>;
