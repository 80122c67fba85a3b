import { isAdmin, type TicketDto, type UserDto } from '@wadesk/contracts';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useSocket, useSocketEvent } from '../../services/socket';
import { useAuth } from '../auth/auth-context';
import { useLabelsLiveUpdates } from '../labels/labels-api';
import { ticketKey, TICKETS_KEY, type TicketListParams, type TicketsPages } from './tickets-api';

/** Whether a ticket belongs in a list; 'unknown' for searches (the server decides what matches). */
export function belongsTo(ticket: TicketDto, params: TicketListParams, me: Pick<UserDto, 'id' | 'profile'> | null): boolean | 'unknown' {
  if (params.status && ticket.status !== params.status) return false;
  if (params.isGroup !== undefined && ticket.isGroup !== params.isGroup) return false;
  if (params.queueIds && ticket.queueId !== null && !params.queueIds.includes(ticket.queueId)) return false;
  if (params.withUnreadMessages && ticket.unreadMessages === 0) return false;
  const labelIds = params.labelIds;
  if (labelIds?.length && !ticket.labels.some((l) => labelIds.includes(l.id))) return false;
  if (params.searchParam) return 'unknown';
  const seesAll = isAdmin(me) && params.showAll;
  if (!seesAll && ticket.status !== 'pending' && ticket.userId !== me?.id) return false;
  return true;
}

function removeFrom(data: TicketsPages, id: number): TicketsPages {
  let removed = false;
  const pages = data.pages.map((p) => {
    if (!p.tickets.some((t) => t.id === id)) return p;
    removed = true;
    return { ...p, tickets: p.tickets.filter((t) => t.id !== id) };
  });
  if (!removed) return data;
  return { ...data, pages: pages.map((p, i) => (i === 0 ? { ...p, count: Math.max(0, p.count - 1) } : p)) };
}

/** Applies a changed ticket to one cached list: replaced in place, moved to the top, added or removed. */
export function applyTicketToList(
  data: TicketsPages,
  ticket: TicketDto,
  params: TicketListParams,
  me: Pick<UserDto, 'id' | 'profile'> | null,
  moveToTop: boolean,
): TicketsPages {
  const belongs = belongsTo(ticket, params, me);
  const present = data.pages.some((p) => p.tickets.some((t) => t.id === ticket.id));
  if (belongs === false) return present ? removeFrom(data, ticket.id) : data;
  if (present && !moveToTop) {
    return {
      ...data,
      pages: data.pages.map((p) => ({ ...p, tickets: p.tickets.map((t) => (t.id === ticket.id ? ticket : t)) })),
    };
  }
  if (!present && belongs === 'unknown') return data;
  const without = present ? removeFrom(data, ticket.id) : data;
  if (without.pages.length === 0) return without;
  if (!present && !moveToTop) return insertInOrder(without, ticket);
  return {
    ...without,
    pages: without.pages.map((p, i) => (i === 0 ? { ...p, tickets: [ticket, ...p.tickets], count: p.count + 1 } : p)),
  };
}

/** Whether `a` comes before `b` in a list: newest change first, then the higher id (the server's order). */
function before(a: TicketDto, b: TicketDto): boolean {
  const [ta, tb] = [Date.parse(a.updatedAt), Date.parse(b.updatedAt)];
  return ta !== tb ? ta > tb : a.id > b.id;
}

/**
 * A ticket new to a list goes where its last change puts it, as the server orders the lists: a conversation
 * imported from the phone's history (issue 14) lands among the tickets of its own time, not at the top. Older
 * than every loaded row while more pages remain, it is left for those pages (only the count grows).
 */
function insertInOrder(data: TicketsPages, ticket: TicketDto): TicketsPages {
  const pageIndex = data.pages.findIndex((p) => p.tickets.some((t) => before(ticket, t)));
  const last = data.pages.length - 1;
  const target = pageIndex >= 0 ? pageIndex : data.pages[last]!.hasMore ? -1 : last;
  return {
    ...data,
    pages: data.pages.map((p, i) => {
      const counted = i === 0 ? { ...p, count: p.count + 1 } : p;
      if (i !== target) return counted;
      const at = p.tickets.findIndex((t) => before(ticket, t));
      const tickets = at < 0 ? [...p.tickets, ticket] : [...p.tickets.slice(0, at), ticket, ...p.tickets.slice(at)];
      return { ...counted, tickets };
    }),
  };
}

function listParamsOf(key: readonly unknown[]): TicketListParams | null {
  return key[1] === 'list' && typeof key[2] === 'object' && key[2] !== null ? (key[2] as TicketListParams) : null;
}

export function applyTicketChange(
  queryClient: QueryClient,
  me: Pick<UserDto, 'id' | 'profile'> | null,
  change: { type: 'update'; ticket: TicketDto; moveToTop?: boolean } | { type: 'delete'; ticketId: number } | { type: 'read'; ticketId: number },
): void {
  for (const [key, data] of queryClient.getQueriesData<TicketsPages>({ queryKey: [...TICKETS_KEY, 'list'] })) {
    const params = listParamsOf(key);
    if (!data || !params) continue;
    let next: TicketsPages;
    if (change.type === 'update') next = applyTicketToList(data, change.ticket, params, me, !!change.moveToTop);
    else if (change.type === 'delete') next = removeFrom(data, change.ticketId);
    else if (params.withUnreadMessages) next = removeFrom(data, change.ticketId);
    else {
      next = {
        ...data,
        pages: data.pages.map((p) => ({
          ...p,
          tickets: p.tickets.map((t) => (t.id === change.ticketId ? { ...t, unreadMessages: 0 } : t)),
        })),
      };
    }
    if (next !== data) queryClient.setQueryData(key, next);
  }
  if (change.type === 'update') queryClient.setQueryData(ticketKey(change.ticket.id), change.ticket);
  if (change.type === 'delete') queryClient.removeQueries({ queryKey: ticketKey(change.ticketId) });
}

/** Keeps every cached ticket list live (§4): mounted once, in the top bar. */
export function useTicketsLiveUpdates(): void {
  const queryClient = useQueryClient();
  const socket = useSocket();
  const { user } = useAuth();
  // Labels renamed, recoloured or deleted: the tickets carrying them are read again.
  useLabelsLiveUpdates();

  useEffect(() => {
    if (!socket) return undefined;
    const join = () => {
      socket.emit('joinNotification');
      socket.emit('joinTickets', 'open');
      socket.emit('joinTickets', 'pending');
      socket.emit('joinTickets', 'closed');
    };
    // Lists read before the socket was connected (the first screen loads them while it connects, and a dropped
    // socket misses what happened meanwhile) are read again once it is: an event sent in between is not lost.
    const joinAndCatchUp = () => {
      join();
      void queryClient.invalidateQueries({ queryKey: [...TICKETS_KEY, 'list'] });
    };
    if (socket.connected) join();
    socket.on('connect', joinAndCatchUp);
    return () => {
      socket.off('connect', joinAndCatchUp);
    };
  }, [socket, queryClient]);

  useSocketEvent('ticket', (e) => {
    if (e.action === 'update') applyTicketChange(queryClient, user, { type: 'update', ticket: e.ticket });
    else if (e.action === 'delete') applyTicketChange(queryClient, user, { type: 'delete', ticketId: e.ticketId });
    else applyTicketChange(queryClient, user, { type: 'read', ticketId: e.ticketId });
  });
  useSocketEvent('appMessage', (e) => {
    // An internal note (issue 36 §1) leaves the ticket's place: its time and preview are the conversation's.
    if (e.action === 'create') applyTicketChange(queryClient, user, { type: 'update', ticket: e.ticket, moveToTop: !e.message.private });
  });
  useSocketEvent('contact', (e) => {
    if (e.action === 'delete') return;
    for (const [key, data] of queryClient.getQueriesData<TicketsPages>({ queryKey: [...TICKETS_KEY, 'list'] })) {
      if (!data || !data.pages.some((p) => p.tickets.some((t) => t.contactId === e.contact.id))) continue;
      queryClient.setQueryData(key, {
        ...data,
        pages: data.pages.map((p) => ({
          ...p,
          tickets: p.tickets.map((t) => (t.contactId === e.contact.id ? { ...t, contact: e.contact } : t)),
        })),
      });
    }
  });
}
