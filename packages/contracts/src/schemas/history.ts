import { z } from 'zod';
import { dateTimeText, hasNoNulCharacter, idField, INPUT_MESSAGES, integerField, isWellFormedDataUrl, pageNumberField, textField } from '../validation.js';
import { chatIdDigits } from '../whatsapp-number.js';

/**
 * History import (/ZDGHistorico, §2; issue 14): the messages the device holds (the history it sent on pairing,
 * kept per connection) become contacts, tickets and messages with their original times. It runs as a durable job,
 * one chat a step; importing twice adds nothing (each message's network id is stored once per connection).
 */
export const HISTORY_IMPORT_STATUSES = ['queued', 'running', 'done', 'cancelled'] as const;
export type HistoryImportStatus = (typeof HISTORY_IMPORT_STATUSES)[number];

/** Messages per chat the page offers by default, and the most one import may take per chat. */
export const DEFAULT_HISTORY_LIMIT = 50;
export const MAX_HISTORY_LIMIT = 5000;

const limitField = integerField(1, MAX_HISTORY_LIMIT, `Must be a whole number from 1 to ${MAX_HISTORY_LIMIT}`);
/** A contact's number: digits (a `@c.us` suffix and punctuation are dropped); a group chat's id as is (`…@g.us`). */
const contactNumber = z
  .string()
  .max(100, 'Too Long!')
  .transform((s) => chatIdDigits(s.trim()))
  .pipe(z.string().min(5, 'Too Short!').max(60, 'Too Long!'));

/** `POST /api/history/imports`: a connection, the newest `limit` messages of each chat, every chat or one contact's. */
export const HistoryImportInput = z.object({
  whatsappId: idField.optional(),
  limit: limitField,
  /** Only this contact's chat (the chat panel's import); every chat when absent. */
  contactNumber: contactNumber.optional(),
});
export type HistoryImportInput = z.input<typeof HistoryImportInput>;
export type HistoryImportData = z.output<typeof HistoryImportInput>;

export const HistoryImportDto = z
  .object({
    id: z.number().int(),
    status: z.enum(HISTORY_IMPORT_STATUSES),
    whatsappId: z.number().int(),
    whatsappName: z.string().nullable(),
    /** Who started it; null for the send API. */
    userId: z.number().int().nullable(),
    userName: z.string().nullable(),
    /** One contact's chat only; null: every chat. */
    contactNumber: z.string().nullable(),
    /** Messages per chat (the newest ones). */
    limit: z.number().int(),
    /** Chats to import; 0 until the first step has listed them. */
    chatsTotal: z.number().int(),
    chatsDone: z.number().int(),
    /** Messages stored by this import. */
    messagesImported: z.number().int(),
    /** Messages of the chats that were stored before (an earlier import, or received live). */
    messagesSkipped: z.number().int(),
    /** Closed tickets made for chats that had no current ticket. */
    ticketsCreated: z.number().int(),
    /** Current (open or pending) tickets that received imported messages. */
    ticketsJoined: z.number().int(),
    /** Group chats left out (groups are off in the settings). */
    groupsSkipped: z.number().int(),
    /**
     * Chats holding fewer messages than the limit, for which older ones were asked from the phone (WhatsApp's
     * on-demand history): they arrive in a moment, and importing again brings them.
     */
    olderRequested: z.number().int(),
    lastError: z.string().nullable(),
    createdAt: dateTimeText,
    updatedAt: dateTimeText,
    startedAt: dateTimeText.nullable(),
    finishedAt: dateTimeText.nullable(),
  })
  .meta({ id: 'HistoryImport', description: "An import of a connection's device history, with its counts." });
export type HistoryImportDto = z.infer<typeof HistoryImportDto>;

export const HistoryImportStartedResponse = z.object({
  historyImport: HistoryImportDto,
  /** The first step's job (`GET /api/jobs/:id`). */
  jobId: z.string(),
});
export type HistoryImportStartedResponse = z.infer<typeof HistoryImportStartedResponse>;

export const HistoryImportListResponse = z.object({ historyImports: z.array(HistoryImportDto), hasMore: z.boolean() });
export type HistoryImportListResponse = z.infer<typeof HistoryImportListResponse>;

export const HistoryImportListQuery = z.object({ pageNumber: pageNumberField });
export const HISTORY_IMPORT_PAGE_SIZE = 20;

/** What the device holds for a connection (`GET /api/history/device?whatsappId=`): before importing. */
export const DeviceHistorySummaryDto = z
  .object({
    whatsappId: z.number().int(),
    chats: z.number().int(),
    messages: z.number().int(),
    oldest: dateTimeText.nullable(),
    newest: dateTimeText.nullable(),
  })
  .meta({ id: 'DeviceHistorySummary' });
export type DeviceHistorySummaryDto = z.infer<typeof DeviceHistorySummaryDto>;
export const DeviceHistoryQuery = z.object({ whatsappId: idField.optional() });

/**
 * Payload of the `history.step` job: the import's next chat, if `chain` is still the import's. `waits`: how many times
 * the step was handed back for the process that runs the connection (only it can fetch the chat's media).
 */
export const HistoryStepJob = z.object({
  historyImportId: z.number().int().positive(),
  chain: z.string().min(1).max(64),
  waits: z.number().int().min(0).max(100_000).optional(),
});
export type HistoryStepJob = z.infer<typeof HistoryStepJob>;

const apiToken = z.string().max(500).optional();

/** `POST /api/syncMessage` (send API): every chat of the connection, `limit` messages each. */
export const SyncMessageInput = z.object({ limit: limitField, token: apiToken, ticketwhatsappId: idField.optional() });

/** `POST /api/zdgSyncMessageUser` (send API): one contact's chat (`user`: the number), `limit` messages. */
export const SyncMessageUserInput = z.object({ user: contactNumber, limit: limitField, token: apiToken, ticketwhatsappId: idField.optional() });

/** A history import was accepted (202): it runs as a chain of jobs; `jobId` is its first step. */
export const HistoryImportAcceptedResponse = z
  .object({ jobId: z.string(), historyImportId: z.number().int() })
  .meta({ id: 'HistoryImportAccepted', description: 'A history import was accepted: `jobId` is its first step (GET /api/jobs/{id}).' });
export type HistoryImportAcceptedResponse = z.infer<typeof HistoryImportAcceptedResponse>;

const networkToken = () => z.string().trim().min(1).max(200).refine(hasNoNulCharacter, INPUT_MESSAGES.invalidCharacter);

/** Kinds of media a seeded history message may carry. */
export const SIMULATOR_HISTORY_MEDIA_TYPES = ['image', 'audio', 'video', 'document', 'sticker', 'location', 'vcard'] as const;

/** One message of the simulated phone's history. */
export const SimulatorHistoryMessage = z
  .object({
    id: networkToken(),
    /** The contact's number, or a group id ending in @g.us. */
    chat: z
      .string()
      .trim()
      .transform(chatIdDigits)
      .pipe(z.string().min(5, 'Too Short!').max(60, 'Too Long!')),
    fromMe: z.boolean().default(false),
    body: textField(30000).default(''),
    /** ISO date-time or milliseconds since 1970. */
    timestamp: z.union([z.number().int().min(0), z.string().max(40)]).pipe(z.coerce.date({ error: 'Must be a date' })),
    mediaType: z.enum(SIMULATOR_HISTORY_MEDIA_TYPES).optional(),
    /** A `data:` URL or a path on the app's own origin (as the inbound route takes it). */
    mediaUrl: z
      .string()
      .max(3 * 1024 * 1024)
      .refine((s) => s.startsWith('data:') || (s.startsWith('/') && !s.startsWith('//')), 'Must be a data: URL or a path')
      .refine((s) => !s.startsWith('data:') || isWellFormedDataUrl(s), INPUT_MESSAGES.invalidDataUrl)
      .optional(),
    quotedId: networkToken().optional(),
    /** The contact's (or the group's) name as the phone knows it. */
    name: textField(200).trim().optional(),
    /** In a group: who wrote it (a number). */
    participant: z.string().transform((s) => s.replace(/\D/g, '')).pipe(z.string().min(5).max(30)).optional(),
  })
  .refine((m) => !(m.mediaType && !['location', 'vcard'].includes(m.mediaType) && !m.mediaUrl), { message: 'Required', path: ['mediaUrl'] });

/** `POST /api/simulator/:whatsappId/history`: seeds the simulated phone's history, as a device sends it on pairing. */
export const SimulatorHistoryInput = z.object({ messages: z.array(SimulatorHistoryMessage).min(1, 'Required').max(5000) });
export type SimulatorHistoryInput = z.input<typeof SimulatorHistoryInput>;
