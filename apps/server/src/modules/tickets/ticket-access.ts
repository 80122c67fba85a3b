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
