import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WhatsappDto } from '@wadesk/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../test/desk-factories.js';
import { eventually } from '../../test/session-helpers.js';
import { useTestApp } from '../../test/test-app.js';

/** A loopback server answering like the Graph API's send endpoint (checks the token and the body). */
const sent: { path: string; auth: string; body: unknown }[] = [];
const graph = createServer((req, res) => {
  let raw = '';
  req.on('data', (c: Buffer) => (raw += c.toString()));
  req.on('end', () => {
    if (req.method === 'GET') {
      // The profile of a sender: only 5550003 has one.
      const ok = req.headers.authorization === 'Bearer ig-token' && req.url === '/v21.0/5550003?fields=name,username';
      res.writeHead(ok ? 200 : 400, { 'content-type': 'application/json' }).end(JSON.stringify(ok ? { name: 'Joana Prado', username: 'joana.prado' } : { error: { message: 'Unsupported get request', code: 100 } }));
      return;
    }
    sent.push({ path: req.url ?? '', auth: String(req.headers.authorization), body: JSON.parse(raw || '{}') });
    if (req.headers.authorization !== 'Bearer ig-token') {
      res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'Invalid OAuth access token', code: 190 } }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ recipient_id: '1', message_id: `m_reply_${sent.length}` }));
  });
});
await new Promise<void>((resolve) => graph.listen(0, '127.0.0.1', resolve));
const graphUrl = `http://127.0.0.1:${(graph.address() as AddressInfo).port}/v21.0`;

const t = useTestApp({ admin: true, config: { instagramGraphUrl: graphUrl } });
const APP_SECRET = 'meta-app-secret';
const ACCOUNT = '17841400000000077';
let connection: WhatsappDto;

function signed(body: unknown, secret = APP_SECRET) {
  const raw = JSON.stringify(body);
  return { raw, signature: `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}` };
}

async function deliver(body: unknown, secret?: string, signatureOverride?: string) {
  const { raw, signature } = signed(body, secret);
  return t.app.http.inject({
    method: 'POST',
    url: '/api/webhooks/instagram',
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': signatureOverride ?? signature },
    payload: raw,
  });
}

function dm(sender: string, mid: string, text: string) {
  return {
    object: 'instagram',
    entry: [{ id: ACCOUNT, time: 1_700_000_000_000, messaging: [{ sender: { id: sender }, recipient: { id: ACCOUNT }, timestamp: 1_700_000_000_000, message: { mid, text } }] }],
  };
}

async function setting(key: string, value: string) {
  expect((await t.call('PUT', `/api/settings/${key}`, { token: t.admin, body: { value } })).status).toBe(200);
}

beforeAll(async () => {
  await setting('instagramAppSecret', APP_SECRET);
  await setting('instagramVerifyToken', 'verify-me');
  await setting('instagramAccountId', ACCOUNT);
  await setting('instagramAccessToken', 'ig-token');
});
afterAll(async () => {
  graph.closeAllConnections();
  await new Promise<void>((resolve) => graph.close(() => resolve()));
});

describe('Instagram webhook', () => {
  it("answers Meta's handshake with the challenge only for the right verify token", async () => {
    const ok = await t.app.http.inject({ method: 'GET', url: '/api/webhooks/instagram?hub.mode=subscribe&hub.verify_token=verify-me&hub.challenge=1158201444' });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toBe('1158201444');
    const wrong = await t.app.http.inject({ method: 'GET', url: '/api/webhooks/instagram?hub.mode=subscribe&hub.verify_token=nope&hub.challenge=1' });
    expect(wrong.statusCode).toBe(403);
  });

  it('refuses a delivery whose signature does not match, storing nothing', async () => {
    const wrongSecret = await deliver(dm('5550001', 'mid.bad', 'Olá'), 'another-secret');
    expect(wrongSecret.statusCode).toBe(401);
    expect(JSON.parse(wrongSecret.body).error).toBe('ERR_WEBHOOK_SIGNATURE');
    const none = await deliver(dm('5550001', 'mid.bad', 'Olá'), undefined, '');
    expect(none.statusCode).toBe(401);
    expect(await queryRows(t, sql`select id from messages where channel_message_id = 'mid.bad'`)).toEqual([]);
  });

  it('asks Meta to deliver again (503) while no instagram connection runs', async () => {
    const res = await deliver(dm('5550002', 'mid.early', 'Oi'));
    expect(res.statusCode).toBe(503);
  });

  it('turns a direct message into a ticket of the instagram connection; the reply goes out through the Graph API', async () => {
    const created = await t.call<WhatsappDto>('POST', '/api/whatsapp', { token: t.admin, body: { name: 'Instagram', channel: 'instagram' } });
    expect(created.status, JSON.stringify(created.body)).toBeLessThan(300);
    connection = created.body;
    await eventually(async () => t.app.services.sessions.status(connection.id) === 'CONNECTED', 5000, 'CONNECTED');

    const res = await deliver(dm('5550003', 'mid.first', 'Quero saber o preço'));
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('EVENT_RECEIVED');
    const again = await deliver(dm('5550003', 'mid.first', 'Quero saber o preço'));
    expect(again.statusCode).toBe(200);
    const rows = await queryRows<{ ticket_id: number; body: string; whatsapp_id: number }>(
      t,
      sql`select ticket_id, body, whatsapp_id from messages where channel_message_id = 'mid.first'`,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ body: 'Quero saber o preço', whatsapp_id: connection.id });
    const ticketId = Number(rows[0]!.ticket_id);
    const ticket = await t.call<{ contact: { number: string; name: string }; whatsappId: number }>('GET', `/api/tickets/${ticketId}`, { token: t.admin });
    expect(ticket.body).toMatchObject({ contact: { number: '5550003', name: 'Joana Prado' }, whatsappId: connection.id });

    await t.call('PUT', `/api/tickets/${ticketId}`, { token: t.admin, body: { status: 'open' } });
    const reply = await t.call('POST', `/api/messages/${ticketId}`, { token: t.admin, body: { body: 'Custa R$ 10' } });
    expect(reply.status, JSON.stringify(reply.body)).toBeLessThan(300);
    await eventually(async () => sent.some((s) => JSON.stringify(s.body).includes('Custa R$ 10')), 5000, 'reply sent');
    const out = sent.find((s) => JSON.stringify(s.body).includes('Custa R$ 10'))!;
    expect(out.path).toBe(`/v21.0/${ACCOUNT}/messages`);
    expect(out.auth).toBe('Bearer ig-token');
    expect((out.body as { recipient: { id: string } }).recipient.id).toBe('5550003');
  });
});
