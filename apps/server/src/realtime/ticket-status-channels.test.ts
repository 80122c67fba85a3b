import type { ServerEventPayload, TicketDto, TicketStatus } from '@wadesk/contracts';
import type { Socket } from 'socket.io-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { connectedSimulator, createQueue, inbound, phoneNumbers } from '../test/desk-factories.js';
import { eventually } from '../test/session-helpers.js';
import { useTestApp } from '../test/test-app.js';

/**
 * The tickets channel with a status (§4, whaticket's `joinTickets(status)`): a socket joined to a status hears
 * `update` for the tickets of the user's list of that status and `delete` when one leaves it.
 */
const t = useTestApp({ admin: true });
const phone = phoneNumbers(61_000, 1);
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What a socket heard of one ticket, in order: `update:<status>`, `delete`, `unread`, `message:<status>`. */
interface Listener {
  socket: Socket;
  heard: { ticketId: number; what: string }[];
}

function ack(socket: Socket, event: string, ...args: unknown[]): Promise<{ ok: boolean; error?: string }> {
  return new Promise((resolve) => socket.emit(event, ...args, resolve));
}

async function listener(token: string, join: { statuses?: TicketStatus[]; notification?: boolean }): Promise<Listener> {
  const socket = await t.socket(token);
  const heard: Listener['heard'] = [];
  socket.on('ticket', (e: ServerEventPayload<'ticket'>) => {
    if (e.action === 'update') heard.push({ ticketId: e.ticket.id, what: `update:${e.ticket.status}` });
    else heard.push({ ticketId: e.ticketId, what: e.action === 'delete' ? 'delete' : 'unread' });
  });
  socket.on('appMessage', (e: ServerEventPayload<'appMessage'>) => heard.push({ ticketId: e.ticket.id, what: `message:${e.ticket.status}` }));
  if (join.notification) expect(await ack(socket, 'joinNotification')).toEqual({ ok: true });
  for (const status of join.statuses ?? []) expect(await ack(socket, 'joinTickets', status)).toEqual({ ok: true });
  return { socket, heard };
}

type Name =
  | 'aPending' | 'aOpen' | 'aClosed' | 'aDesk'
  | 'bPending' | 'bOpen'
  | 'outsider'
  | 'adminPending' | 'adminOpen' | 'adminClosed';

const listeners = {} as Record<Name, Listener>;
let queueQ: number;
let queueR: number;
let whatsappId: number;
let customer: string;
let ticket: TicketDto;
let attendantA: { id: number; token: string };
let attendantB: { id: number; token: string };

const heardOf = (name: Name) => listeners[name].heard.filter((h) => h.ticketId === ticket.id).map((h) => h.what);
const clearAll = () => {
  for (const l of Object.values(listeners)) l.heard.length = 0;
};

/** Runs a change, then checks what every socket heard of the ticket (exactly, in order; a socket left out heard nothing). */
async function expectHeard(change: () => Promise<unknown>, expected: Partial<Record<Name, string[]>>): Promise<void> {
  clearAll();
  await change();
  await eventually(async () => Object.entries(expected).every(([name, what]) => heardOf(name as Name).length >= what.length), 3000, 'the events');
  await pause(300); // nothing more arrives
  const got = Object.fromEntries((Object.keys(listeners) as Name[]).map((name) => [name, heardOf(name)]));
  const want = Object.fromEntries((Object.keys(listeners) as Name[]).map((name) => [name, expected[name] ?? []]));
  expect(got).toEqual(want);
}

async function put(token: string, body: Record<string, unknown>): Promise<void> {
  const res = await t.call('PUT', `/api/tickets/${ticket.id}`, { token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

beforeAll(async () => {
  queueQ = await createQueue(t, `Status Q ${Date.now()}`);
  queueR = await createQueue(t, `Status R ${Date.now()}`);
  whatsappId = (await connectedSimulator(t, { queueIds: [queueQ] })).id;
  const a = await t.createUser({ name: 'Ana', queueIds: [queueQ] });
  const b = await t.createUser({ name: 'Bruno', queueIds: [queueQ] });
  const o = await t.createUser({ name: 'Olga', queueIds: [queueR] });
  attendantA = { id: a.user.id, token: a.token };
  attendantB = { id: b.user.id, token: b.token };

  // whaticket's lists: one socket per status. aDesk is our web client: notification and every status on one socket.
  listeners.aPending = await listener(a.token, { statuses: ['pending'] });
  listeners.aOpen = await listener(a.token, { statuses: ['open'] });
  listeners.aClosed = await listener(a.token, { statuses: ['closed'] });
  listeners.aDesk = await listener(a.token, { notification: true, statuses: ['open', 'pending', 'closed'] });
  listeners.bPending = await listener(b.token, { statuses: ['pending'] });
  listeners.bOpen = await listener(b.token, { statuses: ['open'] });
  listeners.outsider = await listener(o.token, { notification: true, statuses: ['pending', 'open', 'closed'] });
  listeners.adminPending = await listener(t.admin, { statuses: ['pending'] });
  listeners.adminOpen = await listener(t.admin, { statuses: ['open'] });
  listeners.adminClosed = await listener(t.admin, { statuses: ['closed'] });
  await pause(300); // the queue rooms are joined after the handshake

  customer = phone();
  ticket = await inbound(t, whatsappId, { from: customer, body: 'preciso de ajuda' });
  expect(ticket).toMatchObject({ status: 'pending', queueId: queueQ, userId: null });
  await eventually(async () => heardOf('aPending').includes('update:pending'), 3000, 'the new ticket in the pending lists');
  expect(heardOf('adminPending')).toContain('update:pending');
  expect(heardOf('bPending')).toContain('update:pending');
});

describe('the tickets channel of a status (joinTickets)', () => {
  const accepted = {
    aPending: ['delete'],
    aOpen: ['update:open'],
    aDesk: ['update:open'],
    bPending: ['delete'],
    adminPending: ['delete'],
    adminOpen: ['update:open'],
  };

  it('accept: the pending lists drop the ticket, the open lists of its attendant and the admins get it', async () => {
    await expectHeard(() => put(attendantA.token, { status: 'open' }), accepted);
  });

  it("a message of an open ticket reaches its attendant's open list, not the pending or closed ones", async () => {
    clearAll();
    await inbound(t, whatsappId, { from: customer, body: 'ainda aí?' });
    await eventually(async () => heardOf('aOpen').includes('message:open'), 3000, 'the message');
    await pause(300);
    const messages = (name: Name) => heardOf(name).filter((what) => what.startsWith('message:'));
    expect(messages('aOpen')).toEqual(['message:open']);
    expect(messages('aDesk')).toEqual(['message:open']);
    expect(messages('adminOpen')).toEqual(['message:open']);
    for (const name of ['aPending', 'aClosed', 'bPending', 'bOpen', 'adminPending', 'adminClosed', 'outsider'] as const) {
      expect(messages(name), name).toEqual([]);
      expect(heardOf(name).filter((what) => what.startsWith('update:')), name).toEqual([]);
    }
  });

  it('return: the open lists drop it, the pending lists of the queue get it back', async () => {
    await expectHeard(() => put(attendantA.token, { status: 'pending' }), {
      aPending: ['update:pending'],
      aOpen: ['delete'],
      aDesk: ['update:pending'],
      bPending: ['update:pending'],
      adminPending: ['update:pending'],
      adminOpen: ['delete'],
    });
  });

  it('resolve: the open lists drop it, the closed lists of its attendant and the admins get it', async () => {
    await expectHeard(() => put(attendantA.token, { status: 'open' }), accepted);
    await expectHeard(() => put(attendantA.token, { status: 'closed' }), {
      aOpen: ['delete'],
      aClosed: ['update:closed'],
      aDesk: ['update:closed'],
      adminOpen: ['delete'],
      adminClosed: ['update:closed'],
    });
  });

  it('reopen: the closed lists drop it, the open lists get it', async () => {
    await expectHeard(() => put(attendantA.token, { status: 'open' }), {
      aOpen: ['update:open'],
      aClosed: ['delete'],
      aDesk: ['update:open'],
      adminOpen: ['update:open'],
      adminClosed: ['delete'],
    });
  });

  it("transfer to a colleague: the attendant's open list drops it, the colleague's gets it", async () => {
    await expectHeard(() => put(attendantA.token, { userId: attendantB.id, queueId: queueQ }), {
      aOpen: ['delete'],
      // Still a ticket of Ana's queue: our web client keeps it (its lists show only her own) and is not told to drop it.
      aDesk: ['update:open'],
      bOpen: ['update:open'],
      adminOpen: ['update:open'],
    });
  });

  it('transfer to another queue: those who may no longer see it drop it, the pending list of that queue gets it', async () => {
    await expectHeard(() => put(attendantB.token, { queueId: queueR }), {
      aDesk: ['delete'],
      bOpen: ['delete'],
      outsider: ['update:pending'],
      adminPending: ['update:pending'],
      adminOpen: ['delete'],
    });
  });
});
