import type {
  ClientToServerEvents,
  ServerEventName,
  ServerEventPayload,
  ServerToClientEvents,
} from '@wadesk/contracts';
import { createContext, useContext, useEffect, useMemo, useRef, type ReactNode } from 'react';
import { io, type Socket } from 'socket.io-client';
import { useAuth } from '../features/auth/auth-context';
import { refreshSession } from './api';
import { getToken } from './token-storage';

export type AppSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

const SocketContext = createContext<AppSocket | null>(null);

/** One socket per signed-in session; each (re)connection sends the current access token. */
export function SocketProvider({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  const userId = user?.id;
  const socket = useMemo<AppSocket | null>(() => {
    if (userId === undefined) return null;
    return io({
      path: '/socket.io',
      auth: (cb) => cb({ token: getToken() }),
      transports: ['websocket', 'polling'],
      autoConnect: false,
    });
  }, [userId]);

  useEffect(() => {
    if (!socket) return undefined;
    let refreshAttempts = 0;
    const onConnect = () => {
      refreshAttempts = 0;
    };
    const onConnectError = () => {
      // Refused by the server (bad or expired token): refresh once, then try again with the new token.
      if (socket.active || refreshAttempts >= 1) return;
      refreshAttempts += 1;
      refreshSession()
        .then(() => socket.connect())
        .catch(() => undefined);
    };
    socket.on('connect', onConnect);
    socket.on('connect_error', onConnectError);
    socket.connect();
    return () => {
      socket.off('connect', onConnect);
      socket.off('connect_error', onConnectError);
      socket.disconnect();
    };
  }, [socket]);

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
