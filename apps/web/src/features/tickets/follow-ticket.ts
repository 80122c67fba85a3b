import type { TicketDto } from '@wadesk/contracts';

/**
 * Navigation state asking the tickets manager to show the list a ticket just moved to (Accept, New
 * ticket, Reopen): the Inbox or Group tab, sub-tab Working on, so the ticket taken stays in sight.
 */
export interface FollowTicketState {
  follow: { ticketId: number; isGroup: boolean };
}

export function followTicket(ticket: Pick<TicketDto, 'id' | 'isGroup'>): FollowTicketState {
  return { follow: { ticketId: ticket.id, isGroup: ticket.isGroup } };
}

export function readFollow(state: unknown): FollowTicketState['follow'] | null {
  if (!state || typeof state !== 'object' || !('follow' in state)) return null;
  const follow = (state as FollowTicketState).follow;
  return follow && typeof follow.ticketId === 'number' ? follow : null;
}
