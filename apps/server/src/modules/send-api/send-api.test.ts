import type { WhatsappDto } from '@wadesk/contracts';
import { describe, expect, it, beforeAll } from 'vitest';
import { connectedSimulator, inbound, outbox, phoneNumbers } from '../../test/desk-factories.js';
import { eventually } from '../../test/session-helpers.js';
import { useTestApp } from '../../test/test-app.js';

const t = useTestApp({ admin: true, user: true });
const nextNumber = phoneNumbers(60_000, 1);
let connection: WhatsappDto;
let apiToken = '';

beforeAll(async () => {
  connection = await connectedSimulator(t, { name: 'API' });
  const settings = await t.call<{ key: string; value: string }[]>('GET', '/api/settings', { token: t.admin });
  apiToken = settings.body.find((s) => s.key === 'userApiToken')!.value;
  expect(apiToken).toMatch(/^[\w-]{32}$/);
});

async function jobOutput(jobId: string): Promise<Record<string, unknown>> {
  return eventually(async () => {
    const job = await t.call<{ state: string; output: Record<string, unknown> }>('GET', `/api/jobs/${jobId}`, { token: apiToken });
    return job.body.state === 'completed' ? job.body.output : null;
  }, 10_000, `job ${jobId} completed`);
}

describe('send API (§7 auxiliary calls)', () => {
  it('sends a text with the API token in the body, answering 202 with the job that sends it', async () => {
    const number = nextNumber();
    const res = await t.call<{ jobId: string; campaignId: number }>('POST', '/api/zdg', {
      body: { number: `${number}@c.us`, message: 'Seu pedido saiu para entrega', token: apiToken, ticketwhatsappId: connection.id },
    });
    expect(res.status).toBe(202);
    expect(await jobOutput(res.body.jobId)).toMatchObject({ outcome: 'sent', number });
    const sent = (await outbox(t, connection.id)).filter((e) => e.to === number);
    expect(sent.map((e) => e.body)).toEqual(['Seu pedido saiu para entrega']);
  });

  it('takes the token as a bearer too, and a signed-in admin without one; the default connection when none is named', async () => {
    const [a, b] = [nextNumber(), nextNumber()];
    const bearer = await t.call('POST', '/api/zdg', { headers: { authorization: `Bearer ${apiToken}` }, body: { number: a, message: 'Bearer' } });
    expect(bearer.status).toBe(202);
    const admin = await t.call('POST', '/api/zdg', { token: t.admin, body: { number: b, message: 'Admin' } });
    expect(admin.status).toBe(202);
    await eventually(async () => (await outbox(t, connection.id)).filter((e) => e.to === a || e.to === b).length === 2, 10_000, 'both sent');
  });

  it('answers 401 ERR_INVALID_API_TOKEN for a wrong or missing token, 403 for an attendant, and sends nothing', async () => {
    const number = nextNumber();
    const cases = [
      { body: { number, message: 'x', token: 'wrong' } },
      { body: { number, message: 'x' } },
      { body: { number, message: 'x' }, headers: { authorization: 'Bearer wrong' } },
      { body: { number, message: 'x', token: '' } },
      { body: { number, message: 'x', token: 42 } },
    ];
    for (const call of cases) {
      const res = await t.call('POST', '/api/zdg', { ...call, ip: '10.1.1.1' });
      expect(res.status, JSON.stringify(call)).toBe(401);
      expect(res.body.error).toBe('ERR_INVALID_API_TOKEN');
    }
    for (const url of ['/api/whatsappzdg', '/api/contactsZDG']) {
      const res = await t.call('GET', url, { ip: '10.1.1.1' });
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('ERR_INVALID_API_TOKEN');
    }
    const user = await t.call('POST', '/api/zdg', { token: t.user, body: { number, message: 'x' } });
    expect(user.status).toBe(403);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect((await outbox(t, connection.id)).filter((e) => e.to === number)).toEqual([]);
  });

  it('limits wrong tokens per address with 429 ERR_RATE_LIMITED', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 25; i += 1) {
      statuses.push((await t.call('POST', '/api/zdg', { ip: '10.9.9.9', body: { number: '5511987650000', message: 'x', token: `guess-${i}` } })).status);
    }
    expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(20).every((s) => s === 429)).toBe(true);
    // Another address is not held back.
    expect((await t.call('POST', '/api/zdg', { ip: '10.9.9.10', body: { number: '5511987650000', message: 'x', token: 'guess' } })).status).toBe(401);
  });

  it('refuses a number that is neither digits nor a group with ERR_WAPP_INVALID_CONTACT, and bad bodies with ERR_VALIDATION', async () => {
    const bad = await t.call('POST', '/api/zdg', { body: { number: 'hello', message: 'x', token: apiToken } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('ERR_WAPP_INVALID_CONTACT');
    const empty = await t.call('POST', '/api/zdg', { body: { number: '5511987650001', token: apiToken } });
    expect(empty.status).toBe(400);
    expect(empty.body.issues[0].path).toBe('message');
    const notOgg = await t.call('POST', '/api/sendMediaZDGRec', { body: { number: '5511987650001', url: 'https://example.com/a.mp3', token: apiToken } });
    expect(notOgg.status).toBe(400);
    expect(notOgg.body.issues[0]).toMatchObject({ path: 'url', message: 'Only .ogg audio is accepted' });
    const noConnection = await t.call('POST', '/api/zdg', { body: { number: '5511987650001', message: 'x', token: apiToken, ticketwhatsappId: 999999 } });
    expect(noConnection.status).toBe(404);
    expect(noConnection.body.error).toBe('ERR_NO_WAPP_FOUND');
  });

  it('sends to a group id', async () => {
    const groupId = '120363025246125888@g.us';
    const res = await t.call<{ jobId: string }>('POST', '/api/zdg', { body: { number: groupId, message: 'Aviso ao grupo', token: apiToken } });
    expect(res.status).toBe(202);
    expect(await jobOutput(res.body.jobId)).toMatchObject({ outcome: 'sent', number: groupId });
    expect((await outbox(t, connection.id)).some((e) => e.to === groupId && e.body === 'Aviso ao grupo')).toBe(true);
  });

  it('lists the connections with their status, the active instance, and the connection of a ticket', async () => {
    const list = await t.call('GET', '/api/whatsappzdg', { token: apiToken });
    expect(list.status).toBe(200);
    expect(list.body.connections).toContainEqual({ id: connection.id, name: 'API', status: 'CONNECTED', isDefault: true });
    expect(list.body.connectedIds).toContain(connection.id);
    const active = await t.call('GET', '/api/whatsappzdg/active', { token: apiToken });
    expect(active.body).toEqual({ id: connection.id, name: 'API', status: 'CONNECTED' });
    const ticket = await inbound(t, connection.id, { from: nextNumber(), body: 'Oi' });
    const wpp = await t.call('POST', '/api/zdgGetWppId', { body: { ticketid: ticket.id, token: apiToken } });
    expect(wpp.body).toEqual({ dbWpp: [{ whatsappId: connection.id }] });
    const protocol = await t.call('POST', '/api/zdgProtocolo', { body: { usuario: 'Ana', protocolo: '17640000001234', ticket: ticket.id, token: apiToken } });
    expect(protocol.body).toEqual({ ticket: ticket.id, protocolo: '17640000001234' });
    expect((await t.call('GET', `/api/tickets/${ticket.id}`, { token: t.admin })).body.protocol).toBe('17640000001234');
    const missing = await t.call('POST', '/api/zdgProtocolo', { body: { protocolo: '1', ticket: 999999, token: apiToken } });
    expect(missing.status).toBe(404);
    expect((await t.call('POST', '/api/zdgProtocolo', { body: { protocolo: 'a b', ticket: ticket.id, token: apiToken } })).status).toBe(400);
  });

  it('exports the contacts as CSV, and deletes every contact with the API token', async () => {
    const from = nextNumber();
    await inbound(t, connection.id, { from, body: 'Quero comprar', name: 'Cliente Exportado' });
    const csv = await t.app.http.inject({ method: 'GET', url: `/api/contactsZDG?token=${apiToken}` });
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain(from);
    const wrong = await t.call('POST', '/api/delContacts', { body: { token: 'wrong' } });
    expect(wrong.status).toBe(401);
    const deleted = await t.call('POST', '/api/delContacts', { body: { token: apiToken } });
    expect(deleted.status).toBe(200);
    expect(deleted.body.deleted).toBeGreaterThan(0);
    expect((await t.call('GET', '/api/contacts', { token: t.admin })).body.contacts).toEqual([]);
  });

  it('describes every /api route in OpenAPI at /api/docs, with the send API bodies from the zod schemas', async () => {
    const res = await t.call('GET', '/api/docs');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    const zdg = res.body.paths['/api/zdg'].post;
    expect(zdg.security).toEqual([{ apiToken: [] }, { bearer: [] }]);
    // `message`, or an approved `template` on a Cloud API connection (issue 18): one of the two, checked by the route.
    expect(zdg.requestBody.content['application/json'].schema.required).toEqual(expect.arrayContaining(['number']));
    expect(Object.keys(zdg.requestBody.content['application/json'].schema.properties)).toEqual(expect.arrayContaining(['number', 'message', 'template']));
    expect(Object.keys(zdg.responses)).toContain('202');
    expect(res.body.paths['/api/campaigns'].post.requestBody).toBeDefined();
    expect(res.body.paths['/api/tickets/{id}'].put).toBeDefined();
    expect(res.body.paths['/api/jobs/{id}'].get.parameters).toEqual([
      { name: 'id', in: 'path', required: true, schema: expect.objectContaining({ type: 'string', format: 'uuid' }) },
    ]);
    expect(res.body.paths['/api/jobs/{id}'].get.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Job' });
  });
});
