import { and, eq, isNull, lt, or } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { queues, tickets, whatsapps, type BusinessHours } from '../../db/schema.js';

/** The schedule that applies to a ticket now (issue 36 §3): its queue's once it has one, its connection's before. */
export interface TicketSchedule {
  businessHours: BusinessHours | null;
  outOfHoursMessage: string;
  /** When the last out-of-hours notice of this conversation went; null: never. */
  noticeAt: Date | null;
}

/** The only file that reads and writes the out-of-hours marks of tickets (decision 0039). */
export class OutOfHoursRepository {
  constructor(private readonly db: Executor) {}

  async scheduleOf(ticketId: number): Promise<TicketSchedule | null> {
    const [row] = await this.db
      .select({
        queueId: tickets.queueId,
        noticeAt: tickets.outOfHoursNoticeAt,
        queueHours: queues.businessHours,
        queueMessage: queues.outOfHoursMessage,
        connectionHours: whatsapps.businessHours,
        connectionMessage: whatsapps.outOfHoursMessage,
      })
      .from(tickets)
      .leftJoin(queues, eq(queues.id, tickets.queueId))
      .leftJoin(whatsapps, eq(whatsapps.id, tickets.whatsappId))
      .where(eq(tickets.id, ticketId))
      .limit(1);
    if (!row) return null;
    return row.queueId !== null
      ? { businessHours: row.queueHours ?? null, outOfHoursMessage: row.queueMessage ?? '', noticeAt: row.noticeAt }
      : { businessHours: row.connectionHours ?? null, outOfHoursMessage: row.connectionMessage ?? '', noticeAt: row.noticeAt };
  }

  /**
   * Marks the ticket "arrived out of hours" and notes the notice at `at`, unless a notice went since `periodStart`
   * (another message of the same closed period, perhaps on another process): true when this call took it.
   */
  async claimNotice(ticketId: number, at: Date, periodStart: Date): Promise<boolean> {
    const rows = await this.db
      .update(tickets)
      .set({ arrivedOutOfHours: true, outOfHoursNoticeAt: at })
      .where(and(eq(tickets.id, ticketId), or(isNull(tickets.outOfHoursNoticeAt), lt(tickets.outOfHoursNoticeAt, periodStart))))
      .returning({ id: tickets.id });
    return rows.length > 0;
  }
}
