import type { CampaignCreatedResponse, CampaignDto, CampaignRecipientListResponse, ScheduleDto, WhatsappDto } from '@wadesk/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectedSimulator, queryRows } from '../../test/desk-factories.js';
import { FakeGraphServer } from '../../test/fakes/cloud-api-server.js';
import { eventually } from '../../test/session-helpers.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

// Issue 18: bulk sends and scheduled messages on a cloud-api connection go out as approved templates.
const CREDENTIALS = {
  phoneNumberId: '106540352242955',
  businessAccountId: '102290129340377',
  accessToken: 'EAAG-bulk-access-token-4321',
  appSecret: 'app-secret-8765',
};
const graph = new FakeGraphServer({ ...CREDENTIALS, displayPhoneNumber: '+1 555-010-0001' });
const TEMPLATE = { name: 'order_update', language: 'en_US', variables: ['Ana', '#1042'] };
let t: TestApp;
let admin: string;
let cloud: WhatsappDto;
let simulator: WhatsappDto;
let seq = 0;

function customer(): string {
  seq += 1;
  return `1555987${String(seq).padStart(4, '0')}`;
}

async function count(table: 'campaigns' | 'schedules'): Promise<number> {
  const [row] = await queryRows<{ n: number }>(t, sql`select count(*)::int as n from ${sql.identifier(table)}`);
  return Number(row!.n);
}

beforeAll(async () => {
  const graphUrl = await graph.start();
  t = await createTestApp({ whatsappGraphUrl: graphUrl, scheduleConnectionWaitMs: 0 }, { tempDataDir: true });
  admin = await t.adminToken();
  const res = await t.call<WhatsappDto>('POST', '/api/whatsapp', {
    token: admin,
    body: {
      name: 'Cloud bulk',
      channel: 'cloud-api',
      cloudPhoneNumberId: CREDENTIALS.phoneNumberId,
      cloudBusinessAccountId: CREDENTIALS.businessAccountId,
      cloudAccessToken: CREDENTIALS.accessToken,
      cloudAppSecret: CREDENTIALS.appSecret,
      cloudVerifyToken: 'verify-bulk',
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  cloud = res.body;
  await eventually(async () => t.app.services.sessions.status(cloud.id) === 'CONNECTED', 5000, 'CONNECTED');
  simulator = await connectedSimulator(t, { name: 'Simulated bulk' });
});

afterAll(async () => {
  await t?.close();
  await graph.stop();
});

describe('cloud api: bulk sends as templates', () => {
  it('sends a 3-number bulk send as 3 template messages with the variables, paced by the campaign pauses', { timeout: 60_000 }, async () => {
    const list = [customer(), customer(), customer()];
    const res = await t.call<CampaignCreatedResponse>('POST', '/api/campaigns', {
      token: admin,
      body: { whatsappId: cloud.id, kind: 'text', numbers: list.join('\n'), template: TEMPLATE, minInterval: 1, maxInterval: 1 },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ total: 3, invalid: [] });
    const done = await eventually(async () => {
      const c = (await t.call<CampaignDto>('GET', `/api/campaigns/${res.body.id}`, { token: admin })).body;
      return c.status === 'done' ? c : null;
    }, 40_000, 'campaign done');
    expect(done).toMatchObject({ sent: 3, failed: 0, message: null, template: TEMPLATE });

    const sent = graph.sent.filter((m) => list.includes(m.to));
    expect(sent.map((m) => m.to)).toEqual(list);
    for (const m of sent) {
      expect(m.type).toBe('template');
      expect(m.body.template).toEqual({
        name: 'order_update',
        language: { code: 'en_US' },
        components: [{ type: 'body', parameters: [{ type: 'text', text: 'Ana' }, { type: 'text', text: '#1042' }] }],
      });
    }
    // The pacing still holds: a pause after each send and one before the next (1 s each here).
    const recipients = (await t.call<CampaignRecipientListResponse>('GET', `/api/campaigns/${res.body.id}/recipients`, { token: admin })).body.recipients;
    const times = recipients.map((r) => Date.parse(r.sentAt!));
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(1900);
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(1900);
  });

  it('refuses a bulk send without a template on a cloud-api connection (ERR_CLOUD_API_TEMPLATE_REQUIRED, nothing stored)', async () => {
    const before = await count('campaigns');
    const res = await t.call('POST', '/api/campaigns', {
      token: admin,
      body: { whatsappId: cloud.id, kind: 'text', numbers: customer(), message: 'Free text', minInterval: 0, maxInterval: 0 },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_CLOUD_API_TEMPLATE_REQUIRED');
    const media = await t.call('POST', '/api/campaigns', {
      token: admin,
      body: { whatsappId: cloud.id, kind: 'audio', numbers: customer(), url: 'https://example.com/a.ogg', minInterval: 0, maxInterval: 0 },
    });
    expect(media.status).toBe(400);
    expect(media.body.error).toBe('ERR_CLOUD_API_TEMPLATE_REQUIRED');
    expect(await count('campaigns')).toBe(before);
  });

  it('refuses a template on a simulator connection, and a template on a media send (400, nothing stored)', async () => {
    const before = await count('campaigns');
    const res = await t.call('POST', '/api/campaigns', {
      token: admin,
      body: { whatsappId: simulator.id, kind: 'text', numbers: customer(), template: TEMPLATE, minInterval: 0, maxInterval: 0 },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_CLOUD_API_TEMPLATE_NOT_ALLOWED');
    const media = await t.call('POST', '/api/campaigns', {
      token: admin,
      body: { whatsappId: cloud.id, kind: 'audio', numbers: customer(), url: 'https://example.com/a.ogg', template: TEMPLATE, minInterval: 0, maxInterval: 0 },
    });
    expect(media.status).toBe(400);
    expect(media.body.error).toBe('ERR_VALIDATION');
    expect(await count('campaigns')).toBe(before);
  });
});

describe('cloud api: scheduled messages as templates', () => {
  it('sends a scheduled template at its time into the contact ticket, with its body filled in', { timeout: 30_000 }, async () => {
    const number = customer();
    const sendAt = new Date(Date.now() + 1500).toISOString();
    const res = await t.call<ScheduleDto>('POST', '/api/schedules', { token: admin, body: { whatsappId: cloud.id, number, sendAt, template: TEMPLATE } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ status: 'scheduled', body: '', mediaUrl: null, template: TEMPLATE });
    const done = await eventually(async () => {
      const s = (await t.call<ScheduleDto>('GET', `/api/schedules/${res.body.id}`, { token: admin })).body;
      return s.status !== 'scheduled' && s.status !== 'sending' ? s : null;
    }, 20_000, 'schedule settled');
    expect(done.status, done.error ?? '').toBe('sent');
    expect(Date.parse(done.sentAt!)).toBeGreaterThanOrEqual(Date.parse(sendAt));
    const sent = graph.sent.filter((m) => m.to === number);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ type: 'template' });
    expect(sent[0]!.body.template).toMatchObject({ name: 'order_update', language: { code: 'en_US' } });
    const [message] = await queryRows<{ body: string }>(t, sql`select body from messages where id = ${done.messageId}`);
    expect(message!.body).toBe('Hello Ana, your order #1042 is on its way.');
  });

  it('refuses a schedule without a template on cloud-api, and one with a template on a simulator (400, nothing stored)', async () => {
    const before = await count('schedules');
    const sendAt = new Date(Date.now() + 3_600_000).toISOString();
    const missing = await t.call('POST', '/api/schedules', { token: admin, body: { whatsappId: cloud.id, number: customer(), sendAt, body: 'Free text' } });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('ERR_CLOUD_API_TEMPLATE_REQUIRED');
    const refused = await t.call('POST', '/api/schedules', { token: admin, body: { whatsappId: simulator.id, number: customer(), sendAt, template: TEMPLATE } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('ERR_CLOUD_API_TEMPLATE_NOT_ALLOWED');
    expect(await count('schedules')).toBe(before);
  });

  it('keeps the rule when a schedule moves to another connection', async () => {
    const sendAt = new Date(Date.now() + 3_600_000).toISOString();
    const created = await t.call<ScheduleDto>('POST', '/api/schedules', { token: admin, body: { whatsappId: simulator.id, number: customer(), sendAt, body: 'Lembrete' } });
    expect(created.status).toBe(201);
    const moved = await t.call('PUT', `/api/schedules/${created.body.id}`, { token: admin, body: { whatsappId: cloud.id } });
    expect(moved.status).toBe(400);
    expect(moved.body.error).toBe('ERR_CLOUD_API_TEMPLATE_REQUIRED');
    const withTemplate = await t.call<ScheduleDto>('PUT', `/api/schedules/${created.body.id}`, { token: admin, body: { whatsappId: cloud.id, template: TEMPLATE } });
    expect(withTemplate.status, JSON.stringify(withTemplate.body)).toBe(200);
    expect(withTemplate.body).toMatchObject({ whatsappId: cloud.id, body: '', template: TEMPLATE });
    await t.call('DELETE', `/api/schedules/${created.body.id}`, { token: admin });
  });
});
