import { z } from 'zod';
import { idField, integerField, textField } from '../validation.js';
import { isOggUrl, MAX_CAMPAIGN_INTERVAL } from './campaigns.js';
import { MessageTemplateField } from './whatsapp.js';

/**
 * The send API (§7 auxiliary calls, under /api): the same names and payloads as the tools this product replaces.
 * Each call is authenticated by the setting userApiToken (`token` here, or `Authorization: Bearer <token>`) or
 * a signed-in admin; `ticketwhatsappId` picks the connection (the default one when absent).
 */
const apiToken = z.string().max(500).optional();
const connection = idField.optional();
/** Digits, `digits@c.us` or a group `id@g.us`. */
const recipient = z.string({ error: 'Required' }).trim().min(1, 'Required').max(60, 'Too Long!');
const httpUrl = textField(2000)
  .trim()
  .min(1, 'Required')
  .refine((value) => {
    try {
      return ['http:', 'https:'].includes(new URL(value).protocol);
    } catch {
      return false;
    }
  }, 'Must be an http or https URL');

/** `POST /api/zdg`: a text message. */
export const SendTextInput = z
  .object({
    number: recipient,
    message: textField(30000).trim().optional(),
    /** An approved template instead of `message`: a `cloud-api` connection only (outside the 24-hour window, the only send allowed). */
    template: MessageTemplateField.optional(),
    token: apiToken,
    ticketwhatsappId: connection,
  })
  .superRefine((input, ctx) => {
    if (!input.template && !input.message) ctx.addIssue({ code: 'custom', path: ['message'], message: 'Required' });
  });

/** `POST /api/sendMedia`, `/api/sendMediaZDG`: a file by URL with a caption. */
export const SendMediaInput = z.object({
  number: recipient,
  url: httpUrl,
  title: textField(1000).trim().optional(),
  token: apiToken,
  ticketwhatsappId: connection,
});

/** `POST /api/sendMediaZDGRec`: an .ogg by URL, as a voice note. */
export const SendVoiceInput = z.object({
  number: recipient,
  url: httpUrl.refine(isOggUrl, 'Only .ogg audio is accepted'),
  token: apiToken,
  ticketwhatsappId: connection,
});

/** `POST /api/zdgGetWppId`: which connection a ticket uses. */
export const GetWppIdInput = z.object({ ticketid: idField, token: apiToken });

const PROTOCOL_FORMAT = 'Must be 1 to 40 letters, digits or dashes';

/**
 * `POST /api/zdgProtocolo`: a protocol number for a ticket, from the protocol service (§7). `protocolo` is a string
 * or, as some clients send it, a whole number (kept as its digits).
 */
export const ProtocolInput = z.object({
  usuario: textField(200).trim().optional(),
  protocolo: z.preprocess(
    (value) => (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? String(value) : value),
    z
      .string({ error: (issue) => (issue.input === undefined || issue.input === null ? 'Required' : PROTOCOL_FORMAT) })
      .trim()
      .regex(/^[\w-]{1,40}$/, PROTOCOL_FORMAT),
  ),
  ticket: idField,
  token: apiToken,
});

/** `POST /api/delContacts`: deletes every contact (and so their tickets and messages). */
export const DeleteAllContactsInput = z.object({ token: apiToken });

const groupText = (max: number) => textField(max).trim().optional();

/** `POST /api/zdgGroups`: every group's title becomes `subject`. */
export const GroupsSubjectInput = z.object({ subject: groupText(100), token: apiToken, ticketwhatsappId: connection });

/** `POST /api/zdgGroupsDescription`: every group's description becomes `description`. */
export const GroupsDescriptionInput = z.object({ description: groupText(2048), token: apiToken, ticketwhatsappId: connection });

/**
 * `POST /api/zdgGroupsCreate`: a group titled `title` with the numbers of `contact` (one number, several separated
 * by lines, commas or semicolons, or a list), as lines.
 */
export const GroupsCreateInput = z.object({
  title: groupText(100),
  contact: z
    .union([textField(1024 * 40), z.array(textField(60)).max(1024)])
    .optional()
    .transform((value) => (Array.isArray(value) ? value : (value ?? '').split(/[,;\r\n]+/)).map((n) => n.trim()).filter(Boolean).join('\n')),
  token: apiToken,
  ticketwhatsappId: connection,
});

/**
 * `POST /api/zdgGroupsMessage`: `newMessageGroup` in every group, or `newMessAgeGroupNasa` privately to every
 * participant (a random `minInterval`–`maxInterval` seconds apart, 5–15 when not given); exactly one of the two.
 */
export const GroupsMessageInput = z.object({
  newMessageGroup: groupText(30000),
  newMessAgeGroupNasa: groupText(30000),
  minInterval: integerField(0, MAX_CAMPAIGN_INTERVAL).optional(),
  maxInterval: integerField(0, MAX_CAMPAIGN_INTERVAL).optional(),
  token: apiToken,
  ticketwhatsappId: connection,
});

/** `POST /api/zdgOpenGroup`, `/api/zdgCloseGroup`: every group open (everyone sends) or closed (admins only). */
export const GroupsOpenCloseInput = z.object({ token: apiToken, ticketwhatsappId: connection });

/** A group action was accepted: it runs as a chain of jobs; `jobId` is its first step (`GET /api/jobs/:id`). */
export interface GroupActionAcceptedResponse {
  jobId: string;
  groupActionId: number;
}

/** A send was accepted: it runs as a job (`GET /api/jobs/:id` shows its outcome). */
export interface SendAcceptedResponse {
  jobId: string;
  campaignId: number;
}

export interface ApiConnectionDto {
  id: number;
  name: string;
  status: string;
  isDefault: boolean;
}

/** `GET /api/whatsappzdg`: every connection's status and id, and the ids of the connected ones. */
export interface ApiConnectionsResponse {
  connections: ApiConnectionDto[];
  connectedIds: number[];
}
