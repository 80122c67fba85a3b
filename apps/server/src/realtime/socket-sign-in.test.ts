import type { ServerEventPayload } from '@wadesk/contracts';
import { SignJWT } from 'jose';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { afterAll, describe, expect, it } from 'vitest';
import { connectedSimulator, createQueue, inbound, phoneNumbers } from '../test/desk-factories.js';
import { eventually } from '../test/session-helpers.js';
import { nextEvent, useTestApp } from '../test/test-app.js';

/** A socket lives with its sign-in: a logout ends that sign-in's sockets only; an expiring token is announced. */
const t = useTestApp({ admin: true });
const phone = phoneNumbers(62_000, 1);
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const opened: Socket[] = [];

afterAll(() => {
  for (const socket of opened) socket.disconnect();
});

type SessionEvent = ServerEventPayload<'session'>;

/** A socket whose `session` events are recorded from its first packet on (the listener is there before it connects). */
async function connect(token: string): Promise<{ socket: Socket; sessions: SessionEvent[] }> {
  const url = await t.listen();
  const socket = connectSocket(url, { path: '/socket.io', auth: { token }, transports: ['websocket'], reconnection: false, autoConnect: false });
  opened.push(socket);
  const sessions: SessionEvent[] = [];
  socket.on('session', (e: SessionEvent) => sessions.push(e));
  const connected = new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  socket.connect();
  await connected;
  return { socket, sessions };
}

function disconnected(socket: Socket, ms = 3000): Promise<string> {
  if (!socket.connected) return Promise.resolve('already');
  return nextEvent<string>(socket, 'disconnect', ms);
}

function ack(socket: Socket, event: string, ...args: unknown[]): Promise<{ ok: boolean; error?: string }> {
  return new Promise((resolve) => socket.emit(event, ...args, resolve));
}

/** An access token of the user that expires in `seconds` (of the sign-in `sid`, when given). */
function tokenExpiringIn(userId: number, seconds: number, sid?: string): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT(sid ? { sid } : {})
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(userId))
    .setIssuedAt(now)
    .setExpirationTime(now + seconds)
    .sign(new TextEncoder().encode(t.app.config.jwtSecret));
}

/** Two sign-ins of one user (two browsers), each with a socket. */
async function twoSignIns() {
  const { user, password } = await t.createUser();
  const first = await t.login(user.email, password);
  const second = await t.login(user.email, password);
  return { user, first: { ...first, ...(await connect(first.token)) }, second: { ...second, ...(await connect(second.token)) } };
}

describe('a logout ends the sockets of that sign-in only', () => {
  it("closes the signing-out browser's sockets, told `ended` first, and keeps the other browser's", async () => {
    const { first, second } = await twoSignIns();
    const firstTab2 = await connect(first.token); // a second tab of the same browser: the same sign-in
    const gone = [disconnected(first.socket), disconnected(firstTab2.socket)];
    expect((await t.call('DELETE', '/api/auth/logout', { cookies: { jrt: first.refreshCookie } })).status).toBe(204);
    expect(await Promise.all(gone)).toEqual(['io server disconnect', 'io server disconnect']);
    expect(first.sessions).toEqual([{ action: 'ended' }]);
    expect(firstTab2.sessions).toEqual([{ action: 'ended' }]);

    await pause(300);
    expect(second.socket.connected).toBe(true);
    expect(second.sessions).toEqual([]);
    // Still served: it hears what it joined.
    expect(await ack(second.socket, 'joinTickets', 'pending')).toEqual({ ok: true });
  });

  it('still closes every sign-in of the user on a password change', async () => {
    const { user, first, second } = await twoSignIns();
    const gone = [disconnected(first.socket), disconnected(second.socket)];
    await t.call('PUT', `/api/users/${user.id}`, { token: t.admin, body: { password: 'changed-by-admin' } });
    expect(await Promise.all(gone)).toEqual(['io server disconnect', 'io server disconnect']);
  });

  it('still closes every sign-in of the user on a role change and on deletion', async () => {
    const promoted = await twoSignIns();
    const promotedGone = [disconnected(promoted.first.socket), disconnected(promoted.second.socket)];
    await t.call('PUT', `/api/users/${promoted.user.id}`, { token: t.admin, body: { profile: 'admin' } });
    expect(await Promise.all(promotedGone)).toEqual(['io server disconnect', 'io server disconnect']);

    const deleted = await twoSignIns();
    const deletedGone = [disconnected(deleted.first.socket), disconnected(deleted.second.socket)];
    await t.call('DELETE', `/api/users/${deleted.user.id}`, { token: t.admin });
    expect(await Promise.all(deletedGone)).toEqual(['io server disconnect', 'io server disconnect']);
  });
});

describe('an expiring access token is announced', () => {
  it('tells the socket `expiring` a minute before; `authenticate` with a fresh token keeps it and its channels', async () => {
    const queue = await createQueue(t, `Expiry ${Date.now()}`);
    const whatsappId = (await connectedSimulator(t, { queueIds: [queue] })).id;
    const { user, token } = await t.createUser({ queueIds: [queue] });
    const customer = phone();
    const ticket = await inbound(t, whatsappId, { from: customer, body: 'primeira' });

    const { socket, sessions } = await connect(await tokenExpiringIn(user.id, 3));
    // Less than a minute left: told at once, with when.
    await eventually(async () => sessions.length > 0, 2000, 'the expiring notice');
    expect(sessions).toEqual([{ action: 'expiring', expiresAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) }]);
    const expiresAt = Date.parse((sessions[0] as { expiresAt: string }).expiresAt);
    expect(Math.abs(expiresAt - (Date.now() + 3000))).toBeLessThan(2000);

    await pause(300); // the queue rooms are joined after the handshake
    expect(await ack(socket, 'joinTickets', 'pending')).toEqual({ ok: true });
    expect(await ack(socket, 'joinChatBox', ticket.id)).toEqual({ ok: true });
    expect(await ack(socket, 'authenticate', { token })).toEqual({ ok: true });

    // Past the first token's expiry: still connected, still in its channels, and served through them.
    await pause(3500);
    expect(socket.connected).toBe(true);
    expect(sessions).toHaveLength(1); // the fresh token has 15 minutes: no notice yet
    const [server] = await t.app.io.in(socket.id!).fetchSockets();
    expect([...server!.rooms]).toEqual(expect.arrayContaining(['status:pending', `ticket:${ticket.id}`]));
    const heard = nextEvent<ServerEventPayload<'appMessage'>>(socket, 'appMessage');
    await inbound(t, whatsappId, { from: customer, body: 'segunda' });
    expect((await heard).message.body).toBe('segunda');
  });

  it('tells a socket whose token expired `expired`, then disconnects it', async () => {
    const { user } = await t.createUser();
    const { socket, sessions } = await connect(await tokenExpiringIn(user.id, 2));
    expect(await disconnected(socket, 5000)).toBe('io server disconnect');
    expect(sessions.map((e) => e.action)).toEqual(['expiring', 'expired']);
  });

  it('moves the socket to the sign-in of the token it is handed: a logout of that one closes it', async () => {
    const { user, password } = await t.createUser();
    const first = await t.login(user.email, password);
    const second = await t.login(user.email, password);
    const { socket, sessions } = await connect(first.token);
    expect(await ack(socket, 'authenticate', { token: second.token })).toEqual({ ok: true });
    // The first sign-in's logout leaves it; the second's closes it.
    expect((await t.call('DELETE', '/api/auth/logout', { cookies: { jrt: first.refreshCookie } })).status).toBe(204);
    await pause(300);
    expect(socket.connected).toBe(true);
    const gone = disconnected(socket);
    expect((await t.call('DELETE', '/api/auth/logout', { cookies: { jrt: second.refreshCookie } })).status).toBe(204);
    expect(await gone).toBe('io server disconnect');
    expect(sessions).toEqual([{ action: 'ended' }]);
  });
});
