import type { Server as HttpServer } from 'node:http';
import { isAdmin, isPublicSetting, type ClientToServerEvents, type ServerToClientEvents } from '@wadesk/contracts';
import { Server, type Socket } from 'socket.io';
import type { DomainEvents } from '../events/domain-events.js';
import type { AuthService } from '../modules/auth/auth.service.js';
import type { AuthUser } from '../modules/auth/auth-user.js';

export interface SocketData {
  user: AuthUser;
}

export type RealtimeServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;
export type AppSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

/** Rooms: every signed-in socket, admins, and each user's own room. */
export const rooms = {
  everyone: 'authenticated',
  admins: 'admins',
  nonAdmins: 'non-admins',
  notification: 'notification',
  user: (id: number) => `user:${id}`,
};

/** Socket.IO at /socket.io: the handshake must carry a valid access token. */
export function createSocketServer(httpServer: HttpServer, auth: AuthService): RealtimeServer {
  const io: RealtimeServer = new Server(httpServer, {
    path: '/socket.io',
    serveClient: false,
    cors: { origin: false },
  });

  io.use((socket, next) => {
    const raw: unknown = (socket.handshake.auth as { token?: unknown } | undefined)?.token ?? socket.handshake.query.token;
    const token = typeof raw === 'string' ? raw.replace(/^Bearer\s+/i, '') : '';
    if (!token) {
      next(new Error('ERR_SESSION_EXPIRED'));
      return;
    }
    auth.authenticate(token).then(
      (result) => {
        if ('error' in result) {
          next(new Error('ERR_SESSION_EXPIRED'));
          return;
        }
        socket.data.user = result.user;
        next();
      },
      (err: unknown) => next(err instanceof Error ? err : new Error('ERR_INTERNAL')),
    );
  });

  io.on('connection', (socket) => {
    const user = socket.data.user;
    void socket.join([rooms.everyone, rooms.user(user.id), isAdmin(user) ? rooms.admins : rooms.nonAdmins]);
    socket.on('joinNotification', (ack) => {
      void socket.join(rooms.notification);
      ack?.({ ok: true });
    });
    // Ticket rooms (joinTickets, joinChatBox) are handled in ticket-realtime.ts.
  });

  return io;
}

/** Turns domain events into socket messages for the sockets allowed to see them. */
export function registerRealtimeListener(io: RealtimeServer, events: DomainEvents): void {
  events.on('user.saved', ({ user, created }) => {
    const payload = { action: created ? ('create' as const) : ('update' as const), user };
    // A changed profile moves the user's open sockets between the admin and non-admin rooms.
    const own = io.in(rooms.user(user.id));
    own.socketsJoin(isAdmin(user) ? rooms.admins : rooms.nonAdmins);
    own.socketsLeave(isAdmin(user) ? rooms.nonAdmins : rooms.admins);
    io.to([rooms.admins, rooms.user(user.id)]).emit('user', payload);
  });
  events.on('user.deleted', ({ userId }) => {
    io.to([rooms.admins, rooms.user(userId)]).emit('user', { action: 'delete', userId });
    io.in(rooms.user(userId)).disconnectSockets(true);
  });
  events.on('setting.updated', ({ setting }) => {
    io.to(rooms.admins).emit('settings', { action: 'update', setting });
    if (isPublicSetting(setting.key)) io.to(rooms.nonAdmins).emit('settings', { action: 'update', setting });
  });
  events.on('queue.saved', ({ queue, created }) => {
    io.to(rooms.everyone).emit('queue', { action: created ? 'create' : 'update', queue });
  });
  events.on('queue.deleted', ({ queueId }) => io.to(rooms.everyone).emit('queue', { action: 'delete', queueId }));
  events.on('contact.saved', ({ contact, created }) => {
    io.to(rooms.everyone).emit('contact', { action: created ? 'create' : 'update', contact });
  });
  events.on('contact.deleted', ({ contactId }) => io.to(rooms.everyone).emit('contact', { action: 'delete', contactId }));
  events.on('quickAnswer.saved', ({ quickAnswer, created }) => {
    io.to(rooms.everyone).emit('quickAnswer', { action: created ? 'create' : 'update', quickAnswer });
  });
  events.on('quickAnswer.deleted', ({ quickAnswerId }) =>
    io.to(rooms.everyone).emit('quickAnswer', { action: 'delete', quickAnswerId }),
  );
  events.on('whatsapp.saved', ({ whatsapp }) => io.to(rooms.everyone).emit('whatsapp', { action: 'update', whatsapp }));
  events.on('whatsapp.deleted', ({ whatsappId }) =>
    io.to(rooms.everyone).emit('whatsapp', { action: 'delete', whatsappId }),
  );
  events.on('whatsapp.session', ({ session }) =>
    io.to(rooms.everyone).emit('whatsappSession', { action: 'update', session }),
  );
}
