import type { TicketDto, TicketStatus, WhatsappDto } from '@wadesk/contracts';
import { eq, inArray, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { tickets } from '../../db/schema.js';
import { connectedSimulator, createQueue, inbound, phoneNumbers, queryRows } from '../../test/desk-factories.js';
import { eventually } from '../../test/session-helpers.js';
import { useTestApp } from '../../test/test-app.js';

const t = useTestApp({ admin: true });
let conn: WhatsappDto;
const phone = phoneNumbers(74000000, 17);

beforeAll(async () => {
  conn = await connectedSimulator(t);
});

/** A ticket of a new contact, then set as the test needs it. */
async function ticket(state: { status: TicketStatus; userId?: number | null; queueId?: number | null; isGroup?: boolean }): Promise<number> {
  const created = await inbound(t, conn.id, { from: phone(), body: 'oi' });
  await t.app.database.db
    .update(tickets)
    .set({ status: state.status, userId: state.userId ?? null, queueId: state.queueId ?? null, isGroup: state.isGroup ?? false })
    .where(eq(tickets.id, created.id));
  return created.id;
}

async function statusesOf(ids: number[]): Promise<TicketStatus[]> {
  const rows = await t.app.database.db.select({ id: tickets.id, status: tickets.status }).from(tickets).where(inArray(tickets.id, ids));
  return ids.map((id) => rows.find((r) => r.id === id)!.status as TicketStatus);
}

async function listCount(token: string, query: string): Promise<number> {
  return (await t.call<{ count: number }>('GET', `/api/tickets?${query}`, { token })).body.count;
}

describe('POST /api/ticketsClosed (close all)', () => {
  it("closes an attendant's own open tickets and their queues' pending ones, never a colleague's conversation, and answers the count", async () => {
    const sales = await createQueue(t, 'Close-all Sales');
    const other = await createQueue(t, 'Close-all Other');
    const me = await t.createUser({ name: 'Closer', queueIds: [sales] });
    const colleague = await t.createUser({ name: 'Colleague at work', queueIds: [sales] });

    const waiting = [await ticket({ status: 'pending', queueId: sales }), await ticket({ status: 'pending', queueId: sales })];
    const mine = await ticket({ status: 'open', userId: me.user.id, queueId: sales });
    const colleagues = [
      await ticket({ status: 'open', userId: colleague.user.id, queueId: sales }),
      await ticket({ status: 'open', userId: colleague.user.id, queueId: sales }),
      await ticket({ status: 'open', userId: colleague.user.id, queueId: sales }),
      // Without a queue: visible to everyone, still the colleague's conversation.
      await ticket({ status: 'open', userId: colleague.user.id, queueId: null }),
    ];
    const otherQueue = await ticket({ status: 'pending', queueId: other });

    // What the web's confirmation counts: Working on and Queue of the Inbox tab, as listed for the attendant.
    const shown = (await listCount(me.token, 'status=open&isGroup=false')) + (await listCount(me.token, 'status=pending&isGroup=false'));
    expect(shown).toBe(3);

    // The attendant's own ticket changes under their eyes: they are told live, on our client's socket and on a
    // whaticket client's joined to the open tickets (which drops it from Working on).
    const socket = await t.socket(me.token);
    const updates: TicketDto[] = [];
    socket.on('ticket', (e: { action: string; ticket?: TicketDto }) => {
      if (e.action === 'update' && e.ticket) updates.push(e.ticket);
    });
    const openChannel = await t.socket(me.token);
    const dropped: number[] = [];
    openChannel.on('ticket', (e: { action: string; ticketId?: number }) => {
      if (e.action === 'delete' && e.ticketId) dropped.push(e.ticketId);
    });
    await openChannel.emitWithAck('joinTickets', 'open');
    await new Promise((r) => setTimeout(r, 200)); // queue rooms are joined after the handshake

    const res = await t.call<{ closed: number }>('POST', '/api/ticketsClosed', { token: me.token, body: { showAll: false, isGroup: false } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ closed: 3 });
    expect(await statusesOf([...waiting, mine])).toEqual(['closed', 'closed', 'closed']);
    expect(await statusesOf([...colleagues, otherQueue])).toEqual(['open', 'open', 'open', 'open', 'pending']);
    await eventually(async () => updates.some((u) => u.id === mine && u.status === 'closed'), 3000, 'the live update of the closed ticket');
    await eventually(async () => dropped.includes(mine), 3000, 'the open channel dropping the closed ticket');
  });

  it('closes the view it is asked for: the Inbox tab leaves the Group tab and the queues filtered out', async () => {
    const queueA = await createQueue(t, 'Close-all View A');
    const queueB = await createQueue(t, 'Close-all View B');
    const me = await t.createUser({ queueIds: [queueA, queueB] });
    const privateA = await ticket({ status: 'pending', queueId: queueA });
    const groupA = await ticket({ status: 'pending', queueId: queueA, isGroup: true });
    const privateB = await ticket({ status: 'pending', queueId: queueB });

    const res = await t.call('POST', '/api/ticketsClosed', { token: me.token, body: { showAll: false, isGroup: false, queueIds: [queueA] } });
    expect(res.body).toEqual({ closed: 1 });
    expect(await statusesOf([privateA, groupA, privateB])).toEqual(['closed', 'pending', 'pending']);

    // Without a body (whaticket's client): private and group, every queue of the attendant.
    const whaticket = await t.call('POST', '/api/ticketsClosed/', { token: me.token });
    expect(whaticket.body).toEqual({ closed: 2 });
    expect(await statusesOf([groupA, privateB])).toEqual(['closed', 'closed']);
  });

  it('ignores Show all from an attendant', async () => {
    const queue = await createQueue(t, 'Close-all Show all');
    const me = await t.createUser({ queueIds: [queue] });
    const colleague = await t.createUser({ queueIds: [queue] });
    const theirs = await ticket({ status: 'open', userId: colleague.user.id, queueId: queue });
    const res = await t.call('POST', '/api/ticketsClosed', { token: me.token, body: { showAll: true } });
    expect(res.status).toBe(200);
    expect(await statusesOf([theirs])).toEqual(['open']);
  });

  it("closes for an admin without Show all their own open tickets and every pending one, and with Show all every open and pending ticket", async () => {
    const queue = await createQueue(t, 'Close-all Admin');
    const attendant = await t.createUser({ queueIds: [queue] });
    const admin = (await t.login()).user;
    const adminsOwn = await ticket({ status: 'open', userId: admin.id, queueId: queue });
    const attendants = await ticket({ status: 'open', userId: attendant.user.id, queueId: queue });
    const waiting = await ticket({ status: 'pending', queueId: queue });

    const withoutShowAll = await t.call<{ closed: number }>('POST', '/api/ticketsClosed', { token: t.admin, body: { showAll: false } });
    expect(withoutShowAll.status).toBe(200);
    expect(await statusesOf([adminsOwn, attendants, waiting])).toEqual(['closed', 'open', 'closed']);

    const again = [await ticket({ status: 'pending', queueId: null }), await ticket({ status: 'open', userId: attendant.user.id, queueId: null })];
    const [before] = await queryRows<{ n: number }>(t, sql`select count(*)::int as n from tickets where status in ('open', 'pending')`);
    expect(before!.n).toBeGreaterThanOrEqual(3);
    const showAll = await t.call<{ closed: number }>('POST', '/api/ticketsClosed', { token: t.admin, body: { showAll: true } });
    expect(showAll.body).toEqual({ closed: before!.n });
    expect(await statusesOf([attendants, ...again])).toEqual(['closed', 'closed', 'closed']);
  });

  it('refuses a view that is not one with 400 ERR_VALIDATION and closes nothing', async () => {
    const me = await t.createUser();
    const waiting = await ticket({ status: 'pending', queueId: null });
    const res = await t.call('POST', '/api/ticketsClosed', { token: me.token, body: { showAll: 'yes', queueIds: ['x'] } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_VALIDATION');
    expect(await statusesOf([waiting])).toEqual(['pending']);
  });
});
