import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MessagesPageDto, ScheduleDto, ScheduleListResponse, WhatsappDto } from '@wadesk/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectedSimulator, inbound, outbox, phoneNumbers } from '../../test/desk-factories.js';
import { eventually } from '../../test/session-helpers.js';
import { useTestApp } from '../../test/test-app.js';
import { serverTimeZone } from '../tickets/tickets.service.js';

// A due schedule whose connection is down fails at once here (the wait for a reconnect is the default elsewhere).
// Files for the media schedules come from a loopback server.
const t = useTestApp({ admin: true, user: true, config: { scheduleConnectionWaitMs: 0, mediaFetchAllowPrivate: true } });
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
let files: Server;
let filesUrl = '';
const nextNumber = phoneNumbers(81_000, 1);
let connection: WhatsappDto;
let apiToken = '';

beforeAll(async () => {
  files = createServer((req, res) => {
    if (req.url === '/cardapio.png') {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': PNG.length });
      res.end(PNG);
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not here');
    }
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
  connection = await connectedSimulator(t, { name: 'Agenda' });
  const settings = await t.call<{ key: string; value: string }[]>('GET', '/api/settings', { token: t.admin });
  apiToken = settings.body.find((s) => s.key === 'userApiToken')!.value;
});

afterAll(async () => {
  await new Promise((resolve) => files.close(resolve));
});

const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();
/** The day of `iso` in the server's time zone, YYYY-MM-DD (the `dataEnvio` and `date` days). */
const serverDay = (iso: string) => new Intl.DateTimeFormat('en-CA', { timeZone: serverTimeZone(), year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(iso));

async function schedule(body: Record<string, unknown>, token = t.admin): Promise<ScheduleDto> {
  const res = await t.call<ScheduleDto>('POST', '/api/schedules', { token, body: { whatsappId: connection.id, ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

async function settled(id: number, ms = 15_000): Promise<ScheduleDto> {
  return eventually(async () => {
    const res = await t.call<ScheduleDto>('GET', `/api/schedules/${id}`, { token: t.admin });
    return res.body.status !== 'scheduled' && res.body.status !== 'sending' ? res.body : null;
  }, ms, `schedule ${id} settled`);
}

async function contactWithTicket(name: string) {
  const number = nextNumber();
  const ticket = await inbound(t, connection.id, { from: number, body: 'Oi', name });
  return { number, ticket };
}

describe('scheduled messages (issue 14)', () => {
  it("sends a message at its time into the contact's ticket, as the attendant who scheduled it typed it", async () => {
    const { number, ticket } = await contactWithTicket('Cliente Agendado');
    const socket = await t.socket(t.admin);
    const events: { action: string; schedule: ScheduleDto }[] = [];
    socket.on('schedule', (e: { action: string; schedule: ScheduleDto }) => events.push(e));
    const sendAt = inMs(1500);
    const created = await schedule({ contactId: ticket.contact.id, body: 'Lembrete: sua consulta é amanhã', sendAt });
    expect(created).toMatchObject({ status: 'scheduled', contactId: ticket.contact.id, number, sendAt, late: false, messageId: null });
    expect((await outbox(t, connection.id, number)).filter((e) => e.body.startsWith('Lembrete'))).toEqual([]);

    const sent = await settled(created.id);
    expect(sent).toMatchObject({ status: 'sent', ticketId: ticket.id, late: false, error: null });
    // Within 5 s of its time, not before it.
    const delay = Date.parse(sent.sentAt!) - Date.parse(sendAt);
    expect(delay).toBeGreaterThanOrEqual(0);
    expect(delay).toBeLessThan(5000);
    expect((await outbox(t, connection.id, number)).map((e) => e.body)).toEqual(['Lembrete: sua consulta é amanhã']);
    const page = await t.call<MessagesPageDto>('GET', `/api/messages/${ticket.id}`, { token: t.admin });
    const message = page.body.messages.find((m) => m.id === sent.messageId);
    expect(message).toMatchObject({ body: 'Lembrete: sua consulta é amanhã', fromMe: true });
    await eventually(async () => events.some((e) => e.schedule.id === created.id && e.schedule.status === 'sent'), 5000, 'sent event');
    expect(events.find((e) => e.schedule.id === created.id)).toMatchObject({ action: 'create', schedule: { status: 'scheduled' } });
    socket.disconnect();
  });

  it('records a message to a number nobody wrote from yet in a closed conversation, which the answer reopens (decision 0029)', async () => {
    const number = nextNumber();
    const me = await t.createUser({ name: 'Agendadora' });
    const created = await schedule({ number: `+${number}`, body: 'Primeiro contato', sendAt: inMs(800) }, me.token);
    expect(created).toMatchObject({ contactId: null, number });
    const sent = await settled(created.id);
    expect(sent.status).toBe('sent');
    const ticket = (await t.app.services.tickets.loadMany([sent.ticketId!]))[0]!;
    // In nobody's Inbox or Queue: closed, without attendant or queue.
    expect(ticket).toMatchObject({ status: 'closed', userId: null, queueId: null, whatsappId: connection.id });
    expect(ticket.contact.number).toBe(number);
    expect((await outbox(t, connection.id, number)).map((e) => e.body)).toEqual(['Primeiro contato']);
    const page = await t.call<MessagesPageDto>('GET', `/api/messages/${ticket.id}`, { token: t.admin });
    expect(page.body.messages.find((m) => m.id === sent.messageId)).toMatchObject({ fromMe: true, origin: 'schedule', originId: created.id });

    const answered = await inbound(t, connection.id, { from: number, body: 'Oi, recebi' });
    expect(answered).toMatchObject({ id: ticket.id, status: 'pending' });
    const after = await t.call<MessagesPageDto>('GET', `/api/messages/${ticket.id}`, { token: t.admin });
    expect(after.body.messages.slice(-2).map((m) => [m.body, m.fromMe])).toEqual([
      ['Primeiro contato', true],
      ['Oi, recebi', false],
    ]);
  });

  it('sends a file by URL with the text as its caption; a file that cannot be fetched fails with the reason', async () => {
    const { number, ticket } = await contactWithTicket('Com Arquivo');
    const withFile = await schedule({ contactId: ticket.contact.id, body: 'Cardápio da semana', mediaUrl: `${filesUrl}/cardapio.png`, sendAt: inMs(600) });
    const sent = await settled(withFile.id);
    expect(sent.status).toBe('sent');
    const page = await t.call<MessagesPageDto>('GET', `/api/messages/${ticket.id}`, { token: t.admin });
    expect(page.body.messages.find((m) => m.id === sent.messageId)).toMatchObject({ mediaType: 'image', body: 'Cardápio da semana', fromMe: true });
    expect((await outbox(t, connection.id, number)).map((e) => e.mediaType)).toEqual(['image']);

    const missing = await schedule({ contactId: ticket.contact.id, mediaUrl: `${filesUrl}/sumiu.png`, sendAt: inMs(600) });
    const failed = await settled(missing.id);
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/404/);
    expect(await outbox(t, connection.id, number)).toHaveLength(1);
  });

  it('sends once when its job is delivered several times at once (the claim scheduled → sending decides)', async () => {
    const { number, ticket } = await contactWithTicket('Uma Vez');
    const created = await schedule({ contactId: ticket.contact.id, body: 'Só uma vez', sendAt: inMs(3600_000) });
    const { schedules } = t.app.services;
    const results = await Promise.all([1, 2, 3, 4].map(() => schedules.deliver({ scheduleId: created.id, version: 1 })));
    expect(results.filter((r) => r.outcome === 'sent')).toHaveLength(1);
    expect(results.filter((r) => r.outcome === 'stale')).toHaveLength(3);
    // The job queued for its time, delivered again later, finds it sent.
    expect(await schedules.deliver({ scheduleId: created.id, version: 1 })).toEqual({ scheduleId: created.id, outcome: 'stale' });
    expect((await outbox(t, connection.id, number)).filter((e) => e.body === 'Só uma vez')).toHaveLength(1);
  });

  it('makes the job of an edited or cancelled schedule harmless, and refuses to change one already sent with 409', async () => {
    const { number, ticket } = await contactWithTicket('Editado');
    const { schedules } = t.app.services;
    const edited = await schedule({ contactId: ticket.contact.id, body: 'Versão antiga', sendAt: inMs(3600_000) });
    const put = await t.call<ScheduleDto>('PUT', `/api/schedules/${edited.id}`, { token: t.admin, body: { body: 'Versão nova', sendAt: inMs(800) } });
    expect(put.status).toBe(200);
    expect(put.body.body).toBe('Versão nova');
    expect(await schedules.deliver({ scheduleId: edited.id, version: 1 })).toMatchObject({ outcome: 'stale' });
    expect((await settled(edited.id)).status).toBe('sent');
    expect((await outbox(t, connection.id, number)).map((e) => e.body)).toEqual(['Versão nova']);

    for (const [method, body] of [['PUT', { body: 'Tarde demais' }], ['DELETE', undefined]] as const) {
      const res = await t.call(method, `/api/schedules/${edited.id}`, { token: t.admin, body });
      expect(res.status).toBe(409);
      expect(res.body.error).toBe('ERR_SCHEDULE_STATE');
    }

    const cancelled = await schedule({ contactId: ticket.contact.id, body: 'Cancelada', sendAt: inMs(3600_000) });
    const del = await t.call<ScheduleDto>('DELETE', `/api/schedules/${cancelled.id}`, { token: t.admin });
    expect(del.status).toBe(200);
    expect(del.body.status).toBe('cancelled');
    for (const version of [1, 2]) expect(await schedules.deliver({ scheduleId: cancelled.id, version })).toMatchObject({ outcome: 'stale' });
    expect((await t.call('DELETE', `/api/schedules/${cancelled.id}`, { token: t.admin })).body.error).toBe('ERR_SCHEDULE_STATE');
    expect((await outbox(t, connection.id, number)).filter((e) => e.body === 'Cancelada')).toEqual([]);
  });

  it('fails with the reason when the connection is down at its time, and sends nothing', async () => {
    const down = await connectedSimulator(t, { name: 'Desligada' });
    const number = nextNumber();
    expect((await t.call('DELETE', `/api/whatsappsession/${down.id}`, { token: t.admin })).status).toBeLessThan(300);
    const created = await schedule({ whatsappId: down.id, number, body: 'Não vai', sendAt: inMs(500) });
    const failed = await settled(created.id);
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/Desligada is not connected \(DISCONNECTED\)/);
    expect(failed.messageId).toBeNull();
    expect(await outbox(t, down.id, number)).toEqual([]);
  });

  it("DISPARAR (POST /api/sendAgendamento) sends now that day's scheduled messages of that connection only", async () => {
    const other = await connectedSimulator(t, { name: 'Outra instância' });
    const [a, b, c] = [nextNumber(), nextNumber(), nextNumber()];
    const dayTime = inMs(2 * 24 * 3600_000);
    const thatDay = await schedule({ number: a, body: 'Do dia', sendAt: dayTime });
    const otherConnection = await schedule({ whatsappId: other.id, number: b, body: 'Outra conexão', sendAt: dayTime });
    const nextDay = await schedule({ number: c, body: 'Dia seguinte', sendAt: inMs(3 * 24 * 3600_000) });
    const dataEnvio = serverDay(dayTime);

    for (const body of [{ dataEnvio, ticketwhatsappId: connection.id }, { dataEnvio, token: 'wrong', ticketwhatsappId: connection.id }]) {
      const res = await t.call('POST', '/api/sendAgendamento', { body, ip: '10.14.0.1' });
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('ERR_INVALID_API_TOKEN');
    }
    expect((await t.call('POST', '/api/sendAgendamento', { token: t.user, body: { dataEnvio } })).status).toBe(403);
    // dd/MM/yyyy is a form it takes (issue 32 §4); a day that is not on the calendar is refused.
    expect((await t.call('POST', '/api/sendAgendamento', { body: { dataEnvio: '31/02/2026', token: apiToken } })).status).toBe(400);

    const fired = await t.call('POST', '/api/sendAgendamento', { body: { dataEnvio, token: apiToken, ticketwhatsappId: connection.id } });
    expect(fired.status).toBe(202);
    expect(fired.body).toEqual({ dataEnvio, whatsappId: connection.id, scheduleIds: [thatDay.id], count: 1 });
    expect(await settled(thatDay.id)).toMatchObject({ status: 'sent', late: false });
    expect((await outbox(t, connection.id, a)).map((e) => e.body)).toEqual(['Do dia']);
    for (const waiting of [otherConnection, nextDay]) {
      expect((await t.call<ScheduleDto>('GET', `/api/schedules/${waiting.id}`, { token: t.admin })).body.status).toBe('scheduled');
    }
    expect(await outbox(t, other.id, b)).toEqual([]);
    expect(await outbox(t, connection.id, c)).toEqual([]);
    for (const s of [otherConnection, nextDay]) await t.call('DELETE', `/api/schedules/${s.id}`, { token: t.admin });
  });

  it('refuses bad schedules with a clear code and stores nothing', async () => {
    const { ticket } = await contactWithTicket('Validação');
    const contactId = ticket.contact.id;
    const future = inMs(3600_000);
    const cases: [Record<string, unknown>, number, string][] = [
      [{ contactId, body: 'x', sendAt: inMs(-60_000) }, 400, 'ERR_SCHEDULE_IN_PAST'],
      [{ contactId, body: '', sendAt: future }, 400, 'ERR_SCHEDULE_EMPTY'],
      [{ contactId, body: '   ', sendAt: future }, 400, 'ERR_SCHEDULE_EMPTY'],
      [{ contactId: 999_999, body: 'x', sendAt: future }, 404, 'ERR_NO_CONTACT_FOUND'],
      [{ contactId, number: nextNumber(), body: 'x', sendAt: future }, 400, 'ERR_SCHEDULE_RECIPIENT'],
      [{ body: 'x', sendAt: future }, 400, 'ERR_SCHEDULE_RECIPIENT'],
      [{ number: 'abc', body: 'x', sendAt: future }, 400, 'ERR_WAPP_INVALID_CONTACT'],
      [{ number: '123', body: 'x', sendAt: future }, 400, 'ERR_WAPP_INVALID_CONTACT'],
      [{ contactId, body: 'x', sendAt: 'amanhã' }, 400, 'ERR_VALIDATION'],
      [{ contactId, body: 'x', sendAt: '2030-01-01T10:00:00' }, 400, 'ERR_VALIDATION'],
      [{ contactId, body: 'x' }, 400, 'ERR_VALIDATION'],
      [{ contactId, mediaUrl: 'ftp://example.com/a.jpg', sendAt: future }, 400, 'ERR_VALIDATION'],
      [{ contactId, body: 'x', sendAt: future, whatsappId: 999_999 }, 404, 'ERR_NO_WAPP_FOUND'],
    ];
    const before = (await t.call<ScheduleListResponse>('GET', '/api/schedules', { token: t.admin })).body.schedules.length;
    for (const [body, status, error] of cases) {
      const res = await t.call('POST', '/api/schedules', { token: t.admin, body: { whatsappId: connection.id, ...body } });
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.error, JSON.stringify(body)).toBe(error);
    }
    expect((await t.call<ScheduleListResponse>('GET', '/api/schedules', { token: t.admin })).body.schedules.length).toBe(before);
    const scheduled = await schedule({ contactId, body: 'x', sendAt: future });
    const put = await t.call('PUT', `/api/schedules/${scheduled.id}`, { token: t.admin, body: { sendAt: inMs(-1000) } });
    expect(put.body.error).toBe('ERR_SCHEDULE_IN_PAST');
    const emptied = await t.call('PUT', `/api/schedules/${scheduled.id}`, { token: t.admin, body: { body: '', mediaUrl: null } });
    expect(emptied.body.error).toBe('ERR_SCHEDULE_EMPTY');
    expect((await t.call('GET', '/api/schedules/abc', { token: t.admin })).status).toBe(400);
    expect((await t.call('GET', '/api/schedules?status=late', { token: t.admin })).status).toBe(400);
    expect((await t.call('GET', '/api/schedules?date=2026-02-30', { token: t.admin })).status).toBe(400);
    await t.call('DELETE', `/api/schedules/${scheduled.id}`, { token: t.admin });
  });

  it("lets an attendant see and change only their own schedules, an admin every one; 401 without a session", async () => {
    const { ticket } = await contactWithTicket('Acesso');
    const ana = await t.createUser({ name: 'Ana' });
    const bia = await t.createUser({ name: 'Bia' });
    const anas = await schedule({ contactId: ticket.contact.id, body: 'Da Ana', sendAt: inMs(3600_000) }, ana.token);
    await schedule({ contactId: ticket.contact.id, body: 'Da Bia', sendAt: inMs(3600_000) }, bia.token);

    const anaList = await t.call<ScheduleListResponse>('GET', `/api/schedules?contactId=${ticket.contact.id}`, { token: ana.token });
    expect(anaList.body.schedules.map((s) => s.body)).toEqual(['Da Ana']);
    const adminList = await t.call<ScheduleListResponse>('GET', `/api/schedules?contactId=${ticket.contact.id}&status=scheduled`, { token: t.admin });
    expect(adminList.body.schedules.map((s) => s.body)).toEqual(['Da Ana', 'Da Bia']);
    for (const [method, body] of [['GET', undefined], ['PUT', { body: 'Roubado' }], ['DELETE', undefined]] as const) {
      const res = await t.call(method, `/api/schedules/${anas.id}`, { token: bia.token, body });
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('ERR_NO_SCHEDULE_FOUND');
    }
    expect((await t.call<ScheduleDto>('PUT', `/api/schedules/${anas.id}`, { token: t.admin, body: { body: 'Corrigido' } })).body.body).toBe('Corrigido');
    for (const [method, url] of [['GET', '/api/schedules'], ['POST', '/api/schedules'], ['PUT', `/api/schedules/${anas.id}`], ['DELETE', `/api/schedules/${anas.id}`]] as const) {
      expect((await t.call(method, url, { body: method === 'GET' ? undefined : {} })).status).toBe(401);
    }
    expect((await t.call<ScheduleDto>('DELETE', `/api/schedules/${anas.id}`, { token: ana.token })).body.status).toBe('cancelled');
  });

  it('lists by status, day (server time zone) and contact, 20 a page', async () => {
    const { ticket } = await contactWithTicket('Lista');
    const contactId = ticket.contact.id;
    const base = Date.now() + 5 * 24 * 3600_000;
    const made: ScheduleDto[] = [];
    for (let i = 0; i < 22; i += 1) made.push(await schedule({ contactId, body: `Mensagem ${i}`, sendAt: new Date(base + i * 1000).toISOString() }));
    const first = await t.call<ScheduleListResponse>('GET', `/api/schedules?contactId=${contactId}&status=scheduled`, { token: t.admin });
    expect(first.body.hasMore).toBe(true);
    expect(first.body.schedules.map((s) => s.id)).toEqual(made.slice(0, 20).map((s) => s.id));
    const second = await t.call<ScheduleListResponse>('GET', `/api/schedules?contactId=${contactId}&status=scheduled&pageNumber=2`, { token: t.admin });
    expect(second.body).toMatchObject({ hasMore: false });
    expect(second.body.schedules.map((s) => s.id)).toEqual(made.slice(20).map((s) => s.id));
    const day = serverDay(made[0]!.sendAt);
    const byDay = await t.call<ScheduleListResponse>('GET', `/api/schedules?contactId=${contactId}&date=${day}`, { token: t.admin });
    expect(byDay.body.schedules.every((s) => serverDay(s.sendAt) === day)).toBe(true);
    expect(byDay.body.schedules.length).toBeGreaterThan(0);
    const noneThatDay = await t.call<ScheduleListResponse>('GET', `/api/schedules?contactId=${contactId}&date=2001-01-01`, { token: t.admin });
    expect(noneThatDay.body.schedules).toEqual([]);
    expect((await t.call<ScheduleListResponse>('GET', `/api/schedules?contactId=${contactId}&status=sent`, { token: t.admin })).body.schedules).toEqual([]);
    for (const s of made) await t.call('DELETE', `/api/schedules/${s.id}`, { token: t.admin });
  });
});
