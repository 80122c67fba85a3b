import type { QueueDto, TicketDto, UserDto } from '@wadesk/contracts';
import { sql } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { describe, expect, it } from 'vitest';
import { connectedSimulator, createQueue, inbound, phoneNumbers, queryRows } from '../../test/desk-factories.js';
import { eventually } from '../../test/session-helpers.js';
import { useTestApp } from '../../test/test-app.js';

const t = useTestApp({ admin: true, user: true });
const phone = phoneNumbers(73000000, 23);

/** A queue with automatic assignment on, and a connection whose new tickets go straight into it. */
async function autoQueue(name: string) {
  const queueId = await createQueue(t, name);
  const res = await t.call<QueueDto>('PUT', `/api/queue/${queueId}`, { token: t.admin, body: { autoAssign: true } });
  expect(res.status).toBe(200);
  const conn = await connectedSimulator(t, { queueIds: [queueId] });
  return { queueId, conn };
}

async function ticketNow(id: number): Promise<TicketDto> {
  return (await t.app.services.tickets.loadMany([id]))[0]!;
}

/** The ticket once automatic assignment has had its turn. */
async function settled(id: number): Promise<TicketDto> {
  await t.app.services.autoAssign.idle();
  return ticketNow(id);
}

async function setLimit(user: UserDto, maxOpenTickets: number) {
  const res = await t.call<UserDto>('PUT', `/api/users/${user.id}`, { token: t.admin, body: { maxOpenTickets } });
  expect(res.status).toBe(200);
}

describe('queue autoAssign and user maxOpenTickets (issue 36 §4)', () => {
  it('a queue is created without automatic assignment; an admin turns it on', async () => {
    const created = await t.call<QueueDto>('POST', '/api/queue', { token: t.admin, body: { name: 'AA defaults', color: '#0A0B0C' } });
    expect(created.body.autoAssign).toBe(false);
    const on = await t.call<QueueDto>('PUT', `/api/queue/${created.body.id}`, { token: t.admin, body: { autoAssign: true } });
    expect(on.body).toMatchObject({ autoAssign: true, name: 'AA defaults' });
    expect((await t.call<QueueDto>('GET', `/api/queue/${created.body.id}`, { token: t.user })).body.autoAssign).toBe(true);
    const byAttendant = await t.call('PUT', `/api/queue/${created.body.id}`, { token: t.user, body: { autoAssign: false } });
    expect(byAttendant.status).toBe(403);
  });

  it('a user has no limit (0) by default; an admin sets one, a user cannot set their own, and it is a whole number ≥ 0', async () => {
    const { user, token } = await t.createUser({ name: 'Limit Default' });
    expect(user.maxOpenTickets).toBe(0);
    await setLimit(user, 3);
    expect((await t.call<UserDto>('GET', `/api/users/${user.id}`, { token: t.admin })).body.maxOpenTickets).toBe(3);
    const own = await t.call('PUT', `/api/users/${user.id}`, { token, body: { maxOpenTickets: 10 } });
    expect(own.status).toBe(403);
    const sameValue = await t.call('PUT', `/api/users/${user.id}`, { token, body: { name: 'Limit Default', maxOpenTickets: 3 } });
    expect(sameValue.status).toBe(200);
    for (const bad of [-1, 1.5, 'x']) {
      const res = await t.call<{ error: string }>('PUT', `/api/users/${user.id}`, { token: t.admin, body: { maxOpenTickets: bad } });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
    }
    const created = await t.call<UserDto>('POST', '/api/users', {
      token: t.admin,
      body: { name: 'Limit Created', email: 'limit-created@test.local', password: 'secret-pass-1', maxOpenTickets: 2 },
    });
    expect(created.body.maxOpenTickets).toBe(2);
  });
});

describe('automatic assignment (issue 36 §4)', () => {
  it('gives a new pending ticket of the queue to its online attendant: open, theirs, an assigned line, a ticketAssigned notice to them only', async () => {
    const { queueId, conn } = await autoQueue('AA online');
    const member = await t.createUser({ name: 'AA Member', queueIds: [queueId] });
    const outsider = await t.createUser({ name: 'AA Outsider', queueIds: [] });
    const memberSocket = await t.socket(member.token);
    const outsiderSocket = await t.socket(outsider.token);
    const heard: { member: TicketDto[]; outsider: TicketDto[] } = { member: [], outsider: [] };
    memberSocket.on('ticketAssigned', (e: { ticket: TicketDto }) => heard.member.push(e.ticket));
    outsiderSocket.on('ticketAssigned', (e: { ticket: TicketDto }) => heard.outsider.push(e.ticket));

    const ticket = await inbound(t, conn.id, { from: phone(), name: 'Cliente Auto', body: 'oi' });
    const assigned = await eventually(async () => {
      const now = await settled(ticket.id);
      return now.status === 'open' ? now : null;
    });
    expect(assigned).toMatchObject({ status: 'open', userId: member.user.id, queueId });
    await eventually(async () => heard.member.length === 1);
    expect(heard.member[0]).toMatchObject({ id: ticket.id, userId: member.user.id, contact: { name: 'Cliente Auto' } });
    expect(heard.outsider).toEqual([]);
    const events = await queryRows<{ kind: string; actor_user_id: number | null; data: { toUser: { id: number; name: string } } }>(
      t,
      sql`select kind, actor_user_id, data from ticket_events where ticket_id = ${ticket.id}`,
    );
    expect(events).toEqual([{ kind: 'assigned', actor_user_id: null, data: { toUser: { id: member.user.id, name: 'AA Member' } } }]);
    const page = await t.call<{ events: { kind: string; toUser: { name: string } }[] }>('GET', `/api/messages/${ticket.id}`, { token: member.token });
    expect(page.body.events).toMatchObject([{ kind: 'assigned', actor: null, toUser: { name: 'AA Member' } }]);
    const [row] = await queryRows<{ last_assigned_at: Date | null }>(t, sql`select last_assigned_at from users where id = ${member.user.id}`);
    expect(row!.last_assigned_at).not.toBeNull();
  });

  it('leaves the ticket pending with nobody online, and assigns it when a member of the queue connects', async () => {
    const { queueId, conn } = await autoQueue('AA later');
    const member = await t.createUser({ name: 'AA Later', queueIds: [queueId] });
    const ticket = await inbound(t, conn.id, { from: phone(), body: 'anyone?' });
    await t.app.services.autoAssign.run();
    expect(await settled(ticket.id)).toMatchObject({ status: 'pending', userId: null });

    const socket: Socket = await t.socket(member.token);
    const notice = new Promise<{ ticket: TicketDto }>((resolve) => socket.once('ticketAssigned', resolve));
    await eventually(async () => (await settled(ticket.id)).status === 'open');
    expect(await ticketNow(ticket.id)).toMatchObject({ status: 'open', userId: member.user.id });
    expect((await notice).ticket.id).toBe(ticket.id);
  });

  it('never gives a ticket to someone online outside the queue (an admin included), nor to a member whose socket left', async () => {
    const { queueId, conn } = await autoQueue('AA outside');
    const otherQueue = await createQueue(t, 'AA outside other');
    const outsider = await t.createUser({ name: 'AA Elsewhere', queueIds: [otherQueue] });
    const admin = await t.createUser({ name: 'AA Admin', profile: 'admin' });
    const member = await t.createUser({ name: 'AA Came And Went', queueIds: [queueId] });
    const outsiderSocket = await t.socket(outsider.token);
    await t.socket(admin.token);
    const heard: TicketDto[] = [];
    outsiderSocket.on('ticketAssigned', (e: { ticket: TicketDto }) => heard.push(e.ticket));
    // The member was online and left: no longer a candidate.
    const gone = await t.socket(member.token);
    gone.disconnect();
    await eventually(async () => (await t.app.io.in(`user:${member.user.id}`).fetchSockets()).length === 0);

    const ticket = await inbound(t, conn.id, { from: phone(), body: 'alguém?' });
    await t.app.services.autoAssign.run();
    expect(await settled(ticket.id)).toMatchObject({ status: 'pending', userId: null, queueId });
    expect(heard).toEqual([]);
    // The member comes back: the ticket is theirs.
    await t.socket(member.token);
    await eventually(async () => (await settled(ticket.id)).status === 'open');
    expect(await ticketNow(ticket.id)).toMatchObject({ status: 'open', userId: member.user.id });
  });

  it('does nothing in a queue without automatic assignment', async () => {
    const queueId = await createQueue(t, 'AA off');
    const conn = await connectedSimulator(t, { queueIds: [queueId] });
    const member = await t.createUser({ name: 'AA Off', queueIds: [queueId] });
    await t.socket(member.token);
    const ticket = await inbound(t, conn.id, { from: phone(), body: 'oi' });
    await t.app.services.autoAssign.run();
    expect(await settled(ticket.id)).toMatchObject({ status: 'pending', userId: null, queueId });
  });

  it('picks the online member with the fewest open tickets, ties by longest since their last assignment, never an offline one', async () => {
    const { queueId, conn } = await autoQueue('AA fewest');
    const busy = await t.createUser({ name: 'AA Busy', queueIds: [queueId] });
    const free = await t.createUser({ name: 'AA Free', queueIds: [queueId] });
    const away = await t.createUser({ name: 'AA Away', queueIds: [queueId] });
    // Busy already has an open ticket of their own.
    const own = await inbound(t, conn.id, { from: phone(), body: 'first' });
    await t.call('PUT', `/api/tickets/${own.id}`, { token: busy.token, body: { status: 'open' } });
    expect(await ticketNow(own.id)).toMatchObject({ status: 'open', userId: busy.user.id });
    await t.socket(busy.token);
    await t.socket(free.token);

    const a = await inbound(t, conn.id, { from: phone(), body: 'a' });
    await eventually(async () => (await settled(a.id)).status === 'open');
    expect((await ticketNow(a.id)).userId).toBe(free.user.id);
    // Now one each: the tie goes to the one assigned longest ago (Busy was never assigned automatically).
    const b = await inbound(t, conn.id, { from: phone(), body: 'b' });
    await eventually(async () => (await settled(b.id)).status === 'open');
    expect((await ticketNow(b.id)).userId).toBe(busy.user.id);
    const c = await inbound(t, conn.id, { from: phone(), body: 'c' });
    await eventually(async () => (await settled(c.id)).status === 'open');
    expect((await ticketNow(c.id)).userId).toBe(free.user.id);
    const [count] = await queryRows<{ n: number }>(t, sql`select count(*)::int as n from tickets where user_id = ${away.user.id}`);
    expect(count!.n).toBe(0);
  });

  it('keeps a user at their limit; a ticket waits until one of theirs is resolved or transferred, then goes to them', async () => {
    const { queueId, conn } = await autoQueue('AA limit');
    const member = await t.createUser({ name: 'AA Limited', queueIds: [queueId] });
    await setLimit(member.user, 1);
    await t.socket(member.token);
    const first = await inbound(t, conn.id, { from: phone(), body: '1' });
    await eventually(async () => (await settled(first.id)).status === 'open');
    const second = await inbound(t, conn.id, { from: phone(), body: '2' });
    await t.app.services.autoAssign.run();
    expect(await settled(second.id)).toMatchObject({ status: 'pending', userId: null });

    const resolved = await t.call('PUT', `/api/tickets/${first.id}`, { token: member.token, body: { status: 'closed' } });
    expect(resolved.status).toBe(200);
    await eventually(async () => (await settled(second.id)).status === 'open');
    expect(await ticketNow(second.id)).toMatchObject({ userId: member.user.id });

    // Back to the queue (transfer to the queue without a user): it waits for a free slot again, and is assigned anew.
    const third = await inbound(t, conn.id, { from: phone(), body: '3' });
    await t.app.services.autoAssign.run();
    expect((await settled(third.id)).status).toBe('pending');
    await t.call('PUT', `/api/tickets/${second.id}`, { token: member.token, body: { queueId, userId: null } });
    // The returned ticket (older) and the waiting one compete for the one slot: the oldest waiting ticket wins.
    await eventually(async () => (await settled(second.id)).status === 'open');
    expect(await settled(third.id)).toMatchObject({ status: 'pending', userId: null });
  });

  it('assigns a ticket transferred to the queue without a user', async () => {
    const { queueId } = await autoQueue('AA transfer');
    const plainQueue = await createQueue(t, 'AA transfer from');
    const conn = await connectedSimulator(t, { queueIds: [plainQueue] });
    const sender = await t.createUser({ name: 'AA Sender', queueIds: [plainQueue] });
    const receiver = await t.createUser({ name: 'AA Receiver', queueIds: [queueId] });
    await t.socket(receiver.token);
    const ticket = await inbound(t, conn.id, { from: phone(), body: 'transfer me' });
    await t.call('PUT', `/api/tickets/${ticket.id}`, { token: sender.token, body: { status: 'open' } });
    const moved = await t.call<TicketDto>('PUT', `/api/tickets/${ticket.id}`, { token: sender.token, body: { queueId, userId: null } });
    expect(moved.body).toMatchObject({ status: 'pending', queueId });
    await eventually(async () => (await settled(ticket.id)).status === 'open');
    expect(await ticketNow(ticket.id)).toMatchObject({ status: 'open', userId: receiver.user.id, queueId });
  });
});

describe('automatic assignment against a manual accept (issue 36 §4: no ticket to two people)', () => {
  it('refuses an accept of a ticket automatic assignment gave someone between the accept’s read and its write', async () => {
    const { queueId, conn } = await autoQueue('AA race');
    const member = await t.createUser({ name: 'AA Racer', queueIds: [queueId] });
    const taker = await t.createUser({ name: 'AA Taker', queueIds: [queueId] });
    const ticket = await inbound(t, conn.id, { from: phone(), body: 'quem me atende?' });
    await t.app.services.autoAssign.run();
    expect(await settled(ticket.id)).toMatchObject({ status: 'pending', userId: null });

    // The accept reads the ticket (pending, nobody's); then, before it writes, the member comes online and the ticket
    // is assigned to them.
    const service = t.app.services.tickets;
    const read = service.get.bind(service);
    service.get = async (user, id) => {
      const seen = await read(user, id);
      service.get = read;
      await t.socket(member.token);
      await eventually(async () => (await settled(ticket.id)).status === 'open');
      return seen;
    };
    try {
      const accept = await t.call<{ error: string }>('PUT', `/api/tickets/${ticket.id}`, { token: taker.token, body: { status: 'open' } });
      expect(accept.status).toBe(409);
      expect(accept.body.error).toBe('ERR_TICKET_ALREADY_TAKEN');
    } finally {
      service.get = read;
    }
    expect(await ticketNow(ticket.id)).toMatchObject({ status: 'open', userId: member.user.id });
    const events = await queryRows<{ kind: string }>(t, sql`select kind from ticket_events where ticket_id = ${ticket.id} order by id`);
    expect(events.map((e) => e.kind)).toEqual(['assigned']);
  });

  it('gives a waiting ticket accepted by two attendants at once to one of them', async () => {
    const queueId = await createQueue(t, 'AA two accept');
    const conn = await connectedSimulator(t, { queueIds: [queueId] });
    const [ana, bia] = [await t.createUser({ name: 'AA Ana', queueIds: [queueId] }), await t.createUser({ name: 'AA Bia', queueIds: [queueId] })];
    for (let round = 0; round < 5; round += 1) {
      const ticket = await inbound(t, conn.id, { from: phone(), body: `round ${round}` });
      const answers = await Promise.all(
        [ana, bia].map((who) => t.call('PUT', `/api/tickets/${ticket.id}`, { token: who.token, body: { status: 'open' } })),
      );
      // The one who read it waiting after the other's write is refused; one who read it open changes nothing.
      for (const answer of answers) expect([200, 409]).toContain(answer.status);
      const now = await ticketNow(ticket.id);
      expect(now.status).toBe('open');
      expect([ana.user.id, bia.user.id]).toContain(now.userId);
      const events = await queryRows<{ kind: string; actor_user_id: number }>(t, sql`select kind, actor_user_id from ticket_events where ticket_id = ${ticket.id}`);
      expect(events).toEqual([{ kind: 'accepted', actor_user_id: now.userId }]);
    }
  });
});

describe('automatic assignment after the queue menu (issue 36 §4)', () => {
  it('assigns the ticket once the contact picks an auto-assigning queue from the menu', async () => {
    const { queueId } = await autoQueue('AA menu pick');
    const other = await createQueue(t, 'AA menu other');
    const conn = await connectedSimulator(t, { queueIds: [queueId, other], greetingMessage: 'Choose a queue' });
    const member = await t.createUser({ name: 'AA Menu', queueIds: [queueId] });
    await t.socket(member.token);
    const from = phone();
    const ticket = await inbound(t, conn.id, { from, body: 'hello' });
    await t.app.services.autoAssign.run();
    expect(await settled(ticket.id)).toMatchObject({ status: 'pending', userId: null, queueId: null });
    // The menu lists the connection's queues by name (1-based): the auto-assigning queue's number.
    const names = ['AA menu pick', 'AA menu other'].sort((a, b) => a.localeCompare(b));
    await inbound(t, conn.id, { from, body: String(names.indexOf('AA menu pick') + 1) });
    await eventually(async () => (await settled(ticket.id)).status === 'open');
    expect(await ticketNow(ticket.id)).toMatchObject({ status: 'open', userId: member.user.id, queueId });
  });
});
