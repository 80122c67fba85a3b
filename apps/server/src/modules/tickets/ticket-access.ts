import { isAdmin, type TicketDto } from '@wadesk/contracts';
import type { AuthUser } from '../auth/auth-user.js';

/** Who a ticket is visible to: admins; users of its queue; everyone when it has no queue; its assignee. */
export interface Viewer {
  user: AuthUser;
  queueIds: number[];
}

export function canSeeTicket(viewer: Viewer, ticket: Pick<TicketDto, 'queueId' | 'userId'>): boolean {
  if (isAdmin(viewer.user)) return true;
  if (ticket.userId === viewer.user.id) return true;
  if (ticket.queueId === null) return true;
  return viewer.queueIds.includes(ticket.queueId);
}

/**
 * Whether the ticket is in the viewer's list of its status (GET /tickets?status=, no search): for users, their own
 * tickets and the pending ones they may see (listFilter's mineOrPendingOf in tickets.service.ts); for admins, every
 * ticket (their Show all switch narrows it on their side).
 */
export function listsTicket(viewer: Viewer, ticket: Pick<TicketDto, 'queueId' | 'userId' | 'status'>): boolean {
  if (!canSeeTicket(viewer, ticket)) return false;
  return isAdmin(viewer.user) || ticket.userId === viewer.user.id || ticket.status === 'pending';
}
