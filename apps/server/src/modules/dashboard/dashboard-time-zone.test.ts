import type { TicketDto } from '@wadesk/contracts';
import { eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { tickets, userQueues } from '../../db/schema.js';
import { connectedSimulator, createQueue, inbound, phoneNumbers } from '../../test/desk-factories.js';
import { useTestApp } from '../../test/test-app.js';

const t = useTestApp({ admin: true });
const phone = phoneNumbers(74100000, 17);

interface Dashboard {
  counts: { open: number; pending: number; closed: number };
  ticketsPerHour: { hour: string; count: number }[];
}

/**
 * Issue 32 §5: the dashboard's "today" and hours, and the `date=` filters, are the viewer's (X-Time-Zone), not the
 * server's; the counters count the viewer's queues (admins too), with a queue filter.
 */
describe("the viewer's day and queues", () => {
  let conn: { id: number };
  beforeAll(async () => {
    conn = await connectedSimulator(t);
  });

  const bars = (d: Dashboard) => Object.fromEntries(d.ticketsPerHour.filter((s) => s.count > 0).map((s) => [s.hour, s.count]));

  it('charts today by the hours of the viewer, whatever the server and database zones', async () => {
    // 21:30 UTC on 2026-11-26 is 18:30 in São Paulo (UTC-3) the same day, and 06:30 on the 27th in Tokyo (UTC+9).
    const ticket = await inbound(t, conn.id, { from: phone(), body: 'viewer zone' });
    await t.app.database.db.update(tickets).set({ createdAt: new Date('2026-11-26T21:30:00Z') }).where(eq(tickets.id, ticket.id));
    const admin = (await t.login()).user;
    const now = new Date('2026-11-26T22:00:00Z');
    const saoPaulo = await t.app.services.tickets.dashboard(admin, { timeZone: 'America/Sao_Paulo' }, now);
    expect(bars(saoPaulo)).toEqual({ '18:00': 1 });
    // In Tokyo it is already the 27th at 07:00, and the ticket came at 06:30 that day: before the first slot.
    const tokyo = await t.app.services.tickets.dashboard(admin, { timeZone: 'Asia/Tokyo' }, now);
    expect(bars(tokyo)).toEqual({});
    await t.app.database.db.delete(tickets).where(eq(tickets.id, ticket.id));
  });

  it('takes the zone from X-Time-Zone and refuses one that is not an IANA name', async () => {
    const ok = await t.call<Dashboard>('GET', '/api/dashboard', { token: t.admin, headers: { 'x-time-zone': 'America/Sao_Paulo' } });
    expect(ok.status).toBe(200);
    expect(ok.body.ticketsPerHour).toHaveLength(12);
    for (const zone of ['Mars/Olympus', 'x; drop table', 'a'.repeat(80)]) {
      const bad = await t.call<{ error: string }>('GET', '/api/dashboard', { token: t.admin, headers: { 'x-time-zone': zone } });
      expect(bad.status, zone).toBe(400);
      expect(bad.body.error).toBe('ERR_VALIDATION');
    }
  });

  it("filters tickets by the viewer's day: a date or an instant, read in the viewer's zone", async () => {
    const ticket = await inbound(t, conn.id, { from: phone(), body: 'date filter' });
    await t.app.database.db.update(tickets).set({ createdAt: new Date('2026-11-26T23:30:00Z') }).where(eq(tickets.id, ticket.id));
    const ids = async (date: string, zone: string) =>
      (
        await t.call<{ tickets: TicketDto[] }>('GET', `/api/tickets?showAll=true&date=${encodeURIComponent(date)}`, { token: t.admin, headers: { 'x-time-zone': zone } })
      ).body.tickets.map((x) => x.id);
    // 23:30 UTC on the 26th: the 26th in São Paulo (20:30), the 27th in Tokyo (08:30).
    expect(await ids('2026-11-26', 'America/Sao_Paulo')).toContain(ticket.id);
    expect(await ids('2026-11-26', 'Asia/Tokyo')).not.toContain(ticket.id);
    expect(await ids('2026-11-27', 'Asia/Tokyo')).toContain(ticket.id);
    // whaticket's client sends an instant: 2026-11-27T01:00Z is still the 26th in São Paulo.
    expect(await ids('2026-11-27T01:00:00.000Z', 'America/Sao_Paulo')).toContain(ticket.id);
    expect(await ids('2026-11-27T01:00:00.000Z', 'Asia/Tokyo')).toContain(ticket.id);
    expect(await ids('2026-11-26T12:00:00.000Z', 'Asia/Tokyo')).not.toContain(ticket.id);
    await t.app.database.db.delete(tickets).where(eq(tickets.id, ticket.id));
  });

  it("counts the viewer's queues by default, admins too, and the queues chosen on the page", async () => {
    const sales = await createQueue(t, `Sales ${Date.now()}`);
    const support = await createQueue(t, `Support ${Date.now()}`);
    const a = await inbound(t, conn.id, { from: phone(), body: 'sales' });
    const b = await inbound(t, conn.id, { from: phone(), body: 'support' });
    await t.app.database.db.update(tickets).set({ queueId: sales, status: 'pending' }).where(eq(tickets.id, a.id));
    await t.app.database.db.update(tickets).set({ queueId: support, status: 'pending' }).where(eq(tickets.id, b.id));
    const admin = (await t.login()).user;
    await t.app.database.db.insert(userQueues).values({ userId: admin.id, queueId: sales });
    try {
      const pending = async (query = '') => (await t.call<Dashboard>('GET', `/api/dashboard${query}`, { token: t.admin })).body.counts.pending;
      const everything = await pending(`?queueIds=${encodeURIComponent(JSON.stringify([sales, support]))}`);
      const mine = await pending();
      const onlySupport = await pending(`?queueIds=${encodeURIComponent(JSON.stringify([support]))}`);
      // The admin's own queue (Sales) by default: the Support ticket is not counted; with both chosen it is.
      expect(everything - mine).toBe(1);
      expect(everything - onlySupport).toBe(1);
    } finally {
      await t.app.database.db.delete(userQueues).where(eq(userQueues.userId, admin.id));
      await t.app.database.db.delete(tickets).where(inArray(tickets.id, [a.id, b.id]));
    }
  });
});
