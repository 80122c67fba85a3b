import type { TicketDto } from '@wadesk/contracts';
import type { Database } from '../../db/client.js';
import { closedSince } from '../queues/business-hours.js';
import { TicketsRepository } from '../tickets/tickets.repository.js';
import { OutOfHoursRepository } from './out-of-hours.repository.js';

/**
 * The out-of-hours rule of an inbound message (issue 36 §3, decision 0039): a contact who writes to a conversation
 * nobody has taken, while the schedule that applies to it is closed (its queue's, or its connection's before a queue
 * is chosen), gets that schedule's out-of-hours message once per closed period, and the ticket is marked "arrived out
 * of hours". Answers the ticket as it now is and the text to send (null: nothing to send).
 */
export async function checkOutOfHours(db: Database, ticket: TicketDto, now: Date): Promise<{ ticket: TicketDto; notice: string | null } | null> {
  if (ticket.isGroup || ticket.userId !== null || ticket.status === 'closed') return null;
  const repo = new OutOfHoursRepository(db);
  const schedule = await repo.scheduleOf(ticket.id);
  if (!schedule?.businessHours) return null;
  const since = closedSince(schedule.businessHours, now);
  if (!since) return null;
  if (schedule.noticeAt && schedule.noticeAt.getTime() >= since.getTime()) return null;
  if (!(await repo.claimNotice(ticket.id, now, since))) return null;
  const marked = (await new TicketsRepository(db).findDto(ticket.id)) ?? ticket;
  const text = schedule.outOfHoursMessage.trim();
  return { ticket: marked, notice: text || null };
}
