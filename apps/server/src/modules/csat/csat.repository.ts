import { and, desc, eq, gt, isNotNull, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { tickets } from '../../db/schema.js';

/** The ticket a contact's message may answer: the newest survey sent on that connection. */
export interface SurveyedTicket {
  id: number;
  requestedAt: Date;
  rating: number | null;
  comment: string | null;
  ratedAt: Date | null;
}

/** The only file that reads and writes the satisfaction columns of tickets (issue 36 §5). */
export class CsatRepository {
  constructor(private readonly db: Executor) {}

  /** Notes that the survey went (a new survey: no answer yet). */
  async markRequested(ticketId: number, at: Date): Promise<void> {
    await this.db
      .update(tickets)
      .set({ csatRequestedAt: at, csatRating: null, csatComment: null, csatAt: null })
      .where(eq(tickets.id, ticketId));
  }

  /** Undoes `markRequested` of that instant (the survey could not be sent). */
  async clearRequested(ticketId: number, at: Date): Promise<void> {
    await this.db
      .update(tickets)
      .set({ csatRequestedAt: null })
      .where(and(eq(tickets.id, ticketId), eq(tickets.csatRequestedAt, at), isNull(tickets.csatRating)));
  }

  /** Whether the ticket already carries a rating (a ticket rated once is not asked again). */
  async isRated(ticketId: number): Promise<boolean> {
    const [row] = await this.db.select({ rating: tickets.csatRating }).from(tickets).where(eq(tickets.id, ticketId)).limit(1);
    return row?.rating != null;
  }

  /** The closed ticket of (contact, connection) whose survey went last, after `since`; null when none. */
  async latestSurveyed(contactId: number, whatsappId: number, since: Date): Promise<SurveyedTicket | null> {
    const [row] = await this.db
      .select({ id: tickets.id, requestedAt: tickets.csatRequestedAt, rating: tickets.csatRating, comment: tickets.csatComment, ratedAt: tickets.csatAt })
      .from(tickets)
      .where(
        and(
          eq(tickets.contactId, contactId),
          eq(tickets.whatsappId, whatsappId),
          eq(tickets.status, 'closed'),
          isNotNull(tickets.csatRequestedAt),
          gt(tickets.csatRequestedAt, since),
        ),
      )
      .orderBy(desc(tickets.csatRequestedAt), desc(tickets.id))
      .limit(1);
    return row?.requestedAt ? { ...row, requestedAt: row.requestedAt } : null;
  }

  /** Keeps the rating, once: false when the ticket was rated meanwhile, reopened, or its survey is older than `since`. */
  async rate(ticketId: number, rating: number, at: Date, since: Date): Promise<boolean> {
    const rows = await this.db
      .update(tickets)
      .set({ csatRating: rating, csatAt: at })
      .where(and(eq(tickets.id, ticketId), eq(tickets.status, 'closed'), isNull(tickets.csatRating), gt(tickets.csatRequestedAt, since)))
      .returning({ id: tickets.id });
    return rows.length > 0;
  }

  /** Keeps the comment that follows a rating, once: false when there is one already or the rating is older than `since`. */
  async comment(ticketId: number, comment: string, since: Date): Promise<boolean> {
    const rows = await this.db
      .update(tickets)
      .set({ csatComment: comment })
      .where(and(eq(tickets.id, ticketId), eq(tickets.status, 'closed'), isNotNull(tickets.csatRating), isNull(tickets.csatComment), gt(tickets.csatAt, since)))
      .returning({ id: tickets.id });
    return rows.length > 0;
  }
}
