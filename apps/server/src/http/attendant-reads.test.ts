import path from 'node:path';
import type { WhatsappDto } from '@wadesk/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeGraphServer } from '../test/fakes/cloud-api-server.js';
import { connectedSimulator } from '../test/desk-factories.js';
import { eventually } from '../test/session-helpers.js';
import { createTestApp, type TestApp } from '../test/test-app.js';

/**
 * What an attendant (profile `user`) reads holds no absolute server path, no Cloud API verify token and no SMTP
 * login (issue 31 item 9): the settings, the connections, the bulk sends. Admins still read them.
 */

const CREDENTIALS = { phoneNumberId: '106540352242933', businessAccountId: '102290129340311', accessToken: 'EAAG-attendant-reads-1234', appSecret: 'app-secret-reads' };
const VERIFY_TOKEN = 'verify-token-for-meta-only';
const EMAIL_USER = 'smtp-login@desk.example';
const SMTP_HOST = 'smtp.internal.example';

const graph = new FakeGraphServer({ ...CREDENTIALS, displayPhoneNumber: '+1 555-010-0001' });
let t: TestApp;
let admin: string;
let attendant: string;
let cloud: WhatsappDto;
let bulkFolder: string;

beforeAll(async () => {
  t = await createTestApp({ whatsappGraphUrl: await graph.start() }, { tempDataDir: true });
  admin = await t.adminToken();
  attendant = (await t.createUser()).token;
  await connectedSimulator(t, { name: 'Simulated' });
  const res = await t.call<WhatsappDto>('POST', '/api/whatsapp', {
    token: admin,
    body: {
      name: 'Cloud reads',
      channel: 'cloud-api',
      cloudPhoneNumberId: CREDENTIALS.phoneNumberId,
      cloudBusinessAccountId: CREDENTIALS.businessAccountId,
      cloudAccessToken: CREDENTIALS.accessToken,
      cloudAppSecret: CREDENTIALS.appSecret,
      cloudVerifyToken: VERIFY_TOKEN,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  cloud = res.body;
  bulkFolder = path.join(t.app.config.dataDir, 'bulk-media');
  for (const [key, value] of [['emailUser', EMAIL_USER], ['emailHost', SMTP_HOST], ['bulkMediaFolder', bulkFolder]] as const) {
    expect((await t.call('PUT', `/api/settings/${key}`, { token: admin, body: { value } })).status, key).toBe(200);
  }
});

afterAll(async () => {
  await t?.close();
  await graph.stop();
});

/** Everything an attendant reads of the connections, the settings and the bulk sends, as one text. */
async function attendantReads(token: string): Promise<string> {
  const urls = ['/api/settings', '/api/whatsapp', `/api/whatsapp/${cloud.id}`, '/api/campaigns', '/api/campaigns/media-folder'];
  const answers = await Promise.all(urls.map((url) => t.call('GET', url, { token })));
  for (const [i, answer] of answers.entries()) expect(answer.status, urls[i]).toBe(200);
  return JSON.stringify(answers.map((a) => a.body));
}

describe('what an attendant reads', () => {
  it('holds no absolute server path, no Cloud API verify token, no SMTP login or host', async () => {
    const text = await attendantReads(attendant);
    for (const secret of [VERIFY_TOKEN, EMAIL_USER, SMTP_HOST, t.app.config.dataDir, bulkFolder]) expect(text).not.toContain(secret);
  });

  it('leaves out the admins-only settings and a connection\'s Cloud API settings', async () => {
    const settings = (await t.call<{ key: string }[]>('GET', '/api/settings', { token: attendant })).body.map((s) => s.key);
    for (const key of ['emailUser', 'emailHost', 'emailPort', 'bulkMediaFolder', 'emailPass', 'instagramVerifyToken']) expect(settings).not.toContain(key);
    // What the attendant's pages need stays readable.
    for (const key of ['userCreation', 'emailTo', 'typebot', 'typebotUrl', 'timeCreateNewTicket']) expect(settings).toContain(key);
    const connection = (await t.call<WhatsappDto>('GET', `/api/whatsapp/${cloud.id}`, { token: attendant })).body;
    expect(connection).toMatchObject({ id: cloud.id, channel: 'cloud-api', name: 'Cloud reads' });
    expect(connection.cloud).toBeUndefined();
  });

  it('is the whole picture for an admin: the verify token, the SMTP login and the folder\'s path', async () => {
    const text = await attendantReads(admin);
    for (const value of [VERIFY_TOKEN, EMAIL_USER, SMTP_HOST, bulkFolder]) expect(text).toContain(value);
  });

  it('sends an attendant no `settings` event for an admins-only setting', async () => {
    const socket = await t.socket(attendant);
    const seen: string[] = [];
    socket.on('settings', (e: { setting: { key: string } }) => seen.push(e.setting.key));
    await t.call('PUT', '/api/settings/emailUser', { token: admin, body: { value: 'another-login@desk.example' } });
    await t.call('PUT', '/api/settings/groups', { token: admin, body: { value: 'enabled' } });
    // Events reach a socket in order: once the later one is here, the earlier one would have been.
    await eventually(async () => (seen.includes('groups') ? true : null), 5_000, 'the groups setting event');
    expect(seen).not.toContain('emailUser');
  });

  it('sends an attendant a saved connection without its Cloud API settings (the verify token)', async () => {
    const socket = await t.socket(attendant);
    const seen: WhatsappDto[] = [];
    socket.on('whatsapp', (e: { action: string; whatsapp?: WhatsappDto }) => {
      if (e.whatsapp) seen.push(e.whatsapp);
    });
    expect((await t.call('PUT', `/api/whatsapp/${cloud.id}`, { token: admin, body: { name: 'Cloud reads 2' } })).status).toBe(200);
    const event = await eventually(async () => seen.find((w) => w.id === cloud.id) ?? null, 5_000, 'the connection event');
    expect(event.name).toBe('Cloud reads 2');
    expect(event.cloud).toBeUndefined();
    expect(JSON.stringify(seen)).not.toContain(VERIFY_TOKEN);
  });
});
