import type { TicketDto } from '@wadesk/contracts';
import type { TicketEventWrite } from './ticket-events.repository.js';

/**
 * The timeline events of one change of a ticket by `actorUserId`: accepted (pending → open), resolved
 * (→ closed), reopened (closed → open or pending), returned (open → pending, same queue), transferred (to
 * another queue, or to a user other than the one making the change).
 */
export function transitionEvents(before: TicketDto, after: TicketDto, actorUserId: number | null): TicketEventWrite[] {
  const events: TicketEventWrite[] = [];
  const base = { ticketId: after.id, actorUserId };
  const queueChanged = after.queueId !== before.queueId;
  const handedToOther = after.userId !== null && after.userId !== before.userId && after.userId !== actorUserId;
  if (after.status !== before.status) {
    if (after.status === 'closed') events.push({ ...base, kind: 'resolved' });
    else if (before.status === 'closed') events.push({ ...base, kind: 'reopened' });
    else if (after.status === 'open' && !handedToOther) events.push({ ...base, kind: 'accepted' });
    else if (after.status === 'pending' && !queueChanged) events.push({ ...base, kind: 'returned' });
  }
  if (queueChanged || handedToOther) {
    events.push({
      ...base,
      kind: 'transferred',
      toUser: handedToOther && after.user ? { id: after.user.id, name: after.user.name } : null,
      toQueue: queueChanged && after.queue ? { id: after.queue.id, name: after.queue.name } : null,
    });
  }
  return events;
}
