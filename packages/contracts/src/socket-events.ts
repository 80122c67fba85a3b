import type { CampaignDto } from './schemas/campaigns.js';
import type { GroupActionDto } from './schemas/groups.js';
import type { OutreachDto } from './schemas/outreach.js';
import type { ScheduleDto } from './schemas/schedules.js';
import type { HistoryImportDto } from './schemas/history.js';
import type { ContactDto } from './schemas/contacts.js';
import type { LabelDto } from './schemas/labels.js';
import type { QueueDto } from './schemas/queues.js';
import type { QuickAnswerDto } from './schemas/quick-answers.js';
import type { SettingDto } from './schemas/settings.js';
import type { MessageDto, TicketDto, TicketStatus } from './schemas/tickets.js';
import type { UserDto } from './schemas/users.js';
import type { WhatsappDto, WhatsappSessionDto } from './schemas/whatsapp.js';

/** Events the server sends (§4 "Live updates"), each `{ action, ... }`. */
export interface ServerToClientEvents {
  user: (e: { action: 'create' | 'update'; user: UserDto } | { action: 'delete'; userId: number }) => void;
  settings: (e: { action: 'update'; setting: SettingDto }) => void;
  whatsapp: (e: { action: 'update'; whatsapp: WhatsappDto } | { action: 'delete'; whatsappId: number }) => void;
  whatsappSession: (e: { action: 'update'; session: WhatsappSessionDto }) => void;
  /**
   * To each socket whose channels show the ticket (see ClientToServerEvents): `update` with the ticket as it is now;
   * `delete` when it is no longer shown there (it changed status, queue or attendant, or was deleted); `updateUnread`
   * when it was read.
   */
  ticket: (
    e:
      | { action: 'update'; ticket: TicketDto }
      | { action: 'updateUnread'; ticketId: number }
      | { action: 'delete'; ticketId: number },
  ) => void;
  /**
   * A colleague transferred a ticket to the receiving user (issue 32): to that user only, for the bell, the sound and
   * the toast "<by> transferred <contact> to you". The ticket itself comes as a `ticket` update as always.
   */
  ticketTransfer: (e: { action: 'create'; ticket: TicketDto; by: { id: number; name: string } }) => void;
  /**
   * Automatic assignment gave a ticket to the receiving user (issue 36 §4): to that user only, for the bell, the sound
   * and the toast "<contact> was assigned to you". The ticket itself comes as a `ticket` update as always.
   */
  ticketAssigned: (e: { action: 'create'; ticket: TicketDto }) => void;
  /**
   * A colleague named the receiving user (`@Name`) in an internal note (issue 36 §1): to that user only, and only when
   * they may see the ticket, for the bell, the sound and the browser notification; `excerpt` is the note's start.
   */
  mention: (e: {
    action: 'create';
    ticketId: number;
    messageId: number;
    from: { id: number; name: string };
    excerpt: string;
    contactName: string;
  }) => void;
  appMessage: (e: { action: 'create' | 'update'; message: MessageDto; ticket: TicketDto; contact: ContactDto }) => void;
  contact: (e: { action: 'create' | 'update'; contact: ContactDto } | { action: 'delete'; contactId: number }) => void;
  quickAnswer: (
    e: { action: 'create' | 'update'; quickAnswer: QuickAnswerDto } | { action: 'delete'; quickAnswerId: number },
  ) => void;
  queue: (e: { action: 'create' | 'update'; queue: QueueDto } | { action: 'delete'; queueId: number }) => void;
  /**
   * A label created, renamed or recoloured, or deleted (issue 36 §2): to every signed-in user (everyone may pick
   * labels). A deleted label is gone from every ticket and contact: clients drop it from what they hold.
   */
  label: (e: { action: 'create' | 'update'; label: LabelDto } | { action: 'delete'; labelId: number }) => void;
  /** A bulk send's progress: to its creator and to admins, at least once a second while it runs. */
  campaign: (e: { action: 'update'; campaign: CampaignDto }) => void;
  /** A group action's progress (issue 13): to admins only. */
  groupAction: (e: { action: 'update'; groupAction: GroupActionDto }) => void;
  outreach: (e: { action: 'update'; batch: OutreachDto }) => void;
  /** A scheduled message created, changed, sent, failed or cancelled (issue 14): to its author and to admins. */
  schedule: (e: { action: 'create' | 'update'; schedule: ScheduleDto }) => void;
  /** A history import's progress (issue 14): to admins only. */
  historyImport: (e: { action: 'update'; historyImport: HistoryImportDto }) => void;
  /**
   * The socket's own sign-in, to that socket only: its access token expires within a minute (`expiring`: send a
   * fresh one with `authenticate` to keep the socket and its channels), it expired (`expired`), or the sign-in
   * ended (`ended`: a logout, or its refresh token was revoked). The server disconnects the socket right after
   * `expired` and `ended`.
   */
  session: (e: { action: 'expiring'; expiresAt: string } | { action: 'expired' } | { action: 'ended' }) => void;
}

export type JoinAck = (result: { ok: boolean; error?: string }) => void;

/**
 * Channels a client asks to join (§4), each checked. Once a socket has joined one, it hears of tickets and their
 * messages through its channels only: `joinNotification` every ticket its user may see, `joinTickets(status)` the
 * tickets of the user's list of that status, `joinChatBox(id)` that ticket. Before, it hears as with `notification`.
 */
export interface ClientToServerEvents {
  joinNotification: (ack?: JoinAck) => void;
  joinTickets: (status: TicketStatus, ack?: JoinAck) => void;
  joinChatBox: (ticketId: number, ack?: JoinAck) => void;
  leaveChatBox: (ticketId: number) => void;
  /**
   * Hands the socket a fresh access token of the same user (after a refresh, or when told `session` `expiring`): the
   * socket keeps its channels. A socket whose token expires without one is told `session` `expired` and disconnected;
   * the ack says ERR_SESSION_EXPIRED when the token is refused.
   */
  authenticate: (payload: { token: string }, ack?: JoinAck) => void;
}

export type ClientEventName = keyof ClientToServerEvents;

export type ServerEventName = keyof ServerToClientEvents;
export type ServerEventPayload<E extends ServerEventName> = Parameters<ServerToClientEvents[E]>[0];
