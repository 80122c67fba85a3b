import type { ManagerOptions, SocketOptions } from 'socket.io-client';
import { getToken } from './token-storage';

/**
 * Options of the app's socket. `auth` is a function: socket.io-client calls it on every connection
 * attempt, so each (re)connect sends the access token in memory at that moment (a refreshed one too).
 */
export function socketOptions(): Partial<ManagerOptions & SocketOptions> {
  return {
    path: '/socket.io',
    auth: (cb) => cb({ token: getToken() }),
    transports: ['websocket', 'polling'],
    autoConnect: false,
  };
}
