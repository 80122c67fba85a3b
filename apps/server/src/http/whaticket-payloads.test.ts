import { dayOfInstant, type TicketDto, type UserDto, type WhatsappDto } from '@wadesk/contracts';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { tickets } from '../db/schema.js';
import { zonedInstant } from '../modules/queues/business-hours.js';
import { serverTimeZone } from '../modules/tickets/tickets.service.js';
import { connectedSimulator, inbound } from '../test/desk-factories.js';
import { useTestApp } from '../test/test-app.js';

/** Payloads that whaticket's own client (the specification's §7 client) sends, accepted as it sends them (issue 32 §4). */

const t = useTestApp({ admin: true });
let connection: WhatsappDto;

/**
 * whaticket's client sends no X-Time-Zone, so an instant names its day in the server's zone (decision 0007, issue 32
 * §5): the process's own `TZ` here, whatever it is (the viewer's zone is tested in dashboard-time-zone.test.ts).
 */
const serverDayOf = (iso: string): string => dayOfInstant(new Date(iso), serverTimeZone());
/** The calendar day after `day` (YYYY-MM-DD). */
const dayAfter = (day: string): string => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  connection = await connectedSimulator(t, { name: 'Compat' });
});

describe('users: whatsappId false, null or "" is no connection', () => {
  it('creates a user with each of them', async () => {
    for (const [i, whatsappId] of [false, null, ''].entries()) {
      const res = await t.call<UserDto>('POST', '/api/users', {
        token: t.admin,
        body: { name: `Compat ${i}`, email: `compat-${i}@test.local`, password: 'secret-pass', profile: 'user', whatsappId, queueIds: [] },
      });
      expect(res.status, JSON.stringify(whatsappId)).toBe(201);
      expect(res.body).toMatchObject({ whatsappId: null, whatsapp: null });
    }
    // Nothing else passes for none: true, 0 and other non-ids are still refused.
    for (const whatsappId of [true, 0, 'abc']) {
      const res = await t.call('POST', '/api/users', {
        token: t.admin,
        body: { name: 'Compat bad', email: `compat-bad-${String(whatsappId)}@test.local`, password: 'secret-pass', whatsappId },
      });
      expect(res.status, JSON.stringify(whatsappId)).toBe(400);
    }
  });

  it('takes the connection away on edit with each of them', async () => {
    const created = await t.call<UserDto>('POST', '/api/users', {
      token: t.admin,
      body: { name: 'Compat edit', email: 'compat-edit@test.local', password: 'secret-pass', whatsappId: connection.id },
    });
    expect(created.body.whatsappId).toBe(connection.id);
    for (const whatsappId of [false, '', null]) {
      await t.call('PUT', `/api/users/${created.body.id}`, { token: t.admin, body: { whatsappId: connection.id } });
      const res = await t.call<UserDto>('PUT', `/api/users/${created.body.id}`, { token: t.admin, body: { name: 'Compat edit', whatsappId } });
      expect(res.status, JSON.stringify(whatsappId)).toBe(200);
      expect(res.body.whatsappId).toBeNull();
    }
    // An attendant saving their own profile from that client sends the same false: nothing changes, nothing refused.
    const attendant = await t.createUser({ name: 'Compat attendant' });
    const own = await t.call<UserDto>('PUT', `/api/users/${attendant.user.id}`, { token: attendant.token, body: { name: 'Compat renamed', whatsappId: false } });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ name: 'Compat renamed', whatsappId: null });
  });
});

describe('GET /api/tickets?date=', () => {
  it('takes an ISO date-time as whaticket sends it: the tickets created on that day', async () => {
    const sent = '2026-11-26T21:27:20.885Z'; // new Date().toISOString() in whaticket's client
    const day = serverDayOf(sent);
    const ticket = await inbound(t, connection.id, { from: '5511977770001', body: 'oi' });
    const noonOfThatDay = zonedInstant(day, 12 * 60, serverTimeZone());
    await t.app.database.db.update(tickets).set({ createdAt: noonOfThatDay }).where(eq(tickets.id, ticket.id));
    const byDay = await t.call<{ tickets: TicketDto[] }>('GET', `/api/tickets?showAll=true&date=${day}`, { token: t.admin });
    const byInstant = await t.call<{ tickets: TicketDto[] }>('GET', `/api/tickets?showAll=true&date=${encodeURIComponent(sent)}`, { token: t.admin });
    expect(byInstant.status).toBe(200);
    expect(byInstant.body.tickets.map((x) => x.id)).toEqual([ticket.id]);
    expect(byInstant.body).toEqual(byDay.body);
    // Ten minutes into the next day of the server's zone: another day, no ticket.
    const nextDay = zonedInstant(dayAfter(day), 10, serverTimeZone()).toISOString();
    const otherDay = await t.call<{ tickets: TicketDto[] }>('GET', `/api/tickets?showAll=true&date=${encodeURIComponent(nextDay)}`, { token: t.admin });
    expect(otherDay.status).toBe(200);
    expect(otherDay.body.tickets).toEqual([]);
    // What is not a day is still refused.
    for (const date of ['2026-13-45T00:00:00Z', '26/11/2026', 'yesterday', '2026-11-26T25:00:00Z']) {
      const res = await t.call('GET', `/api/tickets?date=${encodeURIComponent(date)}`, { token: t.admin });
      expect(res.status, date).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
    }
  });
});

describe('the send API', () => {
  it('takes dataEnvio as YYYY-MM-DD, dd/MM/yyyy or an ISO date-time', async () => {
    const sent = '2026-11-26T21:27:20.885Z';
    for (const [dataEnvio, day] of [
      ['2026-11-26', '2026-11-26'],
      ['26/11/2026', '2026-11-26'],
      [sent, serverDayOf(sent)],
    ] as const) {
      const res = await t.call('POST', '/api/sendAgendamento', { token: t.admin, body: { dataEnvio, ticketwhatsappId: connection.id } });
      expect(res.status, dataEnvio).toBe(202);
      expect(res.body).toMatchObject({ dataEnvio: day, whatsappId: connection.id, count: 0 });
    }
    for (const dataEnvio of ['31/02/2026', '2026/11/26', '11/26/2026', '']) {
      const res = await t.call('POST', '/api/sendAgendamento', { token: t.admin, body: { dataEnvio } });
      expect(res.status, dataEnvio).toBe(400);
    }
  });

  it('takes protocolo as a number or a string', async () => {
    const ticket = await inbound(t, connection.id, { from: '5511977770002', body: 'oi' });
    const asNumber = await t.call('POST', '/api/zdgProtocolo', { token: t.admin, body: { usuario: 'Ana', protocolo: 20261126001, ticket: ticket.id } });
    expect(asNumber.status).toBe(200);
    expect(asNumber.body).toEqual({ ticket: ticket.id, protocolo: '20261126001' });
    const asString = await t.call('POST', '/api/zdgProtocolo', { token: t.admin, body: { protocolo: 'ABC-2026', ticket: String(ticket.id) } });
    expect(asString.body).toEqual({ ticket: ticket.id, protocolo: 'ABC-2026' });
    for (const protocolo of [1.5, -3, true, '']) {
      const res = await t.call('POST', '/api/zdgProtocolo', { token: t.admin, body: { protocolo, ticket: ticket.id } });
      expect(res.status, JSON.stringify(protocolo)).toBe(400);
    }
  });
});
