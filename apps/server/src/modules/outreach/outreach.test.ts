import { generateKeyPairSync } from 'node:crypto';
import type { OutreachDetailResponse } from '@wadesk/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeOutreachServer, OUTREACH_DROPPED, OUTREACH_REFUSED, OUTREACH_SERVER_ERROR, OUTREACH_SILENT } from '../../test/fakes/outreach-server.js';
import { withAttendantTools } from '../../test/desk-factories.js';
import { eventually } from '../../test/session-helpers.js';
import { useTestApp } from '../../test/test-app.js';

const { privateKey, publicKey } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
});
const API_KEY = 'vonage-key';
const API_SECRET = 'vonage-secret-123';
const APP_ID = 'a1b2c3d4-0000-4000-8000-000000000001';
const IG_ACCOUNT = '17841400000000001';
const IG_TOKEN = 'IGAA-test-token-xyz';

/** Vonage's SMS and Voice APIs and the Graph API on loopback (test/fakes/outreach-server.ts). */
const fake = new FakeOutreachServer({
  apiKey: API_KEY,
  apiSecret: API_SECRET,
  applicationId: APP_ID,
  publicKey,
  instagramAccountId: IG_ACCOUNT,
  instagramToken: IG_TOKEN,
});
const base = await fake.start();
const received = fake.received;

const t = useTestApp({
  admin: true,
  config: { vonageRestUrl: base, vonageApiUrl: base, instagramGraphUrl: `${base}/v21.0`, outreachPauseMs: 0, instagramPauseMs: { min: 0, max: 0 }, providerTimeoutMs: 1000 },
});
let apiToken = '';

async function setting(key: string, value: string) {
  const res = await t.call('PUT', `/api/settings/${key}`, { token: t.admin, body: { value } });
  expect(res.status, `${key}: ${JSON.stringify(res.body)}`).toBe(200);
}

async function finished(id: number): Promise<OutreachDetailResponse> {
  return eventually(async () => {
    const res = await t.call<OutreachDetailResponse>('GET', `/api/outreach/${id}`, { token: t.admin });
    return res.body.batch.status === 'done' ? res.body : null;
  }, 15_000, `batch ${id} done`);
}

beforeAll(async () => {
  const settings = await t.call<{ key: string; value: string }[]>('GET', '/api/settings', { token: t.admin });
  apiToken = settings.body.find((s) => s.key === 'userApiToken')!.value;
});
afterAll(async () => {
  await fake.stop();
});
beforeEach(async () => {
  received.length = 0;
  await setting('vonageApiKey', API_KEY);
  await setting('vonageApiSecret', API_SECRET);
  await setting('vonageApiId', APP_ID);
  await setting('vonagePrivateKey', privateKey.replace(/\n/g, ' '));
  await setting('instagramAccountId', IG_ACCOUNT);
  await setting('instagramAccessToken', IG_TOKEN);
});

describe('SMS through Vonage', () => {
  it('sends a batch one by one, keeping each recipient\'s message id or the provider\'s reason', async () => {
    const res = await t.call<{ batch: { id: number; total: number; status: string } }>('POST', '/api/outreach', {
      token: t.admin,
      body: { channel: 'sms', from: 'WaDesk', text: 'Sua consulta é amanhã', recipients: `+55 11 91234-0001\n5511912340002\n\n${OUTREACH_REFUSED}\n5511912340002` },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body.batch).toMatchObject({ total: 3 });
    const done = await finished(res.body.batch.id);
    expect(done.batch).toMatchObject({ done: 2, failed: 1, unknown: 0 });
    expect(done.items.map((i) => [i.recipient, i.status, i.providerId?.startsWith('sms-') ?? false, i.error])).toEqual([
      ['5511912340001', 'sent', true, null],
      ['5511912340002', 'sent', true, null],
      [OUTREACH_REFUSED, 'failed', false, 'Status 6: Unroutable message - rejected'],
    ]);
    const sms = received.filter((r) => r.path === '/sms/json');
    expect(sms.map((r) => [r.body.from, r.body.to, r.body.text])).toEqual([
      ['WaDesk', '5511912340001', 'Sua consulta é amanhã'],
      ['WaDesk', '5511912340002', 'Sua consulta é amanhã'],
      ['WaDesk', OUTREACH_REFUSED, 'Sua consulta é amanhã'],
    ]);
  });

  it('records wrong credentials, a 5xx, a dropped connection and a timeout per recipient', async () => {
    await setting('vonageApiSecret', 'wrong-secret');
    const bad = await t.call<{ batch: { id: number } }>('POST', '/api/outreach', { token: t.admin, body: { channel: 'sms', from: '5511900000000', text: 'x', recipients: '5511912340010' } });
    expect((await finished(bad.body.batch.id)).items[0]).toMatchObject({ status: 'failed', error: 'Status 4: Bad Credentials' });
    await setting('vonageApiSecret', API_SECRET);
    const res = await t.call<{ batch: { id: number } }>('POST', '/api/outreach', {
      token: t.admin,
      body: { channel: 'sms', from: '5511900000000', text: 'x', recipients: [OUTREACH_SERVER_ERROR, OUTREACH_DROPPED, OUTREACH_SILENT].join('\n') },
    });
    const done = await finished(res.body.batch.id);
    expect(done.items.map((i) => i.status)).toEqual(['failed', 'failed', 'unknown']);
    expect(done.items[0]!.error).toContain('500');
    expect(done.items[0]!.error).toContain('Internal Error');
    expect(done.items[2]!.error).toMatch(/No answer/);
    expect(done.batch).toMatchObject({ done: 0, failed: 2, unknown: 1 });
  });

  it('refuses bad lines, a missing sender and missing settings before storing anything', async () => {
    const before = (await t.call<{ batches: unknown[] }>('GET', '/api/outreach?channel=sms', { token: t.admin })).body.batches.length;
    const lines = await t.call('POST', '/api/outreach', { token: t.admin, body: { channel: 'sms', from: 'WaDesk', text: 'x', recipients: '5511912340001\nabc\n12' } });
    expect(lines.status).toBe(400);
    expect(lines.body.error).toBe('ERR_OUTREACH_RECIPIENTS');
    expect(lines.body.message).toContain('Line 2, 3');
    const noFrom = await t.call('POST', '/api/outreach', { token: t.admin, body: { channel: 'sms', text: 'x', recipients: '5511912340001' } });
    expect(noFrom.status).toBe(400);
    await setting('vonageApiKey', '');
    const unset = await t.call('POST', '/api/outreach', { token: t.admin, body: { channel: 'sms', from: 'WaDesk', text: 'x', recipients: '5511912340001' } });
    expect(unset.status).toBe(400);
    expect(unset.body.error).toBe('ERR_PROVIDER_NOT_CONFIGURED');
    expect(unset.body.message).toContain('vonageApiKey');
    expect(unset.body.issues).toMatchObject([{ path: 'vonageApiKey', code: 'settingMissing' }, { path: 'vonageApiSecret', code: 'settingMissing' }]);
    const list = await t.call<{ batches: unknown[] }>('GET', '/api/outreach?channel=sms', { token: t.admin });
    expect(list.body.batches).toHaveLength(before);
    expect(received).toEqual([]);
  });

  it('/sendSms {from, to, token, text} answers 202 with the job', async () => {
    const res = await t.call<{ jobId: string; outreachId: number }>('POST', '/api/sendSms', { body: { from: 'WaDesk', to: '5511912340020', text: 'Olá', token: apiToken } });
    expect(res.status).toBe(202);
    expect(res.body.jobId).toBeTruthy();
    expect((await finished(res.body.outreachId)).items[0]).toMatchObject({ recipient: '5511912340020', status: 'sent' });
    const anonymous = await t.call('POST', '/api/sendSms', { body: { from: 'WaDesk', to: '5511912340020', text: 'Olá' } });
    expect(anonymous.status).toBe(401);
  });

  it('is refused to attendants (403) while attendantTools leaves the channel out', async () => {
    const { token } = await t.createUser();
    await withAttendantTools(t, 'voice,instagram', async () => {
      expect((await t.call('POST', '/api/outreach', { token, body: { channel: 'sms', from: 'WaDesk', text: 'x', recipients: '5511912340001' } })).status).toBe(403);
      expect((await t.call('GET', '/api/outreach?channel=sms', { token })).status).toBe(403);
      expect((await t.call('GET', '/api/outreach?channel=voice', { token })).status).toBe(200);
    });
    expect((await t.call('GET', '/api/outreach?channel=sms', { token })).status).toBe(200);
  });
});

describe('voice calls through Vonage', () => {
  it('calls with a JWT of the application and a talk NCCO in the language chosen', async () => {
    const res = await t.call<{ batch: { id: number } }>('POST', '/api/outreach', {
      token: t.admin,
      body: { channel: 'voice', from: '5511900000000', text: 'Sua consulta é amanhã às 10 horas', language: 'pt-BR', recipients: `5511912340030\n${OUTREACH_REFUSED}` },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const done = await finished(res.body.batch.id);
    expect(done.items.map((i) => [i.status, i.providerId?.startsWith('call-') ?? false])).toEqual([
      ['sent', true],
      ['failed', false],
    ]);
    expect(done.items[1]!.error).toBe('400: Bad Request — Invalid to number');
    const call = received.find((r) => r.path === '/v1/calls')!;
    expect(call.body).toEqual({
      to: [{ type: 'phone', number: '5511912340030' }],
      from: { type: 'phone', number: '5511900000000' },
      ncco: [{ action: 'talk', text: 'Sua consulta é amanhã às 10 horas', language: 'pt-BR' }],
    });
  });

  it('fails each call with the reason when the key does not match the application; /makeVoiceCall answers 202', async () => {
    const other = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
    // Pasted into a one-line field: its line breaks dropped (the key is read back into PEM lines).
    await setting('vonagePrivateKey', other.privateKey.replace(/\n/g, ''));
    const res = await t.call<{ jobId: string; outreachId: number }>('POST', '/api/makeVoiceCall', { body: { from: '5511900000000', to: '5511912340031', text: 'Oi', token: apiToken } });
    expect(res.status).toBe(202);
    expect((await finished(res.body.outreachId)).items[0]).toMatchObject({ status: 'failed', error: '401: Unauthorized — Invalid Token' });
  });

  it('checks the settings: a PEM private key, a UUID application id, a numeric Instagram account id', async () => {
    for (const [key, value] of [
      ['vonagePrivateKey', 'not a key'],
      ['vonageApiId', 'my-app'],
      ['instagramAccountId', 'acme_store'],
    ]) {
      const res = await t.call('PUT', `/api/settings/${key}`, { token: t.admin, body: { value } });
      expect(res.status, key).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
    }
  });
});

describe('Instagram direct through the Graph API', () => {
  it('sends to two recipients with the access token; the refusal of one is kept with its reason', async () => {
    const res = await t.call<{ batch: { id: number } }>('POST', '/api/outreach', {
      token: t.admin,
      body: { channel: 'instagram', text: 'Promoção de hoje!', recipients: '1784100001\n99999\n1784100002' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const done = await finished(res.body.batch.id);
    expect(done.items.map((i) => [i.recipient, i.status, i.error])).toEqual([
      ['1784100001', 'sent', null],
      ['99999', 'failed', "400: (#551) This person isn't available right now."],
      ['1784100002', 'sent', null],
    ]);
    const graph = received.filter((r) => r.path.endsWith('/messages'));
    expect(graph.map((r) => [r.path, r.auth, r.body])).toEqual([
      [`/v21.0/${IG_ACCOUNT}/messages`, `Bearer ${IG_TOKEN}`, { recipient: { id: '1784100001' }, message: { text: 'Promoção de hoje!' } }],
      [`/v21.0/${IG_ACCOUNT}/messages`, `Bearer ${IG_TOKEN}`, { recipient: { id: '99999' }, message: { text: 'Promoção de hoje!' } }],
      [`/v21.0/${IG_ACCOUNT}/messages`, `Bearer ${IG_TOKEN}`, { recipient: { id: '1784100002' }, message: { text: 'Promoção de hoje!' } }],
    ]);
  });

  it('a dropped connection fails the recipient; no answer in time makes it unknown (never sent again)', async () => {
    const res = await t.call<{ batch: { id: number } }>('POST', '/api/outreach', { token: t.admin, body: { channel: 'instagram', text: 'Oi', recipients: `${OUTREACH_DROPPED}\n${OUTREACH_SILENT}` } });
    const done = await finished(res.body.batch.id);
    expect(done.items.map((i) => i.status)).toEqual(['failed', 'unknown']);
    expect(done.items[0]!.error).toMatch(/could not be reached|fetch failed|socket/i);
    expect(done.items[1]!.error).toMatch(/No answer/);
  });

  it('/sendDirect {userIg, message, token}: an expired token is the reason shown', async () => {
    await setting('instagramAccessToken', 'expired');
    const res = await t.call<{ outreachId: number }>('POST', '/api/sendDirect', { body: { userIg: '1784100003', message: 'Oi', token: apiToken } });
    expect(res.status).toBe(202);
    expect((await finished(res.body.outreachId)).items[0]).toMatchObject({ status: 'failed', error: '401: Invalid OAuth access token - Cannot parse access token' });
  });

  it('never sends the access token back', async () => {
    const list = await t.call<{ key: string; value: string }[]>('GET', '/api/settings', { token: t.admin });
    expect(list.body.find((s) => s.key === 'instagramAccessToken')!.value).toBe('••••••••yz');
    expect(JSON.stringify(list.body)).not.toContain(IG_TOKEN);
    expect(JSON.stringify(list.body)).not.toContain('PRIVATE KEY');
  });
});
