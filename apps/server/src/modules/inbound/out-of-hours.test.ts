import type { QueueDto, TicketDto, WhatsappDto } from '@wadesk/contracts';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { connectedSimulator, createQueue, inbound, outbox, phoneNumbers } from '../../test/desk-factories.js';
import { useTestApp } from '../../test/test-app.js';

/**
 * Business hours (issue 36 §3, decision 0039), through the simulator: a message outside the schedule that applies
 * gets the out-of-hours message once per closed period, and the ticket is marked. The clock is injected: these run the
 * same at any hour.
 */
let now = new Date('2026-11-27T22:00:00Z'); // a Friday night (UTC)
const t = useTestApp({ admin: true, clock: () => now, config: { queueMenuDebounceMs: 50 } });
const phone = phoneNumbers(36300000, 37);
const office = { timeZone: 'UTC', days: [1, 2, 3, 4, 5].map((weekday) => ({ weekday, start: '09:00', end: '18:00' })), holidays: [] };
const NOTICE = 'We are closed, {{name}}: back at 09:00.';

let officeQueue: number;
let single: WhatsappDto;

async function sent(whatsappId: number, to: string): Promise<string[]> {
  return (await outbox(t, whatsappId, to)).map((m) => m.body);
}

async function ticket(id: number): Promise<TicketDto> {
  return (await t.call<TicketDto>('GET', `/api/tickets/${id}`, { token: t.admin })).body;
}

beforeAll(async () => {
  officeQueue = await createQueue(t, 'Office hours');
  const res = await t.call<QueueDto>('PUT', `/api/queue/${officeQueue}`, { token: t.admin, body: { businessHours: office, outOfHoursMessage: NOTICE } });
  expect(res.status).toBe(200);
  single = await connectedSimulator(t, { queueIds: [officeQueue] });
});

describe('schedules on queues and connections', () => {
  it('keeps a queue’s schedule and message, and reads them back', async () => {
    const res = await t.call<QueueDto>('GET', `/api/queue/${officeQueue}`, { token: t.admin });
    expect(res.body).toMatchObject({ businessHours: office, outOfHoursMessage: NOTICE });
    const cleared = await t.call<QueueDto>('POST', '/api/queue', { token: t.admin, body: { name: 'Always open', color: '#123456' } });
    expect(cleared.status).toBe(201);
    expect(cleared.body).toMatchObject({ businessHours: null, outOfHoursMessage: '' });
  });

  it('refuses overlapping intervals, an interval past midnight and an unknown zone with ERR_VALIDATION', async () => {
    const bad = [
      { timeZone: 'UTC', days: [{ weekday: 1, start: '09:00', end: '12:00' }, { weekday: 1, start: '11:00', end: '13:00' }], holidays: [] },
      { timeZone: 'UTC', days: [{ weekday: 1, start: '22:00', end: '02:00' }], holidays: [] },
      { timeZone: 'Nowhere/Atlantis', days: [], holidays: [] },
    ];
    for (const businessHours of bad) {
      const res = await t.call('PUT', `/api/queue/${officeQueue}`, { token: t.admin, body: { businessHours } });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'ERR_VALIDATION' });
    }
    const conn = await t.call('PUT', `/api/whatsapp/${single.id}`, { token: t.admin, body: { businessHours: bad[0] } });
    expect(conn.status).toBe(400);
  });

  it('lets only admins change a schedule', async () => {
    const { token } = await t.createUser({ queueIds: [officeQueue] });
    const res = await t.call('PUT', `/api/queue/${officeQueue}`, { token, body: { businessHours: null } });
    expect(res.status).toBe(403);
  });
});

describe('a message outside the queue’s hours', () => {
  it('gets the out-of-hours message once per closed period and marks the ticket', async () => {
    const from = phone();
    now = new Date('2026-11-27T22:00:00Z');
    const first = await inbound(t, single.id, { from, body: 'hello?', name: 'Rita' });
    await vi.waitFor(async () => expect(await sent(single.id, from)).toEqual(['We are closed, Rita: back at 09:00.']));
    expect((await ticket(first.id)).arrivedOutOfHours).toBe(true);

    // Later the same night and on Monday morning before opening: the same closed period, no second notice.
    now = new Date('2026-11-28T03:00:00Z');
    await inbound(t, single.id, { from, body: 'anyone?' });
    now = new Date('2026-11-30T08:59:00Z');
    await inbound(t, single.id, { from, body: 'good morning?' });
    await new Promise((r) => setTimeout(r, 200));
    expect(await sent(single.id, from)).toHaveLength(1);

    // Monday evening, still waiting: a new closed period began at 18:00, one more notice.
    now = new Date('2026-11-30T19:00:00Z');
    await inbound(t, single.id, { from, body: 'still waiting' });
    await vi.waitFor(async () => expect(await sent(single.id, from)).toHaveLength(2));
  });

  it('sends nothing and leaves the ticket unmarked during opening hours', async () => {
    const from = phone();
    now = new Date('2026-11-30T10:00:00Z');
    const first = await inbound(t, single.id, { from, body: 'hi' });
    await new Promise((r) => setTimeout(r, 200));
    expect(await sent(single.id, from)).toEqual([]);
    expect((await ticket(first.id)).arrivedOutOfHours).toBe(false);
  });

  it('sends nothing into a conversation an attendant has taken', async () => {
    const from = phone();
    now = new Date('2026-11-30T10:00:00Z');
    const first = await inbound(t, single.id, { from, body: 'hi' });
    expect((await t.call('PUT', `/api/tickets/${first.id}`, { token: t.admin, body: { status: 'open' } })).status).toBe(200);
    now = new Date('2026-11-30T20:00:00Z');
    await inbound(t, single.id, { from, body: 'are you there at night?' });
    await new Promise((r) => setTimeout(r, 200));
    expect(await sent(single.id, from)).toEqual([]);
    expect((await ticket(first.id)).arrivedOutOfHours).toBe(false);
  });

  it('shows an attendant outside the queue none of it', async () => {
    const from = phone();
    now = new Date('2026-11-27T23:00:00Z');
    const first = await inbound(t, single.id, { from, body: 'late' });
    const { token } = await t.createUser();
    expect((await t.call('GET', `/api/tickets/${first.id}`, { token })).status).toBe(403);
  });
});

describe('before a queue is chosen (connection with a menu)', () => {
  let menu: WhatsappDto;
  let openQueue: number;
  let closedQueue: number;

  beforeAll(async () => {
    openQueue = await createQueue(t, 'Always open desk');
    closedQueue = await createQueue(t, 'Closed desk');
    const never = { timeZone: 'America/Sao_Paulo', days: [], holidays: [] };
    expect((await t.call('PUT', `/api/queue/${closedQueue}`, { token: t.admin, body: { businessHours: never, outOfHoursMessage: 'The closed desk answers on Monday.' } })).status).toBe(200);
    menu = await connectedSimulator(t, { queueIds: [openQueue, closedQueue], greetingMessage: 'Choose:' });
  });

  it('uses the connection’s schedule, and still sends the menu', async () => {
    const res = await t.call<WhatsappDto>('PUT', `/api/whatsapp/${menu.id}`, { token: t.admin, body: { businessHours: office, outOfHoursMessage: 'The desk is closed.' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ businessHours: office, outOfHoursMessage: 'The desk is closed.' });
    const from = phone();
    now = new Date('2026-11-28T12:00:00Z'); // Saturday
    const first = await inbound(t, menu.id, { from, body: 'hello' });
    await vi.waitFor(async () => {
      const bodies = await sent(menu.id, from);
      expect(bodies[0]).toBe('The desk is closed.');
      expect(bodies[1]).toMatch(/^Choose:/);
    });
    expect((await ticket(first.id)).arrivedOutOfHours).toBe(true);
    // Choosing the closed queue in the same closed period: no second notice.
    await inbound(t, menu.id, { from, body: '2' });
    await vi.waitFor(async () => expect((await ticket(first.id)).queueId).toBe(closedQueue));
    await new Promise((r) => setTimeout(r, 200));
    expect(await sent(menu.id, from)).toHaveLength(2);
    await t.call('PUT', `/api/whatsapp/${menu.id}`, { token: t.admin, body: { businessHours: null } });
  });

  it('sends the chosen queue’s notice once the queue is chosen, when only the queue is closed', async () => {
    const from = phone();
    now = new Date('2026-11-30T10:00:00Z');
    const first = await inbound(t, menu.id, { from, body: 'hello' });
    await vi.waitFor(async () => expect((await sent(menu.id, from))[0]).toMatch(/^Choose:/));
    expect((await ticket(first.id)).arrivedOutOfHours).toBe(false);
    await inbound(t, menu.id, { from, body: '2' });
    await vi.waitFor(async () => expect(await sent(menu.id, from)).toEqual([expect.stringMatching(/^Choose:/), 'The closed desk answers on Monday.']));
    expect((await ticket(first.id)).arrivedOutOfHours).toBe(true);
  });

  it('sends nothing for the always-open queue', async () => {
    const from = phone();
    now = new Date('2026-11-30T10:00:00Z');
    await inbound(t, menu.id, { from, body: 'hello' });
    await vi.waitFor(async () => expect((await sent(menu.id, from))[0]).toMatch(/^Choose:/));
    const chosen = await inbound(t, menu.id, { from, body: '1' });
    await vi.waitFor(async () => expect((await ticket(chosen.id)).queueId).toBe(openQueue));
    await new Promise((r) => setTimeout(r, 200));
    expect(await sent(menu.id, from)).toHaveLength(1);
  });
});

describe('a queue’s own time zone and holidays', () => {
  // São Paulo (UTC−3), Monday to Friday 09:00–18:00, closed on Friday 2026-12-25.
  const saoPaulo = {
    timeZone: 'America/Sao_Paulo',
    days: [1, 2, 3, 4, 5].map((weekday) => ({ weekday, start: '09:00', end: '18:00' })),
    holidays: ['2026-12-25'],
  };
  let zoned: WhatsappDto;

  beforeAll(async () => {
    const queue = await createQueue(t, 'São Paulo office');
    const res = await t.call<QueueDto>('PUT', `/api/queue/${queue}`, { token: t.admin, body: { businessHours: saoPaulo, outOfHoursMessage: 'Fechado hoje.' } });
    expect(res.status).toBe(200);
    expect(res.body.businessHours).toEqual(saoPaulo);
    zoned = await connectedSimulator(t, { queueIds: [queue] });
  });

  it('reads the schedule on the zone’s wall clock, not the server’s nor UTC', async () => {
    // 11:30 UTC on a Thursday is 08:30 in São Paulo: closed there (open in UTC terms at 09:00–18:00).
    const early = phone();
    now = new Date('2026-12-03T11:30:00Z');
    const first = await inbound(t, zoned.id, { from: early, body: 'bom dia' });
    await vi.waitFor(async () => expect(await sent(zoned.id, early)).toEqual(['Fechado hoje.']));
    expect((await ticket(first.id)).arrivedOutOfHours).toBe(true);
    // 20:30 UTC is 17:30 there: open (closed in UTC terms).
    const late = phone();
    now = new Date('2026-12-03T20:30:00Z');
    const second = await inbound(t, zoned.id, { from: late, body: 'boa tarde' });
    await new Promise((r) => setTimeout(r, 200));
    expect(await sent(zoned.id, late)).toEqual([]);
    expect((await ticket(second.id)).arrivedOutOfHours).toBe(false);
  });

  it('is closed all day on a holiday of that zone, and sends one notice for the closed stretch around it', async () => {
    const from = phone();
    // Friday 2026-12-25 at 11:00 in São Paulo: a weekday's opening hours, but a holiday.
    now = new Date('2026-12-25T14:00:00Z');
    const first = await inbound(t, zoned.id, { from, body: 'feliz natal, vocês abrem?' });
    await vi.waitFor(async () => expect(await sent(zoned.id, from)).toEqual(['Fechado hoje.']));
    expect((await ticket(first.id)).arrivedOutOfHours).toBe(true);
    // The holiday, the weekend after it, and Monday 08:59 there are one closed period (it began Thursday 18:00): no second notice.
    now = new Date('2026-12-26T15:00:00Z');
    await inbound(t, zoned.id, { from, body: 'sábado?' });
    now = new Date('2026-12-28T11:59:00Z');
    await inbound(t, zoned.id, { from, body: 'segunda cedo' });
    await new Promise((r) => setTimeout(r, 200));
    expect(await sent(zoned.id, from)).toHaveLength(1);
    // The Thursday before, at 11:00 there, was open: a contact writing then gets nothing.
    const before = phone();
    now = new Date('2026-12-24T14:00:00Z');
    await inbound(t, zoned.id, { from: before, body: 'véspera' });
    await new Promise((r) => setTimeout(r, 200));
    expect(await sent(zoned.id, before)).toEqual([]);
  });
});
