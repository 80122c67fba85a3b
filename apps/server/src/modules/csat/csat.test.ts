import type { TicketDto, WhatsappDto } from '@wadesk/contracts';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { connectedSimulator, createQueue, inbound, outbox, phoneNumbers, queryRows } from '../../test/desk-factories.js';
import { useTestApp } from '../../test/test-app.js';

/**
 * Customer satisfaction (issue 36 §5, decision 0041), through the simulator: the survey on resolve, a rating of 1–5
 * within 24 h and the comment after it kept on that ticket without opening another. The clock is injected.
 */
let now = new Date('2026-11-27T15:00:00Z');
const t = useTestApp({ admin: true, clock: () => now });
const phone = phoneNumbers(36500000, 41);
let connection: WhatsappDto;
let queueId: number;

async function setting(key: string, value: string): Promise<void> {
  const res = await t.call('PUT', `/api/settings/${key}`, { token: t.admin, body: { value } });
  expect(res.status).toBe(200);
}

async function ticket(id: number): Promise<TicketDto> {
  return (await t.call<TicketDto>('GET', `/api/tickets/${id}`, { token: t.admin })).body;
}

async function ticketsOf(from: string) {
  return queryRows<{ id: number; status: string }>(
    t,
    sql`select t.id, t.status from tickets t join contacts c on c.id = t.contact_id where c.number = ${from} order by t.id`,
  );
}

/** A contact writes, an attendant takes the ticket and resolves it. */
async function resolvedTicket(from: string, name = 'Carla'): Promise<TicketDto> {
  const first = await inbound(t, connection.id, { from, body: 'I need help', name });
  expect((await t.call('PUT', `/api/tickets/${first.id}`, { token: t.admin, body: { status: 'open' } })).status).toBe(200);
  expect((await t.call('PUT', `/api/tickets/${first.id}`, { token: t.admin, body: { status: 'closed' } })).status).toBe(200);
  return first;
}

async function surveyed(from: string): Promise<void> {
  await vi.waitFor(async () => expect((await outbox(t, connection.id, from)).map((m) => m.body).at(-1)).toMatch(/de 1 \(ruim\) a 5/));
}

beforeAll(async () => {
  queueId = await createQueue(t, 'Support CSAT');
  connection = await connectedSimulator(t, { queueIds: [queueId] });
});

describe('the satisfaction survey', () => {
  it('is not sent while csatEnabled is disabled (the default)', async () => {
    const from = phone();
    const first = await resolvedTicket(from);
    await new Promise((r) => setTimeout(r, 300));
    expect(await outbox(t, connection.id, from)).toEqual([]);
    await inbound(t, connection.id, { from, body: '5' });
    expect((await ticket(first.id)).csat).toBeNull();
    expect((await ticketsOf(from)).some((row) => row.status === 'pending')).toBe(true);
  });

  it('is sent on resolve, and a rating of 1–5 is kept on that ticket without opening another', async () => {
    await setting('csatEnabled', 'enabled');
    const from = phone();
    now = new Date('2026-11-27T15:00:00Z');
    const first = await resolvedTicket(from, 'Carla');
    await surveyed(from);
    expect((await outbox(t, connection.id, from)).at(-1)!.body).toContain('Carla');

    now = new Date('2026-11-28T14:00:00Z'); // 23 h later
    await t.call('POST', `/api/simulator/${connection.id}/inbound`, { token: t.admin, body: { from, body: ' 4️⃣ ' } });
    await vi.waitFor(async () => expect((await ticket(first.id)).csat).toEqual({ rating: 4, comment: null, at: '2026-11-28T14:00:00.000Z' }));
    expect(await ticketsOf(from)).toEqual([{ id: first.id, status: 'closed' }]);

    // The text that follows within 10 minutes is its comment; still no ticket.
    now = new Date('2026-11-28T14:05:00Z');
    await t.call('POST', `/api/simulator/${connection.id}/inbound`, { token: t.admin, body: { from, body: 'Quick and kind, thanks!' } });
    await vi.waitFor(async () => expect((await ticket(first.id)).csat?.comment).toBe('Quick and kind, thanks!'));
    expect(await ticketsOf(from)).toEqual([{ id: first.id, status: 'closed' }]);
    // Both messages are in the resolved ticket's conversation.
    const bodies = await queryRows<{ body: string }>(t, sql`select body from messages where ticket_id = ${first.id} and from_me = false order by id`);
    expect(bodies.map((m) => m.body)).toEqual(['I need help', ' 4️⃣ ', 'Quick and kind, thanks!']);

    // What comes after is a conversation as before.
    now = new Date('2026-11-28T14:06:00Z');
    await inbound(t, connection.id, { from, body: 'one more question' });
    expect((await ticketsOf(from)).some((row) => row.status === 'pending')).toBe(true);
    expect((await ticket(first.id)).csat).toMatchObject({ rating: 4, comment: 'Quick and kind, thanks!' });
  });

  it('takes a reply that is not 1–5 as a message like any other', async () => {
    const from = phone();
    now = new Date('2026-11-27T15:00:00Z');
    const first = await resolvedTicket(from);
    await surveyed(from);
    const landed = await inbound(t, connection.id, { from, body: '6' });
    expect(landed.status).toBe('pending');
    expect((await ticket(first.id)).csat).toBeNull();
  });

  it('does not take a rating after 24 hours', async () => {
    const from = phone();
    now = new Date('2026-11-27T15:00:00Z');
    const first = await resolvedTicket(from);
    await surveyed(from);
    now = new Date('2026-11-28T15:00:01Z');
    const landed = await inbound(t, connection.id, { from, body: '5' });
    expect(landed.status).toBe('pending');
    expect((await ticket(first.id)).csat).toBeNull();
  });

  it('keeps no comment after 10 minutes', async () => {
    const from = phone();
    now = new Date('2026-11-27T15:00:00Z');
    const first = await resolvedTicket(from);
    await surveyed(from);
    await t.call('POST', `/api/simulator/${connection.id}/inbound`, { token: t.admin, body: { from, body: '2' } });
    await vi.waitFor(async () => expect((await ticket(first.id)).csat?.rating).toBe(2));
    now = new Date('2026-11-27T15:10:01Z');
    const landed = await inbound(t, connection.id, { from, body: 'by the way, my order is late' });
    expect(landed.status).toBe('pending');
    expect((await ticket(first.id)).csat).toMatchObject({ rating: 2, comment: null });
  });

  it('asks no group, and nobody whose ticket was closed by Close all', async () => {
    const groupId = `1203630${Date.now()}@g.us`;
    const group = await inbound(t, connection.id, { from: phone(), body: 'hi all', groupId, groupName: 'Team chat' });
    expect(group.isGroup).toBe(true);
    expect((await t.call('PUT', `/api/tickets/${group.id}`, { token: t.admin, body: { status: 'open' } })).status).toBe(200);
    expect((await t.call('PUT', `/api/tickets/${group.id}`, { token: t.admin, body: { status: 'closed' } })).status).toBe(200);
    const from = phone();
    const bulk = await inbound(t, connection.id, { from, body: 'hello' });
    expect((await t.call('POST', '/api/ticketsClosed', { token: t.admin, body: { showAll: true } })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    expect(await outbox(t, connection.id, from)).toEqual([]);
    const asked = await queryRows<{ id: number }>(t, sql`select id from tickets where id in (${group.id}, ${bulk.id}) and csat_requested_at is not null`);
    expect(asked).toEqual([]);
  });

  it('shows an attendant outside the queue none of it', async () => {
    const from = phone();
    const first = await resolvedTicket(from);
    const { token } = await t.createUser();
    expect((await t.call('GET', `/api/tickets/${first.id}`, { token })).status).toBe(403);
  });

  it('lets only admins turn it on or change its message', async () => {
    const { token } = await t.createUser({ queueIds: [queueId] });
    expect((await t.call('PUT', '/api/settings/csatEnabled', { token, body: { value: 'disabled' } })).status).toBe(403);
    expect((await t.call('PUT', '/api/settings/csatEnabled', { token: t.admin, body: { value: 'maybe' } })).status).toBe(400);
  });
});
