import type { HistoryImportAcceptedResponse, HistoryImportDto, HistoryImportStartedResponse, MessageDto, WhatsappDto } from '@wadesk/contracts';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { connectedSimulator, createQueue, inbound, outbox, phoneNumbers, queryRows, withAttendantTools } from '../../test/desk-factories.js';
import { eventually } from '../../test/session-helpers.js';
import { nextEvent, useTestApp } from '../../test/test-app.js';
import { AppError } from '../../http/app-error.js';
import { TicketsRepository } from '../tickets/tickets.repository.js';
import { MAX_OWNER_WAITS, type HistoryStepScheduler } from './history.service.js';

const t = useTestApp({ admin: true, user: true });
const nextNumber = phoneNumbers(80_000, 1);
let apiToken = '';
/** The conversations happened long ago, at fixed times: nothing depends on when the test runs. */
const BASE = Date.parse('2024-03-10T12:00:00.000Z');
const at = (minutes: number) => new Date(BASE + minutes * 60_000).toISOString();
const PIXEL = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

beforeAll(async () => {
  const settings = await t.call<{ key: string; value: string }[]>('GET', '/api/settings', { token: t.admin });
  apiToken = settings.body.find((s) => s.key === 'userApiToken')!.value;
});

interface Seeded {
  id: string;
  chat: string;
  fromMe: boolean;
  body: string;
  timestamp: string;
  quotedId?: string;
  name?: string;
  mediaType?: string;
  mediaUrl?: string;
  participant?: string;
}

/** `count` messages of a chat, a minute apart from `start` minutes, alternating contact and phone. */
function chat(number: string, count: number, start = 0, name = `Cliente ${number.slice(-4)}`): Seeded[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `H-${number}-${i}`,
    chat: number,
    fromMe: i % 2 === 1,
    body: `msg ${i} de ${number}`,
    timestamp: at(start + i),
    name,
  }));
}

async function seed(whatsappId: number, messages: Seeded[]): Promise<void> {
  const res = await t.call('POST', `/api/simulator/${whatsappId}/history`, { token: t.admin, body: { messages } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

async function start(body: Record<string, unknown>): Promise<HistoryImportDto> {
  const res = await t.call<HistoryImportStartedResponse>('POST', '/api/history/imports', { token: t.admin, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect(res.body.jobId).toMatch(/^[0-9a-f-]{36}$/);
  return res.body.historyImport;
}

async function finished(id: number, ms = 30_000): Promise<HistoryImportDto> {
  return eventually(async () => {
    const found = (await t.call<HistoryImportDto>('GET', `/api/history/imports/${id}`, { token: t.admin })).body;
    return found.status === 'done' ? found : null;
  }, ms, `history import ${id} done`);
}

async function storedMessages(whatsappId: number) {
  return queryRows<{ channel_message_id: string; ticket_id: number; from_me: boolean; created_at: Date | string; quoted_msg_id: number | null; read: boolean; media_type: string | null; media_url: string | null; participant_name: string | null }>(
    t,
    sql`select channel_message_id, ticket_id, from_me, created_at, quoted_msg_id, read, media_type, media_url, participant_name
        from messages where whatsapp_id = ${whatsappId} order by created_at, id`,
  );
}

async function ticketsOf(whatsappId: number) {
  return queryRows<{ id: number; status: string; unread_messages: number; last_message: string; updated_at: Date | string; created_at: Date | string; is_group: boolean; number: string }>(
    t,
    sql`select t.id, t.status, t.unread_messages, t.last_message, t.updated_at, t.created_at, t.is_group, c.number
        from tickets t join contacts c on c.id = t.contact_id where t.whatsapp_id = ${whatsappId} order by t.id`,
  );
}

const iso = (value: Date | string) => new Date(value).toISOString();

/** Holds the import's step jobs (as if the process died before queueing them); answers a function that releases them. */
function holdSteps(): () => void {
  const history = t.app.services.history;
  const original = Reflect.get(history, 'scheduleStep') as HistoryStepScheduler;
  history.useScheduler(async () => '00000000-0000-0000-0000-000000000000');
  return () => history.useScheduler(original);
}

describe('history import (issue 14)', () => {
  it('imports 3 chats × 50 messages once, with their original times, directions, a quote and media; a second import adds nothing', { timeout: 60_000 }, async () => {
    const connection = await connectedSimulator(t);
    const [a, b, c] = [nextNumber(), nextNumber(), nextNumber()];
    const chatA = chat(a, 50, 0);
    chatA[10] = { ...chatA[10]!, quotedId: chatA[5]!.id };
    const chatC = chat(c, 50, 200);
    chatC[0] = { ...chatC[0]!, body: 'foto', mediaType: 'image', mediaUrl: PIXEL };
    await seed(connection.id, [...chatA, ...chat(b, 50, 100), ...chatC]);
    const summary = await t.call('GET', `/api/history/device?whatsappId=${connection.id}`, { token: t.admin });
    expect(summary.body).toEqual({ whatsappId: connection.id, chats: 3, messages: 150, oldest: at(0), newest: at(249) });

    const first = await finished((await start({ whatsappId: connection.id, limit: 50 })).id);
    expect(first).toMatchObject({ chatsTotal: 3, chatsDone: 3, messagesImported: 150, messagesSkipped: 0, ticketsCreated: 3, ticketsJoined: 0 });
    expect(first.finishedAt).not.toBeNull();

    const stored = await storedMessages(connection.id);
    expect(stored).toHaveLength(150);
    const byId = new Map(stored.map((m) => [m.channel_message_id, m]));
    for (const m of [...chatA, ...chatC]) {
      expect(iso(byId.get(m.id)!.created_at)).toBe(m.timestamp);
      expect(byId.get(m.id)!.from_me).toBe(m.fromMe);
    }
    expect(stored.every((m) => m.read)).toBe(true);
    const quote = await queryRows<{ channel_message_id: string }>(t, sql`select channel_message_id from messages where id = ${byId.get(chatA[10]!.id)!.quoted_msg_id}`);
    expect(quote[0]!.channel_message_id).toBe(chatA[5]!.id);
    const photo = byId.get(chatC[0]!.id)!;
    expect(photo.media_type).toBe('image');
    expect(photo.media_url).toMatch(/^\/api\/media\//);

    // Closed tickets placed by the conversation's own time, nothing unread, no message sent by the desk.
    const tickets = await ticketsOf(connection.id);
    expect(tickets.map((x) => [x.number, x.status, x.unread_messages])).toEqual(
      expect.arrayContaining([
        [a, 'closed', 0],
        [b, 'closed', 0],
        [c, 'closed', 0],
      ]),
    );
    const ticketA = tickets.find((x) => x.number === a)!;
    expect(iso(ticketA.created_at)).toBe(at(0));
    expect(iso(ticketA.updated_at)).toBe(at(49));
    expect(ticketA.last_message).toBe(`msg 49 de ${a}`);
    expect(await outbox(t, connection.id)).toEqual([]);
    // The messages page reads them in the chat's order.
    const page = await t.call<{ messages: MessageDto[] }>('GET', `/api/messages/${ticketA.id}`, { token: t.admin });
    const bodies = page.body.messages.map((m) => m.body);
    expect(bodies.at(-1)).toBe(`msg 49 de ${a}`);
    expect(bodies.at(-2)).toBe(`msg 48 de ${a}`);

    const second = await finished((await start({ whatsappId: connection.id, limit: 50 })).id);
    expect(second).toMatchObject({ chatsTotal: 3, messagesImported: 0, messagesSkipped: 150, ticketsCreated: 0 });
    expect(await storedMessages(connection.id)).toHaveLength(150);
    expect(await ticketsOf(connection.id)).toHaveLength(3);
  });

  it('takes the newest messages of each chat up to the limit, group chats included', async () => {
    const connection = await connectedSimulator(t);
    const [a, member] = [nextNumber(), nextNumber()];
    const group = '120363777000000001@g.us';
    const groupChat: Seeded[] = Array.from({ length: 8 }, (_, i) => ({
      id: `HG-${i}`,
      chat: group,
      fromMe: false,
      body: `no grupo ${i}`,
      timestamp: at(500 + i),
      name: 'Turma',
      participant: member,
    }));
    await seed(connection.id, [...chat(a, 20, 0), ...groupChat]);
    const done = await finished((await start({ whatsappId: connection.id, limit: 5 })).id);
    expect(done).toMatchObject({ chatsTotal: 2, messagesImported: 10, groupsSkipped: 0 });
    const ids = (await storedMessages(connection.id)).map((m) => m.channel_message_id);
    expect(ids).toEqual([...[15, 16, 17, 18, 19].map((i) => `H-${a}-${i}`), ...[3, 4, 5, 6, 7].map((i) => `HG-${i}`)]);
    const groupTicket = (await ticketsOf(connection.id)).find((x) => x.is_group)!;
    expect(groupTicket).toMatchObject({ status: 'closed', number: group });
    expect((await storedMessages(connection.id)).find((m) => m.channel_message_id === 'HG-7')!.participant_name).toBe(member);

    // The group's chat alone (the chat panel of a group ticket), with a bigger limit: its older messages join the same ticket.
    const again = await finished((await start({ whatsappId: connection.id, limit: 8, contactNumber: group })).id);
    expect(again).toMatchObject({ contactNumber: group, chatsTotal: 1, messagesImported: 3, messagesSkipped: 5, ticketsCreated: 0 });
    expect((await ticketsOf(connection.id)).filter((x) => x.is_group)).toHaveLength(1);
  });

  it("imports one contact's chat only", async () => {
    const connection = await connectedSimulator(t);
    const [a, b] = [nextNumber(), nextNumber()];
    await seed(connection.id, [...chat(a, 6, 0), ...chat(b, 6, 10)]);
    const done = await finished((await start({ whatsappId: connection.id, limit: 50, contactNumber: `+${b}` })).id);
    expect(done).toMatchObject({ contactNumber: b, chatsTotal: 1, messagesImported: 6 });
    const stored = await storedMessages(connection.id);
    expect(stored.map((m) => m.channel_message_id)).toEqual(chat(b, 6, 10).map((m) => m.id));
  });

  it("joins the contact's current open ticket in the chat's time order, without unread counts, greetings or reordering", async () => {
    const queue = await createQueue(t, 'Hist Q', 'Olá!');
    const connection: WhatsappDto = await connectedSimulator(t, { greetingMessage: 'Bem-vindo', queueIds: [queue] });
    const a = nextNumber();
    const live = await inbound(t, connection.id, { from: a, body: 'mensagem ao vivo', name: 'Ana' });
    const before = (await ticketsOf(connection.id)).find((x) => x.id === live.id)!;
    const sentBefore = (await outbox(t, connection.id)).length;
    await seed(connection.id, chat(a, 4, 0, 'Ana'));

    const done = await finished((await start({ whatsappId: connection.id, limit: 10 })).id);
    expect(done).toMatchObject({ messagesImported: 4, ticketsCreated: 0, ticketsJoined: 1 });
    const tickets = await ticketsOf(connection.id);
    expect(tickets).toHaveLength(1);
    expect(tickets[0]).toMatchObject({ id: live.id, status: before.status, unread_messages: before.unread_messages, last_message: 'mensagem ao vivo' });
    expect(iso(tickets[0]!.updated_at)).toBe(iso(before.updated_at));
    const page = await t.call<{ messages: MessageDto[] }>('GET', `/api/messages/${live.id}`, { token: t.admin });
    expect(page.body.messages.map((m) => m.body)).toEqual([...chat(a, 4).map((m) => m.body), 'mensagem ao vivo']);
    expect((await outbox(t, connection.id)).length).toBe(sentBefore);
  });

  it('sends its progress to admins over the socket, chat by chat, up to the summary', async () => {
    const connection = await connectedSimulator(t);
    await seed(connection.id, [...chat(nextNumber(), 3, 0), ...chat(nextNumber(), 3, 10)]);
    await t.listen();
    const socket = await t.socket(t.admin);
    try {
      const events: HistoryImportDto[] = [];
      socket.on('historyImport', (e: { action: string; historyImport: HistoryImportDto }) => events.push(e.historyImport));
      const doneEvent = new Promise<void>((resolve) => socket.on('historyImport', (e: { historyImport: HistoryImportDto }) => e.historyImport.status === 'done' && resolve()));
      const started = await start({ whatsappId: connection.id, limit: 10 });
      await Promise.race([doneEvent, nextEvent(socket, 'never', 20_000)]);
      const mine = events.filter((e) => e.id === started.id);
      expect(mine.map((e) => e.chatsDone)).toEqual(expect.arrayContaining([1, 2]));
      expect(mine.at(-1)).toMatchObject({ status: 'done', chatsTotal: 2, chatsDone: 2, messagesImported: 6 });
    } finally {
      socket.disconnect();
    }
  });

  it('continues an import whose next step was lost (a process gone), with every message stored once', async () => {
    const connection = await connectedSimulator(t);
    const numbers = [nextNumber(), nextNumber(), nextNumber()];
    await seed(connection.id, numbers.flatMap((n, i) => chat(n, 5, i * 10)));
    const release = holdSteps();
    let id: number;
    try {
      id = (await start({ whatsappId: connection.id, limit: 10 })).id;
      // The first step (held) never ran: run one by hand, as the process did before it died.
      const record = (await queryRows<{ chain: string }>(t, sql`select chain from history_imports where id = ${id}`))[0]!;
      await t.app.services.history.step(id, record.chain);
    } finally {
      release();
    }
    const midway = (await t.call<HistoryImportDto>('GET', `/api/history/imports/${id}`, { token: t.admin })).body;
    expect(midway).toMatchObject({ status: 'running', chatsDone: 1, messagesImported: 5 });
    // The watchdog finds it overdue and gives it a new chain.
    await t.app.database.db.execute(sql`update history_imports set next_run_at = next_run_at - interval '10 minutes' where id = ${id}`);
    expect(await t.app.services.history.recoverOverdue()).toBeGreaterThanOrEqual(1);
    expect(await finished(id)).toMatchObject({ chatsDone: 3, messagesImported: 15 });
    expect(await storedMessages(connection.id)).toHaveLength(15);
  });

  it('shows why a chat failed and imports it whole when the step runs again', async () => {
    const connection = await connectedSimulator(t);
    await seed(connection.id, chat(nextNumber(), 4));
    const release = holdSteps();
    try {
      const id = (await start({ whatsappId: connection.id, limit: 10 })).id;
      const [{ chain }] = await queryRows<{ chain: string }>(t, sql`select chain from history_imports where id = ${id}`);
      const failing = vi.spyOn(TicketsRepository.prototype, 'insertImported').mockRejectedValueOnce(new Error('database away'));
      await expect(t.app.services.history.step(id, chain)).rejects.toThrow('database away');
      failing.mockRestore();
      const waiting = (await t.call<HistoryImportDto>('GET', `/api/history/imports/${id}`, { token: t.admin })).body;
      expect(waiting).toMatchObject({ status: 'running', chatsDone: 0, messagesImported: 0 });
      expect(waiting.lastError).toMatch(/database away/);
      expect(await storedMessages(connection.id)).toEqual([]);

      await t.app.services.history.step(id, chain);
      const done = (await t.call<HistoryImportDto>('GET', `/api/history/imports/${id}`, { token: t.admin })).body;
      expect(done).toMatchObject({ status: 'done', chatsDone: 1, messagesImported: 4, lastError: null });
    } finally {
      release();
    }
  });

  it('hands a chat with media back for the process that runs the connection; after every wait, imports it without the media', async () => {
    const connection = await connectedSimulator(t);
    const messages = chat(nextNumber(), 2);
    messages[0] = { ...messages[0]!, body: 'foto', mediaType: 'image', mediaUrl: PIXEL };
    await seed(connection.id, messages);
    const history = t.app.services.history;
    const original = Reflect.get(history, 'scheduleStep') as HistoryStepScheduler;
    const queued: { step: Parameters<HistoryStepScheduler>[0]; startAfter?: Date }[] = [];
    history.useScheduler(async (step, startAfter) => {
      queued.push({ step, startAfter });
      return '00000000-0000-0000-0000-000000000000';
    });
    // Another process runs the connection: this one does not know its session.
    const elsewhere = vi.spyOn(t.app.services.sessions, 'status').mockReturnValue(null);
    const noDriver = vi.spyOn(t.app.services.sessions, 'driver').mockImplementation(() => {
      throw new AppError('ERR_WAPP_NOT_INITIALIZED');
    });
    try {
      const id = (await start({ whatsappId: connection.id, limit: 10 })).id;
      const [{ chain }] = await queryRows<{ chain: string }>(t, sql`select chain from history_imports where id = ${id}`);
      expect(await history.step(id, chain)).toMatchObject({ outcome: 'waiting' });
      expect(queued.at(-1)!.step).toEqual({ historyImportId: id, chain, waits: 1 });
      expect(queued.at(-1)!.startAfter).toBeInstanceOf(Date);
      expect(await storedMessages(connection.id)).toEqual([]);

      expect(await history.step(id, chain, MAX_OWNER_WAITS)).toMatchObject({ outcome: 'chat', imported: 2 });
      const photo = (await storedMessages(connection.id)).find((m) => m.channel_message_id === messages[0]!.id)!;
      expect(photo).toMatchObject({ media_type: 'image', media_url: null });
    } finally {
      elsewhere.mockRestore();
      noDriver.mockRestore();
      history.useScheduler(original);
    }
  });

  it('cancels an import that has not finished; a finished one answers ERR_HISTORY_IMPORT_STATE', async () => {
    const connection = await connectedSimulator(t);
    await seed(connection.id, chat(nextNumber(), 3));
    const release = holdSteps();
    let id: number;
    try {
      id = (await start({ whatsappId: connection.id, limit: 10 })).id;
    } finally {
      release();
    }
    const cancelled = await t.call<HistoryImportDto>('POST', `/api/history/imports/${id}/cancel`, { token: t.admin });
    expect(cancelled.body).toMatchObject({ status: 'cancelled' });
    const again = await t.call('POST', `/api/history/imports/${id}/cancel`, { token: t.admin });
    expect([again.status, again.body.error]).toEqual([409, 'ERR_HISTORY_IMPORT_STATE']);
    const list = await t.call<{ historyImports: HistoryImportDto[] }>('GET', '/api/history/imports', { token: t.admin });
    expect(list.body.historyImports.find((x) => x.id === id)).toMatchObject({ status: 'cancelled' });
  });

  it('refuses bad input with 400 codes, unknown ids with 404, and attendants with 403 while attendantTools leaves history out', async () => {
    const connection = await connectedSimulator(t);
    for (const body of [{}, { limit: 0 }, { limit: 'abc' }, { limit: 5001 }, { limit: 5, contactNumber: '12' }, { limit: 5, whatsappId: 'x' }]) {
      const res = await t.call('POST', '/api/history/imports', { token: t.admin, body: { whatsappId: connection.id, ...body } });
      expect([res.status, res.body.error], JSON.stringify(body)).toEqual([400, 'ERR_VALIDATION']);
    }
    const unknown = await t.call('POST', '/api/history/imports', { token: t.admin, body: { whatsappId: 999_999, limit: 5 } });
    expect([unknown.status, unknown.body.error]).toEqual([404, 'ERR_NO_WAPP_FOUND']);
    const missing = await t.call('GET', '/api/history/imports/999999', { token: t.admin });
    expect([missing.status, missing.body.error]).toEqual([404, 'ERR_NO_HISTORY_IMPORT_FOUND']);

    for (const messages of [[], [{ id: 'x', chat: '12', timestamp: at(0) }], [{ id: 'x', chat: nextNumber(), timestamp: 'yesterday' }], [{ id: 'x', chat: nextNumber(), timestamp: at(0), mediaType: 'image' }]]) {
      const res = await t.call('POST', `/api/simulator/${connection.id}/history`, { token: t.admin, body: { messages } });
      expect([res.status, res.body.error], JSON.stringify(messages)).toEqual([400, 'ERR_VALIDATION']);
    }

    const routes = [
      ['POST', '/api/history/imports'],
      ['GET', '/api/history/imports'],
      ['GET', '/api/history/imports/1'],
      ['POST', '/api/history/imports/1/cancel'],
      ['GET', '/api/history/device'],
    ] as const;
    const asUser = (method: 'GET' | 'POST', url: string) => t.call(method, url, { token: t.user, body: method === 'POST' ? { limit: 5, messages: [] } : undefined });
    await withAttendantTools(t, 'bulk,schedules', async () => {
      for (const [method, url] of routes) {
        const res = await asUser(method, url);
        expect([res.status, res.body.error], `${method} ${url}`).toEqual([403, 'ERR_NO_PERMISSION']);
      }
    });
    // By default (issue 32) the attendant reaches the routes; the simulator stays an admin's.
    for (const [method, url] of routes) expect((await asUser(method, url)).status, `${method} ${url}`).not.toBe(403);
    const simulator = await asUser('POST', `/api/simulator/${connection.id}/history`);
    expect([simulator.status, simulator.body.error]).toEqual([403, 'ERR_NO_PERMISSION']);
  });
});

describe('history import through the send API (issue 14)', () => {
  it('/api/syncMessage imports every chat (202 with the job) with the right token; 401 without it or with a wrong one', async () => {
    const connection = await connectedSimulator(t);
    await seed(connection.id, [...chat(nextNumber(), 4, 0), ...chat(nextNumber(), 4, 10)]);
    const ok = await t.call<HistoryImportAcceptedResponse>('POST', '/api/syncMessage', { body: { limit: 3, token: apiToken, ticketwhatsappId: connection.id } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(202);
    expect(ok.body.jobId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await finished(ok.body.historyImportId)).toMatchObject({ userId: null, chatsTotal: 2, messagesImported: 6 });

    const wrong = await t.call('POST', '/api/syncMessage', { body: { limit: 3, token: 'not-the-token', ticketwhatsappId: connection.id } });
    expect([wrong.status, wrong.body.error]).toEqual([401, 'ERR_INVALID_API_TOKEN']);
    const none = await t.call('POST', '/api/syncMessage', { body: { limit: 3, ticketwhatsappId: connection.id } });
    expect([none.status, none.body.error]).toEqual([401, 'ERR_INVALID_API_TOKEN']);
    const bad = await t.call('POST', '/api/syncMessage', { body: { limit: 0, token: apiToken, ticketwhatsappId: connection.id } });
    expect([bad.status, bad.body.error]).toEqual([400, 'ERR_VALIDATION']);
  });

  it("/api/zdgSyncMessageUser imports one contact's chat (user: the number)", async () => {
    const connection = await connectedSimulator(t);
    const [a, b] = [nextNumber(), nextNumber()];
    await seed(connection.id, [...chat(a, 4, 0), ...chat(b, 4, 10)]);
    const ok = await t.call<HistoryImportAcceptedResponse>('POST', '/api/zdgSyncMessageUser', {
      body: { user: `${a}@c.us`, limit: 10, token: apiToken, ticketwhatsappId: connection.id },
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(202);
    expect(await finished(ok.body.historyImportId)).toMatchObject({ contactNumber: a, chatsTotal: 1, messagesImported: 4 });
    expect((await storedMessages(connection.id)).map((m) => m.channel_message_id)).toEqual(chat(a, 4).map((m) => m.id));

    const wrong = await t.call('POST', '/api/zdgSyncMessageUser', { body: { user: a, limit: 10, token: 'nope' } });
    expect(wrong.status).toBe(401);
    for (const body of [{ limit: 10 }, { user: a }, { user: 'abc', limit: 10 }]) {
      const res = await t.call('POST', '/api/zdgSyncMessageUser', { body: { ...body, token: apiToken, ticketwhatsappId: connection.id } });
      expect([res.status, res.body.error], JSON.stringify(body)).toEqual([400, 'ERR_VALIDATION']);
    }
  });
});
