import { FIELD_MESSAGES } from '../validation-messages.js';
import { z } from 'zod';
import { dateTimeText, idField, integerField, textField } from '../validation.js';
import { isOggUrl, MAX_CAMPAIGN_INTERVAL } from './campaigns.js';
import { MessageTemplateField, SESSION_STATUSES } from './whatsapp.js';

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
  }, FIELD_MESSAGES.httpUrl);

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
export const GroupActionAcceptedResponse = z
  .object({ jobId: z.string(), groupActionId: z.number().int() })
  .meta({ id: 'GroupActionAccepted', description: 'A group action was accepted: `jobId` is its first step (GET /api/jobs/{id}).' });
export type GroupActionAcceptedResponse = z.infer<typeof GroupActionAcceptedResponse>;

/** A send was accepted: it runs as a job (`GET /api/jobs/:id` shows its outcome). */
export const SendAcceptedResponse = z
  .object({ jobId: z.string(), campaignId: z.number().int() })
  .meta({ id: 'SendAccepted', description: 'A send was accepted: it runs as a job (GET /api/jobs/{id} shows its outcome), a campaign of one.' });
export type SendAcceptedResponse = z.infer<typeof SendAcceptedResponse>;

export const ApiConnectionDto = z
  .object({ id: z.number().int(), name: z.string(), status: z.enum(SESSION_STATUSES), isDefault: z.boolean() })
  .meta({ id: 'ApiConnection' });
export type ApiConnectionDto = z.infer<typeof ApiConnectionDto>;

/** `GET /api/whatsappzdg`: every connection's status and id, and the ids of the connected ones. */
export const ApiConnectionsResponse = z.object({ connections: z.array(ApiConnectionDto), connectedIds: z.array(z.number().int()) });
export type ApiConnectionsResponse = z.infer<typeof ApiConnectionsResponse>;

/** `GET /api/whatsappzdg/active`: the active instance, the default connection. */
export const ApiActiveConnectionResponse = ApiConnectionDto.pick({ id: true, name: true, status: true });
export type ApiActiveConnectionResponse = z.infer<typeof ApiActiveConnectionResponse>;

/** `POST /api/zdgGetWppId`: the connection the ticket uses, as whaticket's clients read it. */
export const GetWppIdResponse = z.object({ dbWpp: z.array(z.object({ whatsappId: z.number().int() })) });
export type GetWppIdResponse = z.infer<typeof GetWppIdResponse>;

/** `POST /api/zdgProtocolo`: the ticket and the protocol number it now has. */
export const ProtocolResponse = z.object({ ticket: z.number().int(), protocolo: z.string().nullable() });
export type ProtocolResponse = z.infer<typeof ProtocolResponse>;

/** `POST /api/delContacts`: how many contacts were deleted. */
export const DeleteAllContactsResponse = z.object({ deleted: z.number().int() });
export type DeleteAllContactsResponse = z.infer<typeof DeleteAllContactsResponse>;

export const JOB_STATES = ['created', 'retry', 'active', 'completed', 'cancelled', 'failed'] as const;
export type JobStateName = (typeof JOB_STATES)[number];

/** `GET /api/jobs/:id`: a job (a send, a step of a group action or history import) with its state and outcome. */
export const JobDto = z
  .object({
    id: z.uuid(),
    /** The job's kind: its queue (`campaign.step`, `group.step`, `history.step`, `schedule.send`…). */
    name: z.string(),
    state: z.enum(JOB_STATES),
    /** The job's payload: each kind has its own (free JSON here; the kinds' payloads are the contracts' *Job schemas). */
    data: z.unknown(),
    retryCount: z.number().int(),
    retryLimit: z.number().int(),
    /** What the handler answered once completed, or the last attempt's error: free JSON, each kind its own. */
    output: z.unknown(),
    lastError: z.string().nullable(),
    createdOn: dateTimeText,
    startedOn: dateTimeText.nullable(),
    completedOn: dateTimeText.nullable(),
  })
  .meta({ id: 'Job', description: "A job's state, attempts, last error and output." });
export type JobDto = z.infer<typeof JobDto>;

/** The path of `GET /api/jobs/:id`: a job id (a UUID, as the 202 answers give it). */
export const JobParams = z.object({ id: z.uuid('Must be a job id') });
