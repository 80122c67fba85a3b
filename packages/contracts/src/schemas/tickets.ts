import { z } from 'zod';
import { dateTimeText, idField } from '../validation.js';
import { ContactDto } from './contacts.js';
import { LabelRefDto } from './labels.js';
import { QueueDto } from './queues.js';

export const TICKET_STATUSES = ['pending', 'open', 'closed'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

export const MEDIA_TYPES = ['image', 'audio', 'video', 'location', 'vcard', 'sticker', 'document', 'other'] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

const NamedRef = z.object({ id: z.number().int(), name: z.string() });

/** A contact's answer to the satisfaction survey (issue 36 §5). */
export const TicketCsatDto = z
  .object({ rating: z.number().int().min(1).max(5), comment: z.string().nullable(), at: dateTimeText })
  .meta({ id: 'TicketCsat' });
export type TicketCsatDto = z.infer<typeof TicketCsatDto>;

export const TicketDto = z
  .object({
    id: z.number().int(),
    status: z.enum(TICKET_STATUSES),
    userId: z.number().int().nullable(),
    queueId: z.number().int().nullable(),
    whatsappId: z.number().int(),
    contactId: z.number().int(),
    contact: ContactDto,
    queue: QueueDto.nullable(),
    user: NamedRef.nullable(),
    whatsapp: NamedRef.nullable(),
    lastMessage: z.string(),
    /** When the newest message was created (ISO), null without messages: the ticket row's time (§2). */
    lastMessageAt: dateTimeText.nullable().optional(),
    /**
     * In a search: the newest matching message, cut around the match (text[start, end) is the match), and its id: the
     * chat opened from the hit scrolls to it (issue 33 item 3). The same shape as SearchExcerpt.
     */
    searchMatch: z
      .object({ text: z.string(), start: z.number().int(), end: z.number().int(), messageId: z.number().int().optional() })
      .nullable()
      .optional(),
    unreadMessages: z.number().int(),
    isGroup: z.boolean(),
    protocol: z.string().nullable(),
    /** The ticket's labels (issue 36 §2), by name. */
    labels: z.array(LabelRefDto),
    /** Business hours (issue 36 §3): a message of this conversation came while its queue (or connection) was closed. */
    arrivedOutOfHours: z.boolean(),
    /** Customer satisfaction (issue 36 §5): the contact's rating (1–5), the comment that followed it, and when; null until rated. */
    csat: TicketCsatDto.nullable(),
    createdAt: dateTimeText,
    updatedAt: dateTimeText,
  })
  .meta({ id: 'Ticket' });
export type TicketDto = z.infer<typeof TicketDto>;

/** `GET /api/tickets`: a page of 40, newest change first; a search's count stops at 1000. */
export const TicketListResponse = z.object({ tickets: z.array(TicketDto), count: z.number().int(), hasMore: z.boolean() });
export type TicketListResponse = z.infer<typeof TicketListResponse>;

/** `POST /api/tickets/:id/protocol`: the ticket resolved and the protocol number sent to the contact. */
export const TicketProtocolResponse = z.object({ protocol: z.string(), ticket: TicketDto });
export type TicketProtocolResponse = z.infer<typeof TicketProtocolResponse>;

/** contact; user: an attendant; auto: the desk (greeting, menu, farewell, protocol); bot: the Typebot chatbot. */
export const SENDER_KINDS = ['contact', 'user', 'auto', 'bot'] as const;
export type SenderKind = (typeof SENDER_KINDS)[number];

export const MESSAGE_ORIGINS = ['campaign', 'api', 'group-action', 'schedule', 'bot', 'system', 'phone'] as const;
export type MessageOrigin = (typeof MESSAGE_ORIGINS)[number];

const ContactName = z.object({ name: z.string() }).nullable();

export const MessageDto = z
  .object({
    id: z.number().int(),
    ticketId: z.number().int(),
    body: z.string(),
    fromMe: z.boolean(),
    read: z.boolean(),
    isDeleted: z.boolean(),
    mediaType: z.enum(MEDIA_TYPES).nullable(),
    mediaUrl: z.string().nullable(),
    ack: z.number().int(),
    quotedMsg: z
      .object({
        id: z.number().int(),
        fromMe: z.boolean(),
        body: z.string(),
        contact: ContactName,
        mediaType: z.enum(MEDIA_TYPES).nullable().optional(),
        mediaDuration: z.number().nullable().optional(),
      })
      .nullable(),
    contact: ContactName,
    participantName: z.string().nullable(),
    /** Who wrote it: the contact, an attendant, or the desk itself (greeting, queue menu, farewell, protocol). */
    senderKind: z.enum(SENDER_KINDS),
    /** Seconds of a voice note or audio, when known. */
    mediaDuration: z.number().nullable(),
    /** Why the network could not deliver this sent message (the Cloud API's `failed` status), in words; absent or null otherwise. */
    sendError: z.string().nullable().optional(),
    /**
     * Where a message the desk sent came from (issue 32, decision 0029): null for one typed in the chat or received;
     * `campaign`, `api` (the send API), `group-action`, `schedule` with `originId` (the campaign, action or schedule);
     * `bot` (the chatbot), `system` (greeting, menu, farewell, protocol, transfer notice), `phone` (typed on the phone).
     */
    origin: z.enum(MESSAGE_ORIGINS).nullable().optional(),
    originId: z.number().int().nullable().optional(),
    /**
     * An internal note (issue 36 §1, decision 0038): seen by whoever may see the ticket, never sent to the contact
     * (no delivery state), shown in its own style. False for every other message.
     */
    private: z.boolean(),
    /** The attendant who wrote it (a note's "Note · <name>"), null when none did (the contact, the desk, the chatbot). */
    sentBy: NamedRef.nullable().optional(),
    createdAt: dateTimeText,
  })
  .meta({ id: 'Message' });
export type MessageDto = z.infer<typeof MessageDto>;

/** `GET /api/tickets/{ticketId}/mentionable`: the colleagues who may see the ticket, whom a note's `@Name` may name. */
export const MentionableListResponse = z.object({ users: z.array(NamedRef) }).meta({ id: 'MentionableList' });
export type MentionableListResponse = z.infer<typeof MentionableListResponse>;

/** A note that named the caller and that they have not opened yet (`GET /api/mentions`, the bell after a reload). */
export const MentionDto = z
  .object({
    ticketId: z.number().int(),
    messageId: z.number().int(),
    from: NamedRef,
    excerpt: z.string(),
    contactName: z.string(),
    createdAt: dateTimeText,
  })
  .meta({ id: 'Mention' });
export type MentionDto = z.infer<typeof MentionDto>;
export const MentionListResponse = z.object({ mentions: z.array(MentionDto) });
export type MentionListResponse = z.infer<typeof MentionListResponse>;

/**
 * An earlier ticket of the same contact whose messages a page of `GET /api/messages/:ticketId` holds: the chat
 * shows a separator "Ticket #123 · resolved 12/11/2026 by Ana" above its messages.
 */
export const ConversationTicketDto = z
  .object({
    id: z.number().int(),
    status: z.enum(TICKET_STATUSES),
    whatsappId: z.number().int(),
    createdAt: dateTimeText,
    /** When it was last resolved (ISO), null when never. */
    closedAt: dateTimeText.nullable(),
    closedBy: NamedRef.nullable(),
  })
  .meta({ id: 'ConversationTicket' });
export type ConversationTicketDto = z.infer<typeof ConversationTicketDto>;

/**
 * What happened to a ticket, shown in the chat between the messages. botHandedOver: the contact typed the chatbot's
 * hand-over keyword; botFailed: Typebot could not be reached or answered an error (`error` says what); callRejected:
 * the contact called and the call was rejected (acceptCalls off; `video` for a video call); assigned: automatic
 * assignment gave the ticket to `toUser` (issue 36 §4).
 */
export const TICKET_EVENT_KINDS = ['accepted', 'transferred', 'returned', 'resolved', 'reopened', 'botHandedOver', 'botFailed', 'callRejected', 'assigned'] as const;
export type TicketEventKind = (typeof TICKET_EVENT_KINDS)[number];

export const TicketEventDto = z
  .object({
    id: z.number().int(),
    ticketId: z.number().int(),
    kind: z.enum(TICKET_EVENT_KINDS),
    /** Who did it; null when the desk did (auto-close, a contact writing back). */
    actor: NamedRef.nullable(),
    /** A transfer's destination, as named at the time. */
    toUser: NamedRef.nullable().optional(),
    toQueue: NamedRef.nullable().optional(),
    /** botFailed: what went wrong. */
    error: z.string().optional(),
    /** callRejected: a video call. */
    video: z.boolean().optional(),
    createdAt: dateTimeText,
  })
  .meta({ id: 'TicketEvent' });
export type TicketEventDto = z.infer<typeof TicketEventDto>;

/**
 * `GET /api/messages/:ticketId`: a page of messages and the ticket's events in the same span of time. Past the
 * ticket's first message the pages go on into the contact's earlier tickets the caller may see (newest first, as
 * one conversation); `tickets` describes those whose messages are in this page (each message says its ticketId).
 */
export const MessagesPageDto = z
  .object({
    messages: z.array(MessageDto),
    events: z.array(TicketEventDto),
    tickets: z.array(ConversationTicketDto).optional(),
    ticket: TicketDto,
    count: z.number().int(),
    hasMore: z.boolean(),
  })
  .meta({ id: 'MessagesPage' });
export type MessagesPageDto = z.infer<typeof MessagesPageDto>;

/**
 * `POST /api/ticketsClosed` (§7 "close all"): the view the caller closes from, with the ticket list's own filters, so
 * that what is closed is what the Inbox or Group tab shows (its Working on and Queue lists): `showAll` (admins only),
 * the queue filter, private or group tickets. Without a body (whaticket's client): the caller's open tickets and the
 * pending tickets they may see, private and group.
 */
export const CloseAllTicketsInput = z
  .object({
    showAll: z.boolean().default(false),
    queueIds: z.array(idField).max(500).optional(),
    /** The label filter (issue 36 §2): only the tickets carrying any of these. */
    labelIds: z.array(idField).max(500).optional(),
    isGroup: z.boolean().optional(),
  })
  .nullish()
  .transform((input) => input ?? { showAll: false });
export type CloseAllTicketsInput = z.input<typeof CloseAllTicketsInput>;

/** `POST /api/ticketsClosed`: how many tickets were closed. */
export const CloseAllTicketsResponse = z.object({ closed: z.number().int() });
export type CloseAllTicketsResponse = z.infer<typeof CloseAllTicketsResponse>;
