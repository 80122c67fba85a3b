import { chatIdDigits, lastMessageOf, type MediaType, type MessageDto, type MessageOrigin, type TicketDto } from '@wadesk/contracts';
import type { Database, Transaction } from '../../db/client.js';
import type { DomainEvents } from '../../events/domain-events.js';
import { ContactsInboundRepository } from '../contacts/contacts-inbound.repository.js';
import { TicketsRepository } from '../tickets/tickets.repository.js';
import { MessagesRepository } from './messages.repository.js';

/** A message a tool handed to the network itself (a bulk send, the send API, a group action): what the record keeps. */
export interface SentElsewhere {
  whatsappId: number;
  /** Where it went: a number (any format the tools accept) or a group id (`…@g.us`). */
  to: string;
  body: string;
  mediaType?: MediaType | null;
  mediaUrl?: string | null;
  filename?: string;
  /** The network's id of the sent message (its acks find it by this). */
  channelMessageId: string;
  sentAt?: Date;
  origin: MessageOrigin;
  originId: number | null;
  sentByUserId: number | null;
}

/** The chat id contacts are stored by: a group id as is, a number as its digits. */
export function conversationNumber(to: string): { number: string; isGroup: boolean } {
  return { number: chatIdDigits(to), isGroup: to.endsWith('@g.us') };
}

/**
 * The ticket a message the desk sends outside the chat goes into (decision 0029): the contact's open or pending
 * ticket on the connection; else their most recently updated closed ticket, which stays closed; else a new closed
 * ticket. Nothing enters an Inbox or Queue tab until the contact answers (the answer reopens the ticket: inbound).
 * One transaction at a time per (contact, connection), so two sends never make two tickets.
 */
export async function conversationTicket(tx: Transaction, contactId: number, whatsappId: number, isGroup: boolean): Promise<number> {
  const repo = new TicketsRepository(tx);
  await repo.lockConversation(contactId, whatsappId);
  return (
    (await repo.findActive(contactId, whatsappId)) ??
    (await repo.findLatestClosed(contactId, whatsappId)) ??
    (await repo.insert({ contactId, whatsappId, status: 'closed', isGroup, queueId: null }))
  );
}

/**
 * One conversation record (issue 32 §1): stores what a tool sent through a driver directly in the contact's
 * conversation, marked fromMe with its origin, and announces it like any message. A failure to record is the
 * caller's to log: the message is already on the network and is not sent again.
 */
export class ConversationRecord {
  constructor(
    private readonly db: Database,
    private readonly events: DomainEvents,
  ) {}

  async recordSent(sent: SentElsewhere): Promise<{ message: MessageDto; ticket: TicketDto } | null> {
    const { number, isGroup } = conversationNumber(sent.to);
    if (!number) return null;
    const preview = lastMessageOf({ body: sent.body, mediaType: sent.mediaType ?? null, filename: sent.filename });
    const stored = await this.db.transaction(async (tx) => {
      const contact = await new ContactsInboundRepository(tx).findOrCreateByNumber(number, undefined, isGroup);
      const ticketId = await conversationTicket(tx, contact.id, sent.whatsappId, isGroup);
      return new MessagesRepository(tx).insertIntoTicket(
        {
          channelMessageId: sent.channelMessageId,
          whatsappId: sent.whatsappId,
          ticketId,
          contactId: null,
          body: sent.body,
          fromMe: true,
          read: true,
          mediaType: sent.mediaType ?? null,
          mediaUrl: sent.mediaUrl ?? null,
          ack: 1,
          quotedMsgId: null,
          participantName: null,
          sentByUserId: sent.sentByUserId,
          senderKind: sent.sentByUserId === null ? 'auto' : 'user',
          origin: sent.origin,
          originId: sent.originId,
          createdAt: sent.sentAt,
        },
        preview,
        false,
      );
    });
    // Null: that network id is stored already (an echo of the send got there first).
    if (!stored) return null;
    this.events.emit('message.created', stored);
    const { status, queueId, userId } = stored.ticket;
    this.events.emit('ticket.updated', { ticket: stored.ticket, previous: { status, queueId, userId } });
    return stored;
  }
}
