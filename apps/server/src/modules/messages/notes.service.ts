import { randomBytes } from 'node:crypto';
import { isAdmin, mentionedPeople, type MentionDto, type MessageDto, type TicketDto } from '@wadesk/contracts';
import type { Database } from '../../db/client.js';
import type { DomainEvents } from '../../events/domain-events.js';
import { AppError } from '../../http/app-error.js';
import type { AuthUser } from '../auth/auth-user.js';
import { canSeeTicket } from '../tickets/ticket-access.js';
import { MentionsRepository, type MentionCandidate } from './mentions.repository.js';
import { MessagesRepository } from './messages.repository.js';

/** How much of a note a mention's notification shows. */
const EXCERPT_LENGTH = 140;

/** A note's start, on one line, cut at EXCERPT_LENGTH characters. */
export function noteExcerpt(body: string): string {
  const line = body.replace(/\s+/g, ' ').trim();
  return line.length > EXCERPT_LENGTH ? `${line.slice(0, EXCERPT_LENGTH - 1).trimEnd()}…` : line;
}

/**
 * Internal notes (issue 36 §1, decision 0038): a message of the ticket marked private, stored and shown to whoever may
 * see the ticket, never handed to a connection (no send, no delivery state), not the ticket's preview nor its time.
 * `@Name` names colleagues: each must be able to see the ticket (else ERR_MENTION_NOT_ALLOWED and nothing is stored);
 * they are recorded in message_mentions and told live (`mention`).
 */
export class NotesService {
  constructor(
    private readonly db: Database,
    private readonly events: DomainEvents,
  ) {}

  /** The colleagues who may see the ticket, by name: whom a note on it may name (the caller excepted). */
  async mentionable(ticket: TicketDto, caller: AuthUser): Promise<{ id: number; name: string }[]> {
    const candidates = await new MentionsRepository(this.db).candidates();
    return candidates.filter((c) => c.id !== caller.id && mayRead(c, ticket)).map(({ id, name }) => ({ id, name }));
  }

  /**
   * The caller's mentions not seen yet (the bell after a reload), newest first, at most 20: only on tickets they may
   * still see (a ticket moved to another queue since drops out).
   */
  async unseenMentions(user: AuthUser, queueIds: number[]): Promise<MentionDto[]> {
    const rows = await new MentionsRepository(this.db).unseen(user.id, 20);
    return rows
      .filter((m) => canSeeTicket({ user, queueIds: isAdmin(user) ? [] : queueIds }, m.ticket))
      .map((m) => ({ ticketId: m.ticketId, messageId: m.messageId, from: m.from, excerpt: noteExcerpt(m.body), contactName: m.contactName, createdAt: m.createdAt.toISOString() }));
  }

  /** The caller opened the ticket (the caller checked they may see it): its mentions of them are seen. */
  async markMentionsSeen(user: AuthUser, ticketId: number): Promise<void> {
    await new MentionsRepository(this.db).markSeen(user.id, ticketId, new Date());
  }

  async add(ticket: TicketDto, input: { body: string; sentBy: AuthUser; quotedMessageId?: number | null }): Promise<MessageDto> {
    const candidates = await new MentionsRepository(this.db).candidates();
    const named = mentionedPeople(input.body, candidates).filter((c) => c.id !== input.sentBy.id);
    const outsiders = named.filter((c) => !mayRead(c, ticket));
    if (outsiders.length > 0) {
      throw new AppError('ERR_MENTION_NOT_ALLOWED', `May not see this ticket: ${outsiders.map((c) => c.name).join(', ')}`, {
        issues: outsiders.map((c) => ({ path: 'body', message: `${c.name} may not see this ticket`, code: 'mentionNotAllowed', params: { name: c.name } })),
      });
    }
    const quoted = input.quotedMessageId ? await new MessagesRepository(this.db).findRecord(input.quotedMessageId) : null;
    if (input.quotedMessageId && (!quoted || quoted.ticketId !== ticket.id)) {
      throw new AppError('ERR_VALIDATION', 'quotedMsg: not a message of this ticket');
    }
    // The note and its mentions commit together.
    const id = await this.db.transaction(async (tx) => {
      const stored = await new MessagesRepository(tx).insertOnce({
        // A note never reaches a network: its id only has to be unique on the connection.
        channelMessageId: `NOTE${randomBytes(10).toString('hex').toUpperCase()}`,
        whatsappId: ticket.whatsappId,
        ticketId: ticket.id,
        contactId: null,
        body: input.body,
        fromMe: true,
        read: true,
        mediaType: null,
        mediaUrl: null,
        ack: 0,
        quotedMsgId: quoted?.id ?? null,
        participantName: null,
        sentByUserId: input.sentBy.id,
        senderKind: 'user',
        private: true,
      });
      if (!stored) throw new AppError('ERR_CREATING_MESSAGE');
      await new MessagesRepository(tx).keepConversationTime(ticket.id);
      await new MentionsRepository(tx).insert(stored, ticket.id, named.map((c) => c.id));
      return stored;
    });
    const message = (await new MessagesRepository(this.db).findDto(id))!;
    // The ticket is as it was (its preview and time are the conversation's): only the chat hears of the note.
    this.events.emit('message.created', { message, ticket });
    if (named.length > 0) {
      this.events.emit('message.mentioned', {
        ticket,
        message,
        from: { id: input.sentBy.id, name: input.sentBy.name },
        excerpt: noteExcerpt(input.body),
        userIds: named.map((c) => c.id),
      });
    }
    return message;
  }
}

/** Whether a colleague may see the ticket (the rule of every ticket read). */
function mayRead(candidate: MentionCandidate, ticket: TicketDto): boolean {
  const { queueIds, ...user } = candidate;
  return canSeeTicket({ user, queueIds }, ticket);
}
