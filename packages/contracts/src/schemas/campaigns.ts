import { z } from 'zod';
import { idField, integerField, pageNumberField, textField } from '../validation.js';
import type { NumberProblem } from '../whatsapp-number.js';
import { MessageTemplateField, type MessageTemplate } from './whatsapp.js';

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
      ctx.addIssue({ code: 'custom', path: ['url'], message: 'Must be an http or https URL' });
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
export interface BulkMediaFolderDto {
  label: string;
  /** The absolute path on the server: admins only. */
  folder?: string;
  /** Its files, named relative to it (sorted, at most MEDIA_FOLDER_LIST_MAX): /ZDGMedia2 offers them (issue 33 item 14). */
  files?: string[];
}

/** How many file names GET /api/campaigns/media-folder lists at most. */
export const MEDIA_FOLDER_LIST_MAX = 500;

export interface CampaignInvalidLine {
  line: number;
  reason: NumberProblem;
}

export interface CampaignCreatedResponse {
  id: number;
  /** Recipients that will be sent to (valid, distinct numbers). */
  total: number;
  invalid: CampaignInvalidLine[];
}

export interface CampaignDto {
  id: number;
  kind: CampaignKind;
  status: CampaignStatus;
  whatsappId: number;
  whatsappName: string | null;
  userId: number | null;
  userName: string | null;
  message: string | null;
  url: string | null;
  title: string | null;
  path: string | null;
  minInterval: number;
  maxInterval: number;
  /** The template each recipient gets (cloud-api connections, issue 18); null for a free-text send. */
  template: MessageTemplate | null;
  /** Valid recipients. */
  total: number;
  sent: number;
  failed: number;
  /** Recipients whose outcome is not known (the server stopped during their send): never sent again. */
  unknown: number;
  /** Lines that were not numbers (or repeated one). */
  invalid: number;
  /** When the next send is due, while running. */
  nextSendAt: string | null;
  /** Why the campaign paused or stopped by itself (e.g. the connection went down). */
  lastError: string | null;
  createdAt: string;
  /** Last change: of two copies of a campaign, the later one is current (socket events may cross). */
  updatedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

export interface CampaignListResponse {
  campaigns: CampaignDto[];
  hasMore: boolean;
}

export interface CampaignRecipientDto {
  /** Line of the numbers text (1-based). */
  line: number;
  /** The normalized number; the line's text for an invalid line. */
  number: string;
  status: RecipientStatus;
  error: string | null;
  sentAt: string | null;
}

export interface CampaignRecipientListResponse {
  recipients: CampaignRecipientDto[];
  hasMore: boolean;
}

export const CampaignListQuery = z.object({ pageNumber: pageNumberField });
export const CampaignRecipientListQuery = z.object({ pageNumber: pageNumberField });

/** Page size of the campaign and recipient lists. */
export const CAMPAIGN_PAGE_SIZE = 20;

/** Payload of the `campaign.step` job: send the campaign's next recipient, if `chain` is still the campaign's. */
export const CampaignStepJob = z.object({ campaignId: z.number().int().positive(), chain: z.string().min(1).max(64) });
export type CampaignStepJob = z.infer<typeof CampaignStepJob>;
