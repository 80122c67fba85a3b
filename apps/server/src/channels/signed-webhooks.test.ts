import { createHmac } from 'node:crypto';
import type { WhatsappDto } from '@wadesk/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../test/desk-factories.js';
import { FakeGraphServer } from '../test/fakes/cloud-api-server.js';
import { eventually } from '../test/session-helpers.js';
import { createTestApp, type TestApp } from '../test/test-app.js';

/**
 * Issue 31 item 7: a validly signed webhook is still input. A body nested 100,000 deep answers 400 (not 500), and
 * one whose timestamp is garbage is refused (4xx) rather than acknowledged and then dropped by its job.
 */
const CLOUD = { phoneNumberId: '106540352242931', businessAccountId: '102290129340331', accessToken: 'EAAG-edge-token', appSecret: 'edge-app-secret' };
const IG = { appSecret: 'ig-edge-secret', account: '17841400000000031' };
const graph = new FakeGraphServer({ ...CLOUD, displayPhoneNumber: '+1 555-010-0031' });
let t: TestApp;
let admin: string;
let cloud: WhatsappDto;
let seq = 0;

const deepArray = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const sign = (raw: string, secret: string) => `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;

function post(url: string, raw: string, secret: string) {
  return t.app.http.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', 'x-hub-signature-256': sign(raw, secret) }, payload: raw });
}

const postCloud = (raw: string) => post(`/api/webhooks/whatsapp/${cloud.id}`, raw, CLOUD.appSecret);
const postInstagram = (raw: string) => post('/api/webhooks/instagram', raw, IG.appSecret);

function cloudMessage(id: string, timestamp: unknown) {
  seq += 1;
  const from = `1555123${String(seq).padStart(4, '0')}`;
  return graph.messagesPayload(from, 'Edge', [{ id, type: 'text', text: { body: 'hi' }, timestamp }]);
}

function instagramMessage(mid: string, timestamp: unknown) {
  return { object: 'instagram', entry: [{ id: IG.account, time: 1_700_000_000_000, messaging: [{ sender: { id: '5550031' }, recipient: { id: IG.account }, timestamp, message: { mid, text: 'Oi' } }] }] };
}

async function stored(channelMessageId: string) {
  return queryRows<{ id: number }>(t, sql`select id from messages where channel_message_id = ${channelMessageId}`);
}

beforeAll(async () => {
  // Instagram profile lookups go to a closed port: refused at once, the sender keeps its id as name.
  t = await createTestApp({ whatsappGraphUrl: await graph.start(), instagramGraphUrl: 'http://127.0.0.1:9/v21.0' });
  admin = await t.adminToken();
  const created = await t.call<WhatsappDto>('POST', '/api/whatsapp', {
    token: admin,
    body: {
      name: 'Cloud edges',
      channel: 'cloud-api',
      cloudPhoneNumberId: CLOUD.phoneNumberId,
      cloudBusinessAccountId: CLOUD.businessAccountId,
      cloudAccessToken: CLOUD.accessToken,
      cloudAppSecret: CLOUD.appSecret,
      cloudVerifyToken: 'verify-edge',
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  cloud = created.body;
  for (const [key, value] of [['instagramAppSecret', IG.appSecret], ['instagramVerifyToken', 'verify-ig'], ['instagramAccountId', IG.account], ['instagramAccessToken', 'ig-token']]) {
    expect((await t.call('PUT', `/api/settings/${key}`, { token: admin, body: { value } })).status).toBe(200);
  }
  const instagram = await t.call<WhatsappDto>('POST', '/api/whatsapp', { token: admin, body: { name: 'Instagram edges', channel: 'instagram' } });
  expect(instagram.status, JSON.stringify(instagram.body)).toBeLessThan(300);
  await eventually(async () => t.app.services.sessions.status(cloud.id) === 'CONNECTED' && t.app.services.sessions.status(instagram.body.id) === 'CONNECTED', 5000, 'CONNECTED');
});

afterAll(async () => {
  await t?.close();
  await graph.stop();
});

describe('a signed webhook nested 100,000 deep', () => {
  it('answers 400 ERR_VALIDATION { error, message, issues } on the Cloud API webhook', async () => {
    const res = await postCloud(`{"object":"whatsapp_business_account","entry":${deepArray(100_000)}}`);
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ error: 'ERR_VALIDATION', message: expect.stringContaining('nested deeper'), issues: [{ path: '' }] });
  });

  it('answers 400 ERR_VALIDATION { error, message, issues } on the Instagram webhook', async () => {
    const res = await postInstagram(`{"object":"instagram","entry":${deepArray(100_000)}}`);
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ error: 'ERR_VALIDATION', message: expect.stringContaining('nested deeper'), issues: [{ path: '' }] });
  });
});

describe('a signed webhook with a garbage timestamp', () => {
  it('is refused by the Cloud API webhook (400, naming the field) and nothing is queued or stored', async () => {
    for (const [n, timestamp] of ['garbage', '', '-5', '1e300', '99999999999999999999', 12.5, null, { $gt: 0 }].entries()) {
      const id = `wamid.garbage-${n}-${Date.now()}`;
      const res = await postCloud(JSON.stringify(cloudMessage(id, timestamp)));
      expect(res.statusCode, `timestamp ${JSON.stringify(timestamp)}`).toBe(400);
      expect(JSON.parse(res.body)).toMatchObject({ error: 'ERR_VALIDATION', issues: [{ path: 'entry.0.changes.0.value.messages.0.timestamp' }] });
      expect(await queryRows(t, sql`select id from pgboss.job where name = 'cloud-api.webhook' and data::text like ${`%${id}%`}`)).toEqual([]);
    }
    const status = graph.statusesPayload([{ id: 'wamid.out-1', status: 'delivered', recipient: '15551230000' }]) as { entry: { changes: { value: { statuses: { timestamp: string }[] } }[] }[] };
    status.entry[0]!.changes[0]!.value.statuses[0]!.timestamp = 'soon';
    const refused = await postCloud(JSON.stringify(status));
    expect(refused.statusCode).toBe(400);
    expect(JSON.parse(refused.body)).toMatchObject({ issues: [{ path: 'entry.0.changes.0.value.statuses.0.timestamp' }] });
  });

  it('takes the same message with a real timestamp (200) and stores it', async () => {
    const id = `wamid.good-${Date.now()}`;
    const res = await postCloud(JSON.stringify(cloudMessage(id, String(Math.floor(Date.now() / 1000)))));
    expect(res.statusCode).toBe(200);
    await eventually(async () => (await stored(id)).length === 1, 10_000, 'stored');
  });

  it('is refused by the Instagram webhook (400, naming the field), nothing stored; a real one is taken', async () => {
    for (const [n, timestamp] of ['garbage', '1700000000000', -1, 1e300, Number.MAX_SAFE_INTEGER, 1.5, null, undefined].entries()) {
      const mid = `mid.garbage-${n}-${Date.now()}`;
      const res = await postInstagram(JSON.stringify(instagramMessage(mid, timestamp)));
      if (timestamp === '1700000000000') {
        // A numeric string is still a time in milliseconds: taken.
        expect(res.statusCode).toBe(200);
        continue;
      }
      expect(res.statusCode, `timestamp ${JSON.stringify(timestamp)}`).toBe(400);
      expect(JSON.parse(res.body)).toMatchObject({ error: 'ERR_VALIDATION', issues: [{ path: 'entry.0.messaging.0.timestamp' }] });
      expect(await stored(mid)).toEqual([]);
    }
    const mid = `mid.good-${Date.now()}`;
    const ok = await postInstagram(JSON.stringify(instagramMessage(mid, Date.now())));
    expect(ok.statusCode).toBe(200);
    expect(await stored(mid)).toHaveLength(1);
  });
});
