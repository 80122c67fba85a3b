import { isAdmin, TICKET_STATUSES, type MessageDto, type TicketDto } from '@wadesk/contracts';
import type { DomainEvents } from '../events/domain-events.js';
import type { AuthUser } from '../modules/auth/auth-user.js';
import { rooms, type AppSocket, type RealtimeServer } from './socket-server.js';

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
};

/** The rooms of every socket allowed to see a ticket: admins, its queue's users (or everyone without a queue), its assignee. */
export function audienceOf(ticket: Pick<TicketDto, 'queueId' | 'userId'>): string[] {
  const audience = [rooms.admins, ticketRooms.queue(ticket.queueId)];
  if (ticket.userId) audience.push(rooms.user(ticket.userId));
  return audience;
}

/** A socket's queue rooms follow its user's queues. */
async function joinQueueRooms(socket: AppSocket, access: TicketAccess): Promise<void> {
  const user = socket.data.user;
  if (isAdmin(user)) return;
  const queueIds = await access.queueIdsOf(user.id);
  for (const room of socket.rooms) if (room.startsWith('queue:') && room !== 'queue:none') void socket.leave(room);
  void socket.join([ticketRooms.queue(null), ...queueIds.map((id) => ticketRooms.queue(id))]);
}

/** Room joins a client asks for (§4), each checked, and the ticket and message events. */
export function registerTicketRealtime(io: RealtimeServer, events: DomainEvents, access: TicketAccess): void {
  io.on('connection', (socket) => {
    void joinQueueRooms(socket, access).catch(() => socket.disconnect(true));
    socket.on('joinTickets', (status, ack) => {
      if (!TICKET_STATUSES.includes(status)) {
        ack?.({ ok: false, error: 'ERR_VALIDATION' });
        return;
      }
      // Ticket events go to the rooms of those who may see them; the status room is only a subscription.
      void socket.join(`status:${status}`);
      ack?.({ ok: true });
    });
    socket.on('joinChatBox', (ticketId, ack) => {
      const id = Number(ticketId);
      if (!Number.isInteger(id) || id <= 0) {
        ack?.({ ok: false, error: 'ERR_VALIDATION' });
        return;
      }
      access.canSee(socket.data.user, id).then(
        (allowed) => {
          if (allowed) void socket.join(ticketRooms.chat(id));
          ack?.(allowed ? { ok: true } : { ok: false, error: 'ERR_NO_PERMISSION' });
        },
        () => ack?.({ ok: false, error: 'ERR_INTERNAL' }),
      );
    });
    socket.on('leaveChatBox', (ticketId) => void socket.leave(ticketRooms.chat(Number(ticketId))));
  });

  events.on('user.saved', ({ user }) => {
    void io
      .in(rooms.user(user.id))
      .fetchSockets()
      .then(async (sockets) => {
        for (const remote of sockets) {
          const socket = io.sockets.sockets.get(remote.id);
          if (socket) {
            socket.data.user = { ...socket.data.user, profile: user.profile, name: user.name, email: user.email };
            await joinQueueRooms(socket, access);
          }
        }
      })
      .catch(() => undefined);
  });

  events.on('ticket.updated', ({ ticket, previous }) => {
    io.to(audienceOf(ticket)).emit('ticket', { action: 'update', ticket });
    if (previous) {
      // Those who could see it before but not now drop it from their lists.
      io.to(audienceOf(previous)).except(audienceOf(ticket)).emit('ticket', { action: 'delete', ticketId: ticket.id });
    }
  });
  events.on('ticket.read', ({ ticket }) => {
    io.to(audienceOf(ticket)).emit('ticket', { action: 'updateUnread', ticketId: ticket.id });
  });
  events.on('ticket.deleted', ({ ticket }) => {
    io.to([...audienceOf(ticket), ticketRooms.chat(ticket.id)]).emit('ticket', { action: 'delete', ticketId: ticket.id });
  });
  events.on('tickets.changed', ({ ticketIds }) => {
    void access.loadTickets(ticketIds).then(
      (tickets) => {
        for (const ticket of tickets) io.to(audienceOf(ticket)).emit('ticket', { action: 'update', ticket });
      },
      () => undefined,
    );
  });
  const messageEvent = (action: 'create' | 'update') => (e: { message: MessageDto; ticket: TicketDto }) => {
    io.to([...audienceOf(e.ticket), ticketRooms.chat(e.ticket.id)]).emit('appMessage', {
      action,
      message: e.message,
      ticket: e.ticket,
      contact: e.ticket.contact,
    });
  };
  events.on('message.created', messageEvent('create'));
  events.on('message.updated', messageEvent('update'));
}
