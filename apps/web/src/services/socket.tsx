import type {
  ClientToServerEvents,
  ServerEventName,
  ServerEventPayload,
  ServerToClientEvents,
} from '@wadesk/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useMemo, useRef, type ReactNode } from 'react';
import { io, type Socket } from 'socket.io-client';
import { useAuth } from '../features/auth/auth-context';
import { onSessionChange, refreshSession } from './api';
import { connection, isConnectionLost } from './connection-state';
import { socketOptions } from './socket-options';

export type AppSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

const SocketContext = createContext<AppSocket | null>(null);

/**
 * One socket per signed-in session; each (re)connection sends the current in-memory access token
 * (`auth` is a function, read again on every attempt, so a refreshed token is used on the next one).
 */
export function SocketProvider({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  const userId = user?.id;
  const queryClient = useQueryClient();
  const socket = useMemo<AppSocket | null>(() => {
    if (userId === undefined) return null;
    return io(socketOptions());
  }, [userId]);

  useEffect(() => {
    if (!socket) return undefined;
    let refreshAttempts = 0;
    let wasConnected = false;
    const reconnectAfterRefresh = () => {
      refreshSession()
        .then(() => socket.connect())
        .catch((err: unknown) => {
          // Server unreachable: try again once calls succeed (see below).
          if (isConnectionLost(err)) refreshAttempts = 0;
        });
    };
    const onConnect = () => {
      refreshAttempts = 0;
      // What the screen read before the socket first joined its rooms may have changed meanwhile, unannounced to it
      // (a contact or ticket created between the page's first read and this moment): read it again once. Later
      // connects are a recovery, which refetches everything itself (use-connection-recovery.ts).
      if (!wasConnected) void queryClient.invalidateQueries();
      wasConnected = true;
      connection.reportSocket(true);
    };
    const onDisconnect = (reason: Socket.DisconnectReason) => {
      if (reason === 'io client disconnect') return;
      // Closed by the server (expired token, changed role): socket.io does not reconnect by itself.
      // Not a lost connection: no reconnecting bar, just a fresh token and a new connection.
      if (reason === 'io server disconnect') {
        reconnectAfterRefresh();
        return;
      }
      // Dropped after having been connected: the reconnecting bar shows until the socket is back.
      connection.reportSocket(false);
    };
    const onConnectError = () => {
      // Refused by the server (bad or expired token): refresh once, then try again with the new token.
      if (socket.active || refreshAttempts >= 1) return;
      refreshAttempts += 1;
      reconnectAfterRefresh();
    };
    // Calls succeed again while the socket is down and not retrying by itself: connect it again.
    let requestsFailing = connection.areRequestsFailing();
    const stopWatching = connection.subscribe(() => {
      const recovered = requestsFailing && !connection.areRequestsFailing();
      requestsFailing = connection.areRequestsFailing();
      if (recovered && wasConnected && !socket.connected && !socket.active) reconnectAfterRefresh();
    });
    // A refreshed token goes to the live socket too, so the server does not close it when the old one
    // expires; refused (or an older server without the event): reconnect, which sends the new token.
    const stopSession = onSessionChange((event) => {
      if (event.type !== 'refreshed' || !socket.connected) return;
      // Untyped view: the typed one does not model an acknowledgement with a timeout.
      const raw = socket as unknown as Socket;
      raw.timeout(10_000).emit('authenticate', { token: event.auth.token }, (err: Error | null, result?: { ok: boolean }) => {
        if (err || !result?.ok) {
          if (!socket.connected) return;
          socket.disconnect();
          socket.connect();
        }
      });
    });
    socket.on('connect', onConnect);
    socket.on('disconnect', onDisconnect);
    socket.on('connect_error', onConnectError);
    socket.connect();
    return () => {
      stopSession();
      stopWatching();
      socket.off('connect', onConnect);
      socket.off('disconnect', onDisconnect);
      socket.off('connect_error', onConnectError);
      socket.disconnect();
      connection.forgetSocket();
    };
  }, [socket, queryClient]);

  return <SocketContext.Provider value={socket}>{children}</SocketContext.Provider>;
}

export function useSocket(): AppSocket | null {
  return useContext(SocketContext);
}

/** Listens to one server event while the component is mounted. */
export function useSocketEvent<E extends ServerEventName>(event: E, handler: ServerToClientEvents[E]): void {
  const socket = useSocket();
  const handlerRef = useRef(handler);
  useEffect(() => {
    handlerRef.current = handler;
  });
  useEffect(() => {
    if (!socket) return undefined;
    // Every server event carries one payload; the untyped view avoids socket.io's overload juggling.
    const raw = socket as unknown as Socket;
    const name: string = event;
    const listener = (payload: ServerEventPayload<E>) => {
      (handlerRef.current as (p: ServerEventPayload<E>) => void)(payload);
    };
    raw.on(name, listener);
    return () => {
      raw.off(name, listener);
    };
  }, [socket, event]);
}
