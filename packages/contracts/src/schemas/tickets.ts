import { z } from 'zod';
import { idField } from '../validation.js';
import type { ContactDto } from './contacts.js';
import type { QueueDto } from './queues.js';
import type { SearchExcerpt } from '../search-excerpt.js';

export const TICKET_STATUSES = ['pending', 'open', 'closed'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

export const MEDIA_TYPES = ['image', 'audio', 'video', 'location', 'vcard', 'sticker', 'document', 'other'] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

export interface TicketDto {
  id: number;
  status: TicketStatus;
  userId: number | null;
  queueId: number | null;
  whatsappId: number;
  contactId: number;
  contact: ContactDto;
  queue: QueueDto | null;
  user: { id: number; name: string } | null;
  whatsapp: { id: number; name: string } | null;
  lastMessage: string;
  /** When the newest message was created (ISO), null without messages: the ticket row's time (§2). */
  lastMessageAt?: string | null;
  /**
   * In a search: the newest matching message, cut around the match (text[start, end) is the match), and its id: the
   * chat opened from the hit scrolls to it (issue 33 item 3).
   */
  searchMatch?: (SearchExcerpt & { messageId?: number }) | null;
  unreadMessages: number;
  isGroup: boolean;
  protocol: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface MessageDto {
  id: number;
  ticketId: number;
  body: string;
  fromMe: boolean;
  read: boolean;
  isDeleted: boolean;
  mediaType: MediaType | null;
  mediaUrl: string | null;
  ack: number;
  quotedMsg: {
    id: number;
    fromMe: boolean;
    body: string;
    contact: { name: string } | null;
    mediaType?: MediaType | null;
    mediaDuration?: number | null;
  } | null;
  contact: { name: string } | null;
  participantName: string | null;
  /** Who wrote it: the contact, an attendant, or the desk itself (greeting, queue menu, farewell, protocol). */
  senderKind: SenderKind;
  /** Seconds of a voice note or audio, when known. */
  mediaDuration: number | null;
  /** Why the network could not deliver this sent message (the Cloud API's `failed` status), in words; absent or null otherwise. */
  sendError?: string | null;
  /**
   * Where a message the desk sent came from (issue 32, decision 0029): null for one typed in the chat or received;
   * `campaign`, `api` (the send API), `group-action`, `schedule` with `originId` (the campaign, action or schedule);
   * `bot` (the chatbot), `system` (greeting, menu, farewell, protocol, transfer notice), `phone` (typed on the phone).
   */
  origin?: MessageOrigin | null;
  originId?: number | null;
  createdAt: string;
}

export const MESSAGE_ORIGINS = ['campaign', 'api', 'group-action', 'schedule', 'bot', 'system', 'phone'] as const;
export type MessageOrigin = (typeof MESSAGE_ORIGINS)[number];

/**
 * An earlier ticket of the same contact whose messages a page of `GET /api/messages/:ticketId` holds: the chat
 * shows a separator "Ticket #123 · resolved 12/11/2026 by Ana" above its messages.
 */
export interface ConversationTicketDto {
  id: number;
  status: TicketStatus;
  whatsappId: number;
  createdAt: string;
  /** When it was last resolved (ISO), null when never. */
  closedAt: string | null;
  closedBy: { id: number; name: string } | null;
}

/** contact; user: an attendant; auto: the desk (greeting, menu, farewell, protocol); bot: the Typebot chatbot. */
export const SENDER_KINDS = ['contact', 'user', 'auto', 'bot'] as const;
export type SenderKind = (typeof SENDER_KINDS)[number];

/** What happened to a ticket, shown in the chat between the messages. */
/**
 * What happened to a ticket, shown in the chat between the messages. botHandedOver: the contact typed the chatbot's
 * hand-over keyword; botFailed: Typebot could not be reached or answered an error (`error` says what); callRejected:
 * the contact called and the call was rejected (acceptCalls off; `video` for a video call).
 */
export const TICKET_EVENT_KINDS = ['accepted', 'transferred', 'returned', 'resolved', 'reopened', 'botHandedOver', 'botFailed', 'callRejected'] as const;
export type TicketEventKind = (typeof TICKET_EVENT_KINDS)[number];

export interface TicketEventDto {
  id: number;
  ticketId: number;
  kind: TicketEventKind;
  /** Who did it; null when the desk did (auto-close, a contact writing back). */
  actor: { id: number; name: string } | null;
  /** A transfer's destination, as named at the time. */
  toUser?: { id: number; name: string } | null;
  toQueue?: { id: number; name: string } | null;
  /** botFailed: what went wrong. */
  error?: string;
  /** callRejected: a video call. */
  video?: boolean;
  createdAt: string;
}

/**
 * `GET /api/messages/:ticketId`: a page of messages and the ticket's events in the same span of time. Past the
 * ticket's first message the pages go on into the contact's earlier tickets the caller may see (newest first, as
 * one conversation); `tickets` describes those whose messages are in this page (each message says its ticketId).
 */
export interface MessagesPageDto {
  messages: MessageDto[];
  events: TicketEventDto[];
  tickets?: ConversationTicketDto[];
  ticket: TicketDto;
  count: number;
  hasMore: boolean;
}

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
    isGroup: z.boolean().optional(),
  })
  .nullish()
  .transform((input) => input ?? { showAll: false });
export type CloseAllTicketsInput = z.input<typeof CloseAllTicketsInput>;

/** `POST /api/ticketsClosed`: how many tickets were closed. */
export interface CloseAllTicketsResponse {
  closed: number;
}
