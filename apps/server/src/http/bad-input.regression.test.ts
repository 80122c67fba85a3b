import type { TicketDto, WhatsappDto } from '@wadesk/contracts';
import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectedSimulator, createQueue, inbound } from '../test/desk-factories.js';
import { useTestApp } from '../test/test-app.js';
import { inertDrivers, settledChecksum, storedChecksum } from '../test/bad-input-fixtures.js';
import { frameworkErrorHandler, registerErrorHandler } from './error-handler.js';

/**
 * The exact requests of the outside probe that answered 500: each is now 400 ERR_VALIDATION (with issues) or a
 * 404, and none of them changes a stored row.
 */

const t = useTestApp({ tempDataDir: true, channels: { drivers: inertDrivers }, admin: true });
let connection: WhatsappDto;
let ticket: TicketDto;
let before: Record<string, string>;

beforeAll(async () => {
  const queueId = await createQueue(t, 'Regression queue');
  connection = await connectedSimulator(t, { queueIds: [queueId] });
  ticket = await inbound(t, connection.id, { from: '5511900002222', body: 'olá' });
});

beforeEach(async () => {
  before = await settledChecksum(t);
});

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Sends the request and checks the answer is a refusal with a JSON code that left every stored row alone. */
async function refused(method: Method, url: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await t.app.http.inject({
    method,
    url,
    headers: { authorization: `Bearer ${t.admin}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    payload: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const json = JSON.parse(res.body) as { error: string; message: string; issues?: { path: string; message: string }[] };
  expect(res.statusCode, `${method} ${url} → ${res.body}`).toBeLessThan(500);
  expect(res.statusCode).toBeGreaterThanOrEqual(400);
  if (json.error === 'ERR_VALIDATION') expect(Array.isArray(json.issues)).toBe(true);
  expect(await storedChecksum(t)).toEqual(before);
  return { status: res.statusCode, ...json };
}

async function validationError(method: Method, url: string, body?: unknown, headers?: Record<string, string>) {
  const res = await refused(method, url, body, headers);
  expect(res.status).toBe(400);
  expect(res.error).toBe('ERR_VALIDATION');
  return res;
}

describe('ids past PostgreSQL integer', () => {
  it('refuses 2147483648 and 1e10 in paths with Invalid id', async () => {
    for (const url of [
      '/api/tickets/2147483648',
      '/api/tickets/1e10',
      '/api/contacts/2147483648',
      '/api/users/1e10',
      '/api/queue/2147483648',
      '/api/quickAnswers/1e10',
      '/api/whatsapp/2147483648',
      '/api/messages/2147483648',
    ]) {
      const res = await validationError('GET', url);
      expect(res.issues![0]!.message).toBe('Invalid id');
    }
    await validationError('PUT', '/api/tickets/2147483648', { status: 'open' });
    await validationError('DELETE', '/api/users/1e10');
    await validationError('DELETE', '/api/messages/2147483648');
    await validationError('POST', '/api/whatsappsession/1e10');
    await validationError('POST', '/api/simulator/2147483648/inbound', { from: '5511900003333', body: 'x' });
  });

  it('accepts the largest id and answers 404 for it', async () => {
    const res = await refused('GET', '/api/tickets/2147483647');
    expect(res.status).toBe(404);
  });

  it('refuses ids past 2147483647 in bodies', async () => {
    await validationError('POST', '/api/tickets', { contactId: 2147483648 });
    await validationError('POST', '/api/tickets', { contactId: '1e10' });
    await validationError('PUT', `/api/tickets/${ticket.id}`, { queueId: 2147483648 });
    await validationError('PUT', `/api/tickets/${ticket.id}`, { userId: 1e10 });
    await validationError('POST', `/api/messages/${ticket.id}`, { body: 'resposta', quotedMsg: { id: 2147483648 } });
    await validationError('PUT', `/api/contacts/${ticket.contactId}`, {
      name: 'Contato',
      number: '5511900002222',
      extraInfo: [{ id: 2147483648, name: 'a', value: 'b' }],
    });
  });

  it('refuses queueIds past 2147483647 in bodies and in the ticket list query', async () => {
    const res = await validationError('POST', '/api/users', { name: 'Ana', email: 'ana-ids@test.local', password: 'secret', queueIds: [2147483648] });
    expect(res.issues![0]!.path).toBe('queueIds.0');
    await validationError('POST', '/api/users', { name: 'Ana', email: 'ana-ids@test.local', password: 'secret', whatsappId: 1e10 });
    await validationError('POST', '/api/whatsapp', { name: 'Overflow', channel: 'simulator', queueIds: [1e10] });
    await validationError('PUT', `/api/whatsapp/${connection.id}`, { queueIds: [2147483648] });
    await validationError('GET', `/api/tickets?queueIds=${encodeURIComponent('[2147483648]')}`);
    await validationError('GET', `/api/tickets?queueIds=${encodeURIComponent('[1e10]')}`);
  });

  it('refuses page numbers written as exponents', async () => {
    await validationError('GET', '/api/tickets?pageNumber=1e10');
    await validationError('GET', '/api/contacts?pageNumber=2147483648');
    await validationError('GET', `/api/messages/${ticket.id}?pageNumber=1e10`);
  });
});

describe('NUL characters in text', () => {
  it("refuses them in names, bodies and searches with 'Invalid character'", async () => {
    const cases: [Method, string, unknown][] = [
      ['POST', '/api/contacts', { name: 'Ana\u0000', number: '5511900004444' }],
      ['PUT', `/api/contacts/${ticket.contactId}`, { name: 'Contato', number: '5511900002222', extraInfo: [{ name: 'cpf', value: '1\u00002' }] }],
      ['POST', '/api/queue', { name: 'Fila\u0000', color: '#101010' }],
      ['POST', '/api/queue', { name: 'Fila', color: '#101010', greetingMessage: 'oi\u0000' }],
      ['POST', '/api/quickAnswers', { shortcut: 'oi\u0000', message: 'mensagem longa' }],
      ['POST', '/api/users', { name: 'Ana\u0000', email: 'ana-nul@test.local', password: 'secret' }],
      ['POST', '/api/users', { name: 'Ana', email: 'ana-nul@test.local', password: 'sec\u0000ret' }],
      ['POST', '/api/whatsapp', { name: 'Conexão\u0000', channel: 'simulator' }],
      ['PUT', `/api/whatsapp/${connection.id}`, { farewellMessage: 'tchau\u0000' }],
      ['PUT', '/api/settings/typebotName', { value: 'bot\u0000' }],
      ['POST', `/api/messages/${ticket.id}`, { body: 'oi\u0000' }],
      ['POST', `/api/simulator/${connection.id}/inbound`, { from: '5511900005555', body: 'oi\u0000' }],
      ['POST', `/api/simulator/${connection.id}/inbound`, { from: '5511900005555', name: 'Ana\u0000', body: 'oi' }],
    ];
    for (const [method, url, body] of cases) {
      const res = await validationError(method, url, body);
      expect(res.issues!.map((i) => i.message), `${method} ${url}`).toContain('Invalid character');
    }
    // An e-mail address with a NUL character is first of all not an e-mail address.
    const email = await validationError('POST', '/api/contact', { name: 'Ana', number: '5511900004444', email: 'a\u0000@b.co' });
    expect(email.issues).toEqual([{ path: 'email', message: 'Invalid email' }]);
  });

  it('refuses them in query strings and path parameters', async () => {
    await validationError('GET', '/api/contacts?searchParam=%00');
    await validationError('GET', '/api/tickets?searchParam=a%00b');
    await validationError('GET', '/api/users?searchParam=%00');
    await validationError('GET', '/api/quickAnswers?searchParam=%00');
    await validationError('PUT', '/api/settings/%00', { value: 'x' });
  });

  it('refuses them in the login form without touching the accounts', async () => {
    await validationError('POST', '/api/auth/login', { email: 'admin\u0000@test.local', password: 'x' });
    await validationError('POST', '/api/auth/login', { email: 'admin@test.local', password: 'x\u0000' });
  });
});

describe('dates', () => {
  it('refuses date=2024-13-45 on GET /api/tickets with Invalid date', async () => {
    const res = await validationError('GET', '/api/tickets?date=2024-13-45');
    expect(res.issues).toEqual([{ path: 'date', message: 'Invalid date' }]);
    await validationError('GET', '/api/tickets?date=2023-02-29');
    await validationError('GET', '/api/tickets?date=0000-01-01');
    const ok = await t.call('GET', '/api/tickets?date=2024-02-29', { token: t.admin });
    expect(ok.status).toBe(200);
  });
});

describe('data: URLs', () => {
  it('refuses a malformed data: URL in a simulator message', async () => {
    for (const mediaUrl of ['data:text/plain,%E0%A4%A', 'data:image/png;base64', 'data:text/plain,%']) {
      const res = await validationError('POST', `/api/simulator/${connection.id}/inbound`, { from: '5511900006666', mediaType: 'image', mediaUrl });
      expect(res.issues![0]!.path).toBe('mediaUrl');
    }
  });
});

describe('malformed requests', () => {
  it('refuses a multipart request without a boundary', async () => {
    const res = await validationError('POST', `/api/messages/${ticket.id}`, 'anything', { 'content-type': 'multipart/form-data' });
    expect(res.issues![0]!.path).toBe('medias');
  });

  it('refuses a multipart body cut short, and a file name with a NUL character', async () => {
    const headers = { 'content-type': 'multipart/form-data; boundary=XB' };
    await validationError('POST', `/api/messages/${ticket.id}`, '--XB\r\nContent-Disposition: form-data; name="medias"; filename="a.txt"\r\n\r\nabc', headers);
    const nul = '--XB\r\nContent-Disposition: form-data; name="medias"; filename="a\u0000.txt"\r\nContent-Type: text/plain\r\n\r\nabc\r\n--XB--\r\n';
    await refused('POST', `/api/messages/${ticket.id}`, nul, headers);
    const caption = '--XB\r\nContent-Disposition: form-data; name="body"\r\n\r\noi\u0000\r\n--XB--\r\n';
    await validationError('POST', `/api/messages/${ticket.id}`, caption, headers);
  });

  it('refuses malformed escapes in the URL with ERR_VALIDATION', async () => {
    await validationError('GET', '/api/tickets/%E0%A4%A');
    await validationError('GET', '/api/contacts/%');
  });

  it('refuses malformed JSON with issues', async () => {
    await validationError('POST', '/api/queue', '{"name":');
  });
});

describe('the last resort for a data error of PostgreSQL', () => {
  it('answers 400 ERR_VALIDATION for SQLSTATE class 22 raised by the real database', async () => {
    const probe = Fastify({ logger: false, frameworkErrors: frameworkErrorHandler });
    registerErrorHandler(probe);
    const db = t.app.database.db;
    probe.get('/overflow', async () => db.execute(sql`select ${'2147483648'}::int as n`));
    probe.get('/nul', async () => db.execute(sql`select ${'a\u0000b'}::text as s`));
    probe.get('/date', async () => db.execute(sql`select ${'2024-13-45'}::date as d`));
    probe.get('/number', async () => db.execute(sql`select ${'abc'}::int as n`));
    probe.get('/other', async () => db.execute(sql`select * from no_such_table`));
    const answers: Record<string, { status: number; body: { error: string; issues?: unknown[] } }> = {};
    for (const url of ['/overflow', '/nul', '/date', '/number', '/other']) {
      const res = await probe.inject({ method: 'GET', url });
      answers[url] = { status: res.statusCode, body: JSON.parse(res.body) };
    }
    await probe.close();
    for (const url of ['/overflow', '/nul', '/date', '/number']) {
      expect(answers[url]!.status, url).toBe(400);
      expect(answers[url]!.body.error).toBe('ERR_VALIDATION');
      expect(answers[url]!.body.issues).toHaveLength(1);
    }
    // Not bad input: a bug stays a 500.
    expect(answers['/other']!.status).toBe(500);
  });
});
