import { describe, expect, it } from 'vitest';
import { socketOptions } from './socket-options';
import { clearToken, setToken } from './token-storage';

/** What socket.io-client would send on a connection attempt. */
function handshakeAuth(options: ReturnType<typeof socketOptions>): unknown {
  const { auth } = options;
  if (typeof auth !== 'function') return auth;
  let sent: unknown;
  auth((data) => {
    sent = data;
  });
  return sent;
}

describe('socket options', () => {
  it('sends the in-memory token of the moment on every (re)connect', () => {
    const options = socketOptions();
    setToken('first.token');
    expect(handshakeAuth(options)).toEqual({ token: 'first.token' });
    // Refreshed while the socket lives: the next reconnect sends the new one.
    setToken('refreshed.token');
    expect(handshakeAuth(options)).toEqual({ token: 'refreshed.token' });
    clearToken();
    expect(handshakeAuth(options)).toEqual({ token: null });
  });

  it('never puts the token in the query string (the server reads only the handshake auth)', () => {
    setToken('secret.token');
    const options = socketOptions();
    expect(options.query).toBeUndefined();
    expect(JSON.stringify(options)).not.toContain('secret.token');
    clearToken();
  });

  it('does not connect before the provider says so', () => {
    expect(socketOptions().autoConnect).toBe(false);
    expect(socketOptions().path).toBe('/socket.io');
  });
});
