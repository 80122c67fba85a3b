import type { Profile } from '@wadesk/contracts';
import { and, asc, desc, eq, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.js';
import { contacts, messageMentions, messages, tickets, userQueues, users } from '../../db/schema.js';

const author = alias(users, 'author');

/** A mention not yet seen, with what the bell shows and where its ticket is (to check it may still be seen). */
export interface UnseenMention {
  ticketId: number;
  messageId: number;
  from: { id: number; name: string };
  body: string;
  contactName: string;
  createdAt: Date;
  ticket: { queueId: number | null; userId: number | null };
}

/** A colleague a note may name: who they are, their profile and queues (to tell whether they may see the ticket). */
export interface MentionCandidate {
  id: number;
  name: string;
  email: string;
  profile: Profile;
  queueIds: number[];
}

/** The only file that queries message_mentions (issue 36 §1). */
export class MentionsRepository {
  constructor(private readonly db: Executor) {}

  /** Every user with their profile and queues, by name. */
  async candidates(): Promise<MentionCandidate[]> {
    const rows = await this.db
      .select({
        id: users.id,
        name: users.name,
        email: users.email,
        profile: users.profile,
        queueIds: sql<number[]>`coalesce((select array_agg(${userQueues.queueId}) from ${userQueues} where ${userQueues.userId} = ${users.id}), '{}')`,
      })
      .from(users)
      .orderBy(asc(sql`lower(${users.name})`), asc(users.id));
    return rows.map((r) => ({ ...r, profile: r.profile as Profile, queueIds: (r.queueIds ?? []).map(Number) }));
  }

  /** The note named these users. */
  async insert(messageId: number, ticketId: number, userIds: readonly number[]): Promise<void> {
    if (userIds.length === 0) return;
    await this.db
      .insert(messageMentions)
      .values(userIds.map((userId) => ({ messageId, ticketId, userId })))
      .onConflictDoNothing();
  }

  /** The user's mentions not seen yet, newest first (notes since deleted left out). */
  async unseen(userId: number, limit: number): Promise<UnseenMention[]> {
    const rows = await this.db
      .select({
        ticketId: messageMentions.ticketId,
        messageId: messageMentions.messageId,
        fromId: author.id,
        fromName: author.name,
        body: messages.body,
        contactName: contacts.name,
        createdAt: messageMentions.createdAt,
        queueId: tickets.queueId,
        assigneeId: tickets.userId,
      })
      .from(messageMentions)
      .innerJoin(messages, eq(messages.id, messageMentions.messageId))
      .innerJoin(tickets, eq(tickets.id, messageMentions.ticketId))
      .innerJoin(contacts, eq(contacts.id, tickets.contactId))
      .innerJoin(author, eq(author.id, messages.sentByUserId))
      .where(and(eq(messageMentions.userId, userId), isNull(messageMentions.seenAt), eq(messages.isDeleted, false)))
      .orderBy(desc(messageMentions.createdAt), desc(messageMentions.messageId))
      .limit(limit);
    return rows.map((r) => ({
      ticketId: r.ticketId,
      messageId: r.messageId,
      from: { id: r.fromId, name: r.fromName },
      body: r.body,
      contactName: r.contactName,
      createdAt: r.createdAt,
      ticket: { queueId: r.queueId, userId: r.assigneeId },
    }));
  }

  /** The user opened the ticket: its mentions of them are seen. */
  async markSeen(userId: number, ticketId: number, at: Date): Promise<void> {
    await this.db
      .update(messageMentions)
      .set({ seenAt: at })
      .where(and(eq(messageMentions.userId, userId), eq(messageMentions.ticketId, ticketId), isNull(messageMentions.seenAt)));
  }

  /** Who a note named, by id (tests, and whoever reads a note's mentions). */
  async mentionedIn(messageId: number): Promise<number[]> {
    const rows = await this.db
      .select({ userId: messageMentions.userId })
      .from(messageMentions)
      .where(sql`${messageMentions.messageId} = ${messageId}`)
      .orderBy(asc(messageMentions.userId));
    return rows.map((r) => r.userId);
  }
}
