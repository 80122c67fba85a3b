import type { Profile } from '@wadesk/contracts';
import { asc, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { messageMentions, userQueues, users } from '../../db/schema.js';

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
