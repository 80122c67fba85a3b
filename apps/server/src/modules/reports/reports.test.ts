import type { AttendantsReport, DailyReport, QueuesReport, ReportFigures } from '@wadesk/contracts';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { contacts, messages, queues, tickets, whatsapps } from '../../db/schema.js';
import { createQueue, queryRows } from '../../test/desk-factories.js';
import { isOpenAt } from '../queues/business-hours.js';
import { useTestApp } from '../../test/test-app.js';
import { ReportsService } from './reports.service.js';

const t = useTestApp({ admin: true });

const SP = 'America/Sao_Paulo';
const at = (iso: string) => new Date(iso);
const plus = (iso: string, seconds: number) => new Date(Date.parse(iso) + seconds * 1000);

let seq = 0;
let whatsappId = 0;

/** A ticket of its own contact, created at `createdAt`, assigned and queued as given. */
async function ticket(input: { createdAt: Date; userId: number | null; queueId: number | null; status?: string }): Promise<number> {
  seq += 1;
  const db = t.app.database.db;
  const [contact] = await db.insert(contacts).values({ name: `Report contact ${seq}`, number: `5511977${String(seq).padStart(6, '0')}` }).returning({ id: contacts.id });
  const [row] = await db
    .insert(tickets)
    .values({ contactId: contact!.id, whatsappId, userId: input.userId, queueId: input.queueId, status: input.status ?? 'open', createdAt: input.createdAt, updatedAt: input.createdAt })
    .returning({ id: tickets.id });
  return row!.id;
}

/** A message in a ticket: an attendant's by default. */
async function message(
  ticketId: number,
  createdAt: Date,
  input: { userId?: number | null; senderKind?: string; private?: boolean; origin?: string | null } = {},
): Promise<void> {
  seq += 1;
  const senderKind = input.senderKind ?? 'user';
  await t.app.database.db.insert(messages).values({
    channelMessageId: `REPORT${seq}`,
    whatsappId,
    ticketId,
    body: `message ${seq}`,
    fromMe: senderKind !== 'contact',
    senderKind,
    sentByUserId: input.userId ?? null,
    private: input.private ?? false,
    origin: input.origin ?? null,
    createdAt,
    updatedAt: createdAt,
  });
}

/** Closes a ticket the way the services do: status and updated_at in one statement (the trigger keeps resolved_at). */
async function close(ticketId: number, when: Date): Promise<void> {
  await t.app.database.db.update(tickets).set({ status: 'closed', updatedAt: when }).where(eq(tickets.id, ticketId));
}

async function rate(ticketId: number, rating: number, when: Date): Promise<void> {
  await t.app.database.db.update(tickets).set({ csatRating: rating, csatAt: when }).where(eq(tickets.id, ticketId));
}

const query = (params: Record<string, string>) => new URLSearchParams(params).toString();
const PERIOD = { from: '2026-03-02', to: '2026-03-03', timeZone: SP };

/**
 * The crafted week (São Paulo, UTC−3 all year): attendant A works in Sales (always open), attendant B in Support
 * (Mon–Fri 09:00–18:00). Figures are checked exactly: medians and p90 interpolate (percentile_cont).
 */
describe('reports (issue 36 §6)', () => {
  let sales = 0;
  let support = 0;
  let a: { id: number; token: string };
  let b: { id: number; token: string };
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    const db = t.app.database.db;
    const [w] = await db.insert(whatsapps).values({ name: 'Reports', channel: 'simulator', status: 'DISCONNECTED' }).returning({ id: whatsapps.id });
    whatsappId = w!.id;
    sales = await createQueue(t, 'Report sales');
    support = await createQueue(t, 'Report support');
    await db
      .update(queues)
      .set({ businessHours: { timeZone: SP, days: [1, 2, 3, 4, 5].map((weekday) => ({ weekday, start: '09:00', end: '18:00' })), holidays: [] } })
      .where(eq(queues.id, support));
    const ua = await t.createUser({ name: 'Ana Report', queueIds: [sales] });
    const ub = await t.createUser({ name: 'Bruno Report', queueIds: [support] });
    a = { id: ua.user.id, token: ua.token };
    b = { id: ub.user.id, token: ub.token };

    // A: four tickets created Monday 2026-03-02 12:00Z; first replies after 60, 120, 180 and 600 s; three resolved
    // after 600, 1200 and 1800 s.
    const created = '2026-03-02T12:00:00Z';
    const frt = [60, 120, 180, 600];
    const resolution = [600, 1200, 1800, null];
    for (let i = 0; i < 4; i += 1) {
      const id = await ticket({ createdAt: at(created), userId: a.id, queueId: sales });
      ids[`a${i + 1}`] = id;
      await message(id, plus(created, 10), { senderKind: 'contact' });
      // A note and an automatic greeting before the reply are not a response.
      await message(id, plus(created, 20), { userId: a.id, private: true });
      await message(id, plus(created, 30), { senderKind: 'auto' });
      await message(id, plus(created, frt[i]!), { userId: a.id });
      if (resolution[i] !== null) await close(id, plus(created, resolution[i]!));
    }
    // A second message in the first ticket, a bulk send (not typed by A), and one late on Tuesday in São Paulo
    // (2026-03-04T02:00Z is 23:00 on the 3rd there, the 4th in UTC).
    await message(ids.a1!, plus(created, 90), { userId: a.id });
    await message(ids.a2!, plus(created, 95), { userId: a.id, origin: 'campaign' });
    await message(ids.a4!, at('2026-03-04T02:00:00Z'), { userId: a.id });
    // Outside the period: Thursday.
    await message(ids.a4!, at('2026-03-05T15:00:00Z'), { userId: a.id });
    // Ratings: 5 and 4 in the period, 1 after it.
    await rate(ids.a1!, 5, plus(created, 700));
    await rate(ids.a2!, 4, plus(created, 1300));
    await rate(ids.a3!, 1, at('2026-03-06T12:00:00Z'));

    // B: a ticket that came Monday at 17:00 in São Paulo (20:00Z), answered Tuesday at 09:30 (12:30Z): one hour and a
    // half of open time, though 16.5 hours passed.
    const late = await ticket({ createdAt: at('2026-03-02T20:00:00Z'), userId: b.id, queueId: support });
    ids.b1 = late;
    await message(late, at('2026-03-02T20:00:05Z'), { senderKind: 'contact' });
    await message(late, at('2026-03-03T12:30:00Z'), { userId: b.id });
  });

  const figures = (f: Partial<ReportFigures>): ReportFigures => ({
    ticketsHandled: 0,
    ticketsResolved: 0,
    firstResponse: { median: null, p90: null, count: 0 },
    resolution: { median: null, p90: null, count: 0 },
    messagesSent: 0,
    csat: { average: null, count: 0 },
    ...f,
  });

  const A_FIGURES = figures({
    ticketsHandled: 4,
    ticketsResolved: 3,
    // [60, 120, 180, 600]: median 150; p90 at 2.7 → 180 + 0.7 × 420 = 474.
    firstResponse: { median: 150, p90: 474, count: 4 },
    // [600, 1200, 1800]: median 1200; p90 at 1.8 → 1200 + 0.8 × 600 = 1680.
    resolution: { median: 1200, p90: 1680, count: 3 },
    // Four replies, the second in the first ticket and the late one: not the notes, the greeting or the bulk send.
    messagesSent: 6,
    csat: { average: 4.5, count: 2 },
  });
  const B_FIGURES = figures({ ticketsHandled: 1, firstResponse: { median: 5400, p90: 5400, count: 1 }, messagesSent: 1 });

  it('keeps first_response_at (not notes, greetings or bulk sends) and resolved_at by the database', async () => {
    const rows = await queryRows<{ id: number; first_response_at: Date; resolved_at: Date | null }>(
      t,
      sql`select id, first_response_at, resolved_at from tickets where id in (${ids.a1}, ${ids.a4}, ${ids.b1}) order by id`,
    );
    expect(rows.map((r) => [new Date(r.first_response_at).toISOString(), r.resolved_at && new Date(r.resolved_at).toISOString()])).toEqual([
      ['2026-03-02T12:01:00.000Z', '2026-03-02T12:10:00.000Z'],
      ['2026-03-02T12:10:00.000Z', null],
      ['2026-03-03T12:30:00.000Z', null],
    ]);
  });

  it('gives admins every attendant with exact medians and p90s, open time only where the queue keeps business hours', async () => {
    const res = await t.call<AttendantsReport>('GET', `/api/reports/attendants?${query(PERIOD)}`, { token: t.admin });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.period).toEqual({ ...PERIOD, start: '2026-03-02T03:00:00.000Z', end: '2026-03-04T03:00:00.000Z' });
    const byName = Object.fromEntries(res.body.rows.map(({ user, ...f }) => [user.name, f]));
    expect(byName['Ana Report']).toEqual(A_FIGURES);
    expect(byName['Bruno Report']).toEqual(B_FIGURES);
    // Everyone is listed, with or without work in the period.
    const admin = (await t.login()).user;
    expect(byName[admin.name]).toEqual(figures({}));
  });

  it('reads the days in the viewer’s time zone: the late message is Tuesday in São Paulo, Wednesday in UTC', async () => {
    const utc = await t.call<AttendantsReport>('GET', `/api/reports/attendants?${query({ ...PERIOD, timeZone: 'UTC' })}`, { token: t.admin });
    expect(utc.body.rows.find((r) => r.user.id === a.id)!.messagesSent).toBe(5);
    const header = await t.call<AttendantsReport>('GET', `/api/reports/attendants?${query({ from: PERIOD.from, to: PERIOD.to })}`, {
      token: t.admin,
      headers: { 'x-time-zone': SP },
    });
    expect(header.body.rows.find((r) => r.user.id === a.id)!.messagesSent).toBe(6);
  });

  it('sums per queue for admins and narrows every report to the chosen queues', async () => {
    const res = await t.call<QueuesReport>('GET', `/api/reports/queues?${query(PERIOD)}`, { token: t.admin });
    expect(res.status).toBe(200);
    const byId = new Map(res.body.rows.map(({ queue, ...f }) => [queue?.id ?? null, f]));
    expect(byId.get(sales)).toEqual(A_FIGURES);
    expect(byId.get(support)).toEqual(B_FIGURES);
    const only = await t.call<QueuesReport>('GET', `/api/reports/queues?${query({ ...PERIOD, queueIds: JSON.stringify([support]) })}`, { token: t.admin });
    expect(only.body.rows.map((r) => r.queue?.id)).toEqual([support]);
    // The same list written as the parameter repeated.
    const repeated = await t.call<QueuesReport>('GET', `/api/reports/queues?${query(PERIOD)}&queueIds=${support}&queueIds=${sales}`, { token: t.admin });
    expect(repeated.body.rows.map((r) => r.queue?.id).sort()).toEqual([sales, support].sort());
    const narrowed = await t.call<AttendantsReport>('GET', `/api/reports/attendants?${query({ ...PERIOD, queueIds: JSON.stringify([support]) })}`, { token: t.admin });
    const rows = Object.fromEntries(narrowed.body.rows.map(({ user, ...f }) => [user.id, f]));
    expect(rows[a.id]).toEqual(figures({}));
    expect(rows[b.id]).toEqual(B_FIGURES);
  });

  it('charts every day of the period, empty days too', async () => {
    const res = await t.call<DailyReport>('GET', `/api/reports/daily?${query({ ...PERIOD, to: '2026-03-05' })}`, { token: t.admin });
    expect(res.status).toBe(200);
    expect(res.body.rows.map((r) => r.day)).toEqual(['2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05']);
    const [mon, tue, wed, thu] = res.body.rows;
    expect(mon).toMatchObject({ ticketsHandled: 4, ticketsResolved: 3, messagesSent: 5, csat: { average: 4.5, count: 2 } });
    expect(mon!.firstResponse).toEqual({ median: 150, p90: 474, count: 4 });
    // Tuesday: A's late message and B's reply (after 5400 s of open time).
    expect(tue).toMatchObject({ ticketsHandled: 2, messagesSent: 2, firstResponse: { median: 5400, p90: 5400, count: 1 } });
    expect(wed).toEqual({ day: '2026-03-04', ...figures({}) });
    expect(thu).toMatchObject({ messagesSent: 1, ticketsHandled: 1 });
  });

  it("gives an attendant their own line and their own days, and refuses them the queues' sums", async () => {
    const mine = await t.call<AttendantsReport>('GET', `/api/reports/attendants?${query(PERIOD)}`, { token: a.token });
    expect(mine.status).toBe(200);
    expect(mine.body.rows).toEqual([{ user: { id: a.id, name: 'Ana Report' }, ...A_FIGURES }]);
    const days = await t.call<DailyReport>('GET', `/api/reports/daily?${query(PERIOD)}`, { token: b.token });
    expect(days.body.rows.map((r) => r.messagesSent)).toEqual([0, 1]);
    const queuesReport = await t.call<{ error: string }>('GET', `/api/reports/queues?${query(PERIOD)}`, { token: a.token });
    expect(queuesReport.status).toBe(403);
    expect(queuesReport.body.error).toBe('ERR_NO_PERMISSION');
    // Another queue's filter shows an attendant nothing of it: their own work there is none.
    const other = await t.call<AttendantsReport>('GET', `/api/reports/attendants?${query({ ...PERIOD, queueIds: JSON.stringify([support]) })}`, { token: a.token });
    expect(other.body.rows).toEqual([{ user: { id: a.id, name: 'Ana Report' }, ...figures({}) }]);
  });

  it('takes the last 7 days up to today in the viewer’s zone by default (clock injected)', async () => {
    const service = new ReportsService(t.app.database.db, () => at('2026-03-03T02:30:00Z'));
    const admin = (await t.login()).user;
    // 02:30Z on the 3rd is still the 2nd in São Paulo.
    const report = await service.daily(admin, { timeZone: SP });
    expect(report.period).toMatchObject({ from: '2026-02-24', to: '2026-03-02', start: '2026-02-24T03:00:00.000Z', end: '2026-03-03T03:00:00.000Z' });
    expect(report.rows).toHaveLength(7);
    expect((await service.daily(admin, { timeZone: 'Asia/Tokyo' })).period.to).toBe('2026-03-03');
  });

  it('refuses a period that ends before it starts, is longer than 366 days or is not a day', async () => {
    const periods: Record<string, string>[] = [
      { from: '2026-03-05', to: '2026-03-01' },
      { from: '2025-01-01', to: '2026-03-01' },
      { from: '2026-02-30', to: '2026-03-01' },
      { from: '2026-03-01', to: '2026-03-02', timeZone: 'Mars/Olympus' },
    ];
    for (const params of periods) {
      const res = await t.call<{ error: string }>('GET', `/api/reports/attendants?${query(params)}`, { token: t.admin });
      expect(res.status, JSON.stringify(params)).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
    }
  });

  it('keeps the last resolution when a ticket is reopened, and takes a new one when it closes again', async () => {
    const id = await ticket({ createdAt: at('2026-04-01T10:00:00Z'), userId: a.id, queueId: sales });
    await close(id, at('2026-04-01T11:00:00Z'));
    await t.app.database.db.update(tickets).set({ status: 'open', updatedAt: at('2026-04-01T12:00:00Z') }).where(eq(tickets.id, id));
    const [reopened] = await queryRows<{ resolved_at: Date }>(t, sql`select resolved_at from tickets where id = ${id}`);
    expect(new Date(reopened!.resolved_at).toISOString()).toBe('2026-04-01T11:00:00.000Z');
    await close(id, at('2026-04-01T13:00:00Z'));
    const [closed] = await queryRows<{ resolved_at: Date }>(t, sql`select resolved_at from tickets where id = ${id}`);
    expect(new Date(closed!.resolved_at).toISOString()).toBe('2026-04-01T13:00:00.000Z');
  });
});

describe('business_seconds (migration 0020): the open time of a schedule between two instants', () => {
  const seconds = async (hours: unknown, from: string, to: string): Promise<number | null> => {
    const [row] = await queryRows<{ s: number | null }>(t, sql`select business_seconds(${hours === null ? null : JSON.stringify(hours)}::jsonb, ${from}::timestamptz, ${to}::timestamptz) as s`);
    return row!.s === null ? null : Number(row!.s);
  };
  const weekdays = (timeZone: string, holidays: string[] = []) => ({
    timeZone,
    days: [1, 2, 3, 4, 5].flatMap((weekday) => [
      { weekday, start: '09:00', end: '12:00' },
      { weekday, start: '13:00', end: '18:00' },
    ]),
    holidays,
  });

  it('counts every second without a schedule, and none backwards', async () => {
    expect(await seconds(null, '2026-03-02T10:00:00Z', '2026-03-02T11:00:30Z')).toBe(3630);
    expect(await seconds(weekdays('UTC'), '2026-03-02T11:00:00Z', '2026-03-02T10:00:00Z')).toBe(0);
  });

  it('skips lunch, nights, weekends and holidays', async () => {
    // Friday 17:00 to Monday 10:00 (UTC): one hour Friday, one Monday.
    expect(await seconds(weekdays('UTC'), '2026-03-06T17:00:00Z', '2026-03-09T10:00:00Z')).toBe(7200);
    // 11:30 to 13:30: half an hour before lunch, half after.
    expect(await seconds(weekdays('UTC'), '2026-03-02T11:30:00Z', '2026-03-02T13:30:00Z')).toBe(3600);
    // Monday a holiday: only Friday's hour.
    expect(await seconds(weekdays('UTC', ['2026-03-09']), '2026-03-06T17:00:00Z', '2026-03-09T10:00:00Z')).toBe(3600);
    // Closed all week: nothing.
    expect(await seconds({ timeZone: 'UTC', days: [], holidays: [] }, '2026-03-02T00:00:00Z', '2026-03-09T00:00:00Z')).toBe(0);
  });

  it("reads the intervals on the schedule's wall clock, across a daylight-saving change", async () => {
    // New York springs forward on Sunday 2026-03-08: 09:00 is 14:00Z on Friday the 6th, 13:00Z on Monday the 9th.
    expect(await seconds(weekdays('America/New_York'), '2026-03-06T13:00:00Z', '2026-03-06T15:00:00Z')).toBe(3600);
    expect(await seconds(weekdays('America/New_York'), '2026-03-09T12:00:00Z', '2026-03-09T14:00:00Z')).toBe(3600);
    // A whole day to 24:00.
    expect(await seconds({ timeZone: 'Asia/Tokyo', days: [{ weekday: 2, start: '00:00', end: '24:00' }], holidays: [] }, '2026-03-02T00:00:00Z', '2026-03-05T00:00:00Z')).toBe(86400);
  });

  it('agrees with the open/closed rule of business hours (modules/queues/business-hours.ts), minute by minute', async () => {
    // A small deterministic generator: schedules of 1–2 intervals a weekday on whole quarter hours, spans of up to
    // three days starting on whole minutes, in zones with and without daylight saving (New York changes on 2026-03-08).
    let seed = 42;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const hhmm = (quarters: number) => `${String(Math.floor(quarters / 4)).padStart(2, '0')}:${String((quarters % 4) * 15).padStart(2, '0')}`;
    for (let round = 0; round < 6; round += 1) {
      const timeZone = ['America/Sao_Paulo', 'America/New_York', 'Asia/Kolkata'][round % 3]!;
      const days = [0, 1, 2, 3, 4, 5, 6].flatMap((weekday) => {
        const a = random(40);
        const b = a + 1 + random(20);
        const c = b + 1 + random(20);
        const d = c + 1 + random(96 - c - 1);
        return random(3) === 0 ? [] : [{ weekday, start: hhmm(a), end: hhmm(b) }, { weekday, start: hhmm(c), end: d >= 96 ? '24:00' : hhmm(d) }];
      });
      const hours = { timeZone, days, holidays: ['2026-03-09'] };
      const from = Date.parse('2026-03-05T00:00:00Z') + random(4 * 1440) * 60_000;
      const to = from + random(3 * 1440) * 60_000;
      let expected = 0;
      for (let at = from; at < to; at += 60_000) if (isOpenAt(hours, new Date(at))) expected += 60;
      expect(await seconds(hours, new Date(from).toISOString(), new Date(to).toISOString()), JSON.stringify({ hours, from, to })).toBe(expected);
    }
  });
});
