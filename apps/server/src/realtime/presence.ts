import type { Presence } from '../modules/queues/auto-assign.service.js';
import { rooms, type RealtimeServer } from './socket-server.js';

/**
 * Who is online, for automatic assignment (decision 0040): a user with a connected socket on any process. Asked of
 * every process through the Socket.IO adapter (`fetchSockets` over the PostgreSQL adapter: each process answers for its
 * own sockets), for the users' own rooms only. A process that does not answer in time (one that died, until the
 * adapter's heartbeat forgets it, or one too busy to answer within the adapter's 5 s) leaves this process's own sockets
 * as the answer, and `partial` is called (automatic assignment then runs again shortly, decision 0040).
 */
export function socketPresence(io: RealtimeServer, log: { warn(obj: object, msg?: string): void }, partial: () => void = () => undefined): Presence {
  return async (userIds) => {
    if (userIds.length === 0) return new Set();
    const roomsOf = userIds.map((id) => rooms.user(id));
    const sockets = await io
      .in(roomsOf)
      .fetchSockets()
      .catch(async (err: unknown) => {
        log.warn({ err }, 'presence: not every process answered; this process\'s sockets only');
        partial();
        return io.local.in(roomsOf).fetchSockets();
      });
    return new Set(sockets.map((socket) => socket.data.user.id));
  };
}
