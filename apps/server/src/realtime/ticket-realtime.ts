import { isAdmin, TICKET_STATUSES, type TicketDto, type TicketStatus } from '@wadesk/contracts';
import type { DomainEvents, TicketPlace } from '../events/domain-events.js';
import type { AuthUser } from '../modules/auth/auth-user.js';
import { canSeeTicket, listsTicket } from '../modules/tickets/ticket-access.js';
import { answer, localSockets, onEveryProcess, rooms, type AppSocket, type RealtimeServer } from './socket-server.js';

/** What the realtime layer needs to know about tickets and users. */
export interface TicketAccess {
  queueIdsOf(userId: number): Promise<number[]>;
  /** Whether the user may see the ticket (for joining its chat room). */
  canSee(user: AuthUser, ticketId: number): Promise<boolean>;
  loadTickets(ids: number[]): Promise<TicketDto[]>;
}

export const ticketRooms = {
  queue: (id: number | null) => (id === null ? 'queue:none' : `queue:${id}`),
  chat: (ticketId: number) => `ticket:${ticketId}`,
  status: (status: TicketStatus) => `status:${status}`,
};

/** The rooms of every socket allowed to see a ticket: admins, its queue's users (or everyone without a queue), its assignee. */
export function audienceOf(ticket: Pick<TicketDto, 'queueId' | 'userId'>): string[] {
  const audience = [rooms.admins, ticketRooms.queue(ticket.queueId)];
  if (ticket.userId) audience.push(rooms.user(ticket.userId));
  return audience;
}

/** Whether the socket's user may see the ticket now (the same rule as the ticket list). */
export function mayReceive(socket: AppSocket, ticket: Pick<TicketDto, 'queueId' | 'userId'>): boolean {
  return canSeeTicket({ user: socket.data.user, queueIds: socket.data.queueIds ?? [] }, ticket);
}

type Shown = Pick<TicketDto, 'id'> & TicketPlace;

/**
 * Whether the socket's channels show the ticket (§4): `notification` every ticket its user may see; a tickets
 * status the user's list of that status (their own tickets and the pending ones they may see; every one for
 * admins); a chat box its ticket. A socket that joined no channel yet hears as with `notification`. Decided when the
 * event is sent, from the ticket as it is then.
 */
export function channelsShow(socket: AppSocket, ticket: Shown): boolean {
  if (!mayReceive(socket, ticket)) return false;
  if (!socket.data.subscribed || socket.rooms.has(rooms.notification)) return true;
  if (socket.rooms.has(ticketRooms.chat(ticket.id))) return true;
  const viewer = { user: socket.data.user, queueIds: socket.data.queueIds ?? [] };
  return socket.rooms.has(ticketRooms.status(ticket.status)) && listsTicket(viewer, ticket);
}

/** This process's sockets that may have heard of the ticket, in either place: its audience and its chat room. */
function socketsAround(io: RealtimeServer, ticket: TicketDto, previous?: TicketPlace): AppSocket[] {
  const around = new Map<string, AppSocket>();
  const places = [...audienceOf(ticket), ...(previous ? audienceOf(previous) : []), ticketRooms.chat(ticket.id)];
  for (const room of places) for (const socket of localSockets(io, room)) around.set(socket.id, socket);
  return [...around.values()];
}

/** A socket's queue rooms follow its user's queues. */
async function joinQueueRooms(socket: AppSocket, access: TicketAccess): Promise<void> {
  const user = socket.data.user;
  if (isAdmin(user)) return;
  const queueIds = await access.queueIdsOf(user.id);
  socket.data.queueIds = queueIds;
  for (const room of socket.rooms) if (room.startsWith('queue:') && room !== 'queue:none') void socket.leave(room);
  void socket.join([ticketRooms.queue(null), ...queueIds.map((id) => ticketRooms.queue(id))]);
}

/**
 * Who may receive is decided when the event is sent, not only when the room was joined: before anything goes
 * to a ticket's chat room, the sockets of users who may no longer see the ticket (it moved to another queue
 * or user) leave the room.
 */
function pruneChatRoom(io: RealtimeServer, ticket: TicketDto): void {
  const room = ticketRooms.chat(ticket.id);
  for (const socket of localSockets(io, room)) if (!mayReceive(socket, ticket)) void socket.leave(room);
}

/** Room joins a client asks for (§4), each checked, and the ticket and message events. */
export function registerTicketRealtime(io: RealtimeServer, events: DomainEvents, access: TicketAccess): void {
  io.on('connection', (socket) => {
    // Chat rooms wait for the queues: who stays in a chat room is decided from them (pruneChatRoom).
    const queuesKnown = joinQueueRooms(socket, access).then(
      () => true,
      () => {
        socket.disconnect(true);
        return false;
      },
    );
    socket.on('joinTickets', (status, ack) => {
      if (!TICKET_STATUSES.includes(status)) {
        answer(ack, { ok: false, error: 'ERR_VALIDATION' });
        return;
      }
      // A subscription: each ticket event is checked against the user's list of that status when it is sent.
      socket.data.subscribed = true;
      void socket.join(ticketRooms.status(status));
      answer(ack, { ok: true });
    });
    socket.on('joinChatBox', (ticketId, ack) => {
      const id = Number(ticketId);
      if (!Number.isInteger(id) || id <= 0) {
        answer(ack, { ok: false, error: 'ERR_VALIDATION' });
        return;
      }
      Promise.all([queuesKnown, access.canSee(socket.data.user, id)]).then(
        ([ready, allowed]) => {
          if (!ready) return;
          if (allowed && socket.connected) {
            socket.data.subscribed = true;
            void socket.join(ticketRooms.chat(id));
          }
          answer(ack, allowed ? { ok: true } : { ok: false, error: 'ERR_NO_PERMISSION' });
        },
        () => answer(ack, { ok: false, error: 'ERR_INTERNAL' }),
      );
    });
    socket.on('leaveChatBox', (ticketId) => void socket.leave(ticketRooms.chat(Number(ticketId))));
  });

  // A user's queues changed: their sockets (on every process) follow, and leave the chat rooms of tickets they may no longer see.
  const followQueues = onEveryProcess(io, 'userTickets', ({ user }) => {
    for (const socket of localSockets(io, rooms.user(user.id))) {
      socket.data.user = { ...socket.data.user, profile: user.profile, name: user.name, email: user.email };
      joinQueueRooms(socket, access)
        .then(async () => {
          const chatRooms = [...socket.rooms].filter((room) => room.startsWith('ticket:'));
          for (const room of chatRooms) {
            const allowed = await access.canSee(socket.data.user, Number(room.slice('ticket:'.length)));
            if (!allowed) void socket.leave(room);
          }
        })
        .catch(() => socket.disconnect(true));
    }
  });

  events.on('user.saved', ({ user }) => followQueues({ user }));

  /** This process's sockets whose channels show the ticket, once those who may no longer see it left its chat room. */
  const showing = (ticket: TicketDto): string[] => {
    pruneChatRoom(io, ticket);
    return socketsAround(io, ticket)
      .filter((socket) => channelsShow(socket, ticket))
      .map((socket) => socket.id);
  };

  // Ticket and message events: each process decides for its own sockets, from their channels, then emits to them.
  const ticketUpdated = onEveryProcess(io, 'ticketUpdated', ({ ticket, previous }) => {
    const around = socketsAround(io, ticket, previous);
    // Where it was shown before, decided before the chat room is pruned.
    const before = new Set(
      around
        .filter((socket) => (previous ? channelsShow(socket, { ...previous, id: ticket.id }) : mayReceive(socket, ticket)))
        .map((socket) => socket.id),
    );
    pruneChatRoom(io, ticket);
    const update: string[] = [];
    const drop: string[] = [];
    for (const socket of around) {
      if (channelsShow(socket, ticket)) update.push(socket.id);
      // Shown before but not now (accepted, returned, resolved, reopened, transferred away): dropped. Without
      // `previous`, where it was is unknown: any socket that may see the ticket but is not shown it drops it.
      else if (before.has(socket.id)) drop.push(socket.id);
    }
    if (update.length > 0) io.local.to(update).emit('ticket', { action: 'update', ticket });
    if (drop.length > 0) io.local.to(drop).emit('ticket', { action: 'delete', ticketId: ticket.id });
  });
  const ticketRead = onEveryProcess(io, 'ticketRead', ({ ticket }) => {
    const to = showing(ticket);
    if (to.length > 0) io.local.to(to).emit('ticket', { action: 'updateUnread', ticketId: ticket.id });
  });
  const ticketDeleted = onEveryProcess(io, 'ticketDeleted', ({ ticket }) => {
    // Decided from the ticket as it was, before its chat room is pruned.
    const to = socketsAround(io, ticket)
      .filter((socket) => channelsShow(socket, ticket))
      .map((socket) => socket.id);
    pruneChatRoom(io, ticket);
    if (to.length > 0) io.local.to(to).emit('ticket', { action: 'delete', ticketId: ticket.id });
  });
  const ticketMessage = onEveryProcess(io, 'ticketMessage', ({ action, message, ticket }) => {
    const to = showing(ticket);
    if (to.length > 0) io.local.to(to).emit('appMessage', { action, message, ticket, contact: ticket.contact });
  });
  events.on('ticket.updated', ({ ticket, previous }) => ticketUpdated(previous ? { ticket, previous } : { ticket }));
  events.on('ticket.read', ({ ticket }) => ticketRead({ ticket }));
  events.on('ticket.deleted', ({ ticket }) => ticketDeleted({ ticket }));
  events.on('tickets.changed', ({ ticketIds }) => {
    void access.loadTickets(ticketIds).then(
      (tickets) => {
        for (const ticket of tickets) ticketUpdated({ ticket });
      },
      () => undefined,
    );
  });
  events.on('message.created', ({ message, ticket }) => ticketMessage({ action: 'create', message, ticket }));
  events.on('message.updated', ({ message, ticket }) => ticketMessage({ action: 'update', message, ticket }));
}
