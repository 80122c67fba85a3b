import type { TicketDto } from '@wadesk/contracts';
import { SignJWT } from 'jose';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { describe, expect, it } from 'vitest';
import { connectedSimulator, createQueue, inbound } from '../test/desk-factories.js';
import { eventually } from '../test/session-helpers.js';
import { nextEvent, useTestApp } from '../test/test-app.js';

const t = useTestApp({ admin: true });
let seq = 0;

const phone = () => `5511977${String(Date.now()).slice(-4)}${String((seq += 1)).padStart(2, '0')}`;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

function emitAck<T>(socket: Socket, event: string, ...args: unknown[]): Promise<T> {
  return new Promise((resolve) => socket.emit(event, ...args, resolve));
}

function disconnected(socket: Socket, ms = 3000): Promise<string> {
  if (!socket.connected) return Promise.resolve('already');
  return nextEvent<string>(socket, 'disconnect', ms);
}

async function stillConnected(socket: Socket, ms = 300): Promise<boolean> {
  await pause(ms);
  return socket.connected;
}

describe('live updates follow the ticket when it changes hands', () => {
  it('removes a socket from the chat room when its ticket moves to a queue the user cannot see', async () => {
    const qA = await createQueue(t, `Leak A ${Date.now()}`);
    const qB = await createQueue(t, `Leak B ${Date.now()}`);
    const conn = await connectedSimulator(t, { queueIds: [qA] });
    const member = await t.createUser({ queueIds: [qA] });
    const from = phone();
    const ticket = await inbound(t, conn.id, { from, body: 'primeira' });
    expect(ticket.queueId).toBe(qA);

    const memberSocket = await t.socket(member.token);
    const adminSocket = await t.socket(t.admin);
    await pause(200);
    expect(await emitAck(memberSocket, 'joinChatBox', ticket.id)).toEqual({ ok: true });
    const leaked: unknown[] = [];
    memberSocket.on('appMessage', (e: { ticket: TicketDto }) => {
      if (e.ticket.id === ticket.id) leaked.push(e);
    });
    memberSocket.on('ticket', (e: { action: string; ticket?: TicketDto }) => {
      if (e.ticket?.id === ticket.id) leaked.push(e);
    });

    // Transferred to queue B: the member is told to drop it, then hears nothing more about it.
    const dropped = new Promise<{ action: string; ticketId: number }>((resolve) =>
      memberSocket.on('ticket', (e: { action: string; ticketId?: number }) => {
        if (e.action === 'delete' && e.ticketId === ticket.id) resolve(e as { action: string; ticketId: number });
      }),
    );
    const moved = await t.call('PUT', `/api/tickets/${ticket.id}`, { token: t.admin, body: { queueId: qB } });
    expect(moved.status).toBe(200);
    await dropped;

    const toAdmin = new Promise<void>((resolve) =>
      adminSocket.on('appMessage', (e: { message: { body: string } }) => {
        if (e.message.body === 'depois da transferência') resolve();
      }),
    );
    await inbound(t, conn.id, { from, body: 'depois da transferência' });
    await toAdmin;
    await pause(300);
    expect(leaked).toEqual([]);
    const sockets = await t.app.io.in(`ticket:${ticket.id}`).fetchSockets();
    expect(sockets.map((s) => s.data.user.id)).not.toContain(member.user.id);
  });

  it('removes the chat room when the user loses the queue', async () => {
    const q = await createQueue(t, `Lose ${Date.now()}`);
    const conn = await connectedSimulator(t, { queueIds: [q] });
    const member = await t.createUser({ queueIds: [q] });
    const from = phone();
    const ticket = await inbound(t, conn.id, { from, body: 'olá' });
    const socket = await t.socket(member.token);
    await pause(200);
    expect(await emitAck(socket, 'joinChatBox', ticket.id)).toEqual({ ok: true });
    await t.call('PUT', `/api/users/${member.user.id}`, { token: t.admin, body: { queueIds: [] } });
    await eventually(async () => {
      const inRoom = await t.app.io.in(`ticket:${ticket.id}`).fetchSockets();
      return !inRoom.some((s) => s.data.user.id === member.user.id);
    }, 3000, 'left the chat room');
    const leaked: unknown[] = [];
    socket.on('appMessage', (e: unknown) => leaked.push(e));
    await inbound(t, conn.id, { from, body: 'ainda aí?' });
    await pause(300);
    expect(leaked).toEqual([]);
  });
});

describe('sockets end with the session', () => {
  it('disconnects the user\'s sockets on logout', async () => {
    const { user, password } = await t.createUser();
    const session = await t.login(user.email, password);
    const socket = await t.socket(session.token);
    const gone = disconnected(socket);
    expect((await t.call('DELETE', '/api/auth/logout', { cookies: { jrt: session.refreshCookie } })).status).toBe(204);
    expect(await gone).toBe('io server disconnect');
  });

  it('disconnects them when a rotated refresh token is reused (the family ends)', async () => {
    const { user, password } = await t.createUser();
    const session = await t.login(user.email, password);
    const socket = await t.socket(session.token);
    await t.call('POST', '/api/auth/refresh_token', { cookies: { jrt: session.refreshCookie } });
    // A minute later (past the grace for tabs racing on one cookie) the old token comes back.
    const [id] = session.refreshCookie.split('.');
    await t.app.database.db.execute(`update refresh_tokens set revoked_at = now() - interval '1 minute' where id = '${id}'`);
    const gone = disconnected(socket);
    expect((await t.call('POST', '/api/auth/refresh_token', { cookies: { jrt: session.refreshCookie } })).status).toBe(401);
    expect(await gone).toBe('io server disconnect');
  });

  it('disconnects them on a password change, and the old token cannot connect again', async () => {
    const { user, token } = await t.createUser();
    const socket = await t.socket(token);
    const gone = disconnected(socket);
    await t.call('PUT', `/api/users/${user.id}`, { token: t.admin, body: { password: 'changed-by-admin' } });
    expect(await gone).toBe('io server disconnect');
    await expect(t.socket(token)).rejects.toThrow('ERR_SESSION_EXPIRED');
  });

  it('disconnects them on a role change', async () => {
    const { user, token } = await t.createUser();
    const socket = await t.socket(token);
    const gone = disconnected(socket);
    await t.call('PUT', `/api/users/${user.id}`, { token: t.admin, body: { profile: 'admin' } });
    expect(await gone).toBe('io server disconnect');
    // Reconnecting with the same (still valid) token joins the rooms of the new role.
    const again = await t.socket(token);
    expect(again.connected).toBe(true);
  });

  it('disconnects them when the user is deleted', async () => {
    const { user, token } = await t.createUser();
    const socket = await t.socket(token);
    const gone = disconnected(socket);
    await t.call('DELETE', `/api/users/${user.id}`, { token: t.admin });
    expect(await gone).toBe('io server disconnect');
  });

  it('keeps them on a plain profile edit', async () => {
    const { user, token } = await t.createUser();
    const socket = await t.socket(token);
    await t.call('PUT', `/api/users/${user.id}`, { token: t.admin, body: { name: 'Just Renamed' } });
    expect(await stillConnected(socket)).toBe(true);
  });
});

describe('a socket lives as long as its token', () => {
  const shortToken = async (userId: number, seconds: number) => {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(userId))
      .setIssuedAt(now)
      .setExpirationTime(now + seconds)
      .sign(new TextEncoder().encode(t.app.config.jwtSecret));
  };

  it('disconnects a socket when its access token expires', async () => {
    const { user } = await t.createUser();
    const socket = await t.socket(await shortToken(user.id, 2));
    expect(await disconnected(socket, 5000)).toBe('io server disconnect');
  });

  it('keeps a socket that sent a fresh token with authenticate before expiry', async () => {
    const { user, token } = await t.createUser();
    const socket = await t.socket(await shortToken(user.id, 2));
    expect(await emitAck(socket, 'authenticate', { token })).toEqual({ ok: true });
    expect(await stillConnected(socket, 3000)).toBe(true);
  });

  it('refuses on authenticate an invalid token, or one of another user', async () => {
    const { token } = await t.createUser();
    const other = await t.createUser();
    const socket = await t.socket(token);
    expect(await emitAck(socket, 'authenticate', { token: 'not.a.jwt' })).toEqual({ ok: false, error: 'ERR_SESSION_EXPIRED' });
    expect(await emitAck(socket, 'authenticate', { token: other.token })).toEqual({ ok: false, error: 'ERR_NO_PERMISSION' });
    expect(await emitAck(socket, 'authenticate', {})).toEqual({ ok: false, error: 'ERR_VALIDATION' });
    expect(socket.connected).toBe(true);
  });

  it('refuses at the handshake a token without exp', async () => {
    const { user } = await t.createUser();
    const noExp = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(user.id))
      .setIssuedAt()
      .sign(new TextEncoder().encode(t.app.config.jwtSecret));
    await expect(t.socket(noExp)).rejects.toThrow('ERR_SESSION_EXPIRED');
  });

  it('takes the access token from the handshake auth only: a valid token in the query string is refused', async () => {
    const { token } = await t.createUser();
    const url = await t.listen();
    const attempt = (options: { auth?: { token: string }; query?: { token: string } }) =>
      new Promise<string>((resolve) => {
        const socket = connectSocket(url, { path: '/socket.io', transports: ['websocket'], reconnection: false, ...options });
        socket.once('connect', () => {
          socket.disconnect();
          resolve('connected');
        });
        socket.once('connect_error', (err) => resolve(err.message));
      });
    expect(await attempt({ query: { token } })).toBe('ERR_SESSION_EXPIRED');
    expect(await attempt({ query: { token: `Bearer ${token}` } })).toBe('ERR_SESSION_EXPIRED');
    expect(await attempt({ auth: { token } })).toBe('connected');
  });
});

describe('QR codes reach admins only', () => {
  it('sends a pending QR code to admins and the bare state to users', async () => {
    const { token } = await t.createUser();
    const userSocket = await t.socket(token);
    const adminSocket = await t.socket(t.admin);
    const seen = { user: [] as { status: string; qrcode: string }[], admin: [] as { status: string; qrcode: string }[] };
    userSocket.on('whatsappSession', (e: { session: { status: string; qrcode: string } }) => seen.user.push(e.session));
    adminSocket.on('whatsappSession', (e: { session: { status: string; qrcode: string } }) => seen.admin.push(e.session));
    const created = await t.call<{ id: number }>('POST', '/api/whatsapp', { token: t.admin, body: { name: `QR ${phone()}`, channel: 'simulator' } });
    expect(created.status).toBe(201);
    await eventually(async () => seen.admin.some((s) => s.status === 'qrcode' && s.qrcode !== ''), 5000, 'admin sees the QR');
    await eventually(async () => seen.user.some((s) => s.status === 'qrcode'), 5000, 'user sees the state');
    expect(seen.user.every((s) => s.qrcode === '')).toBe(true);
  });
});
