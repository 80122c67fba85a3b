import { ATTENDANT_TOOLS, type CampaignDto } from '@wadesk/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { connectedSimulator } from '../test/desk-factories.js';
import { nextEvent, useTestApp } from '../test/test-app.js';

/**
 * Per-tool access (issue 32, specification §6): every page but users, queues and settings is open to any signed-in
 * user, unless an admin narrows the setting attendantTools. Admins always use every tool.
 */
const t = useTestApp({
  admin: true,
  user: true,
  // The actions and batches started here are stored, never run: a far start delay, an unreachable Graph API.
  config: { groupActionDelayMs: { min: 3_600_000, max: 3_600_000 }, instagramGraphUrl: 'http://127.0.0.1:9/v21.0', providerTimeoutMs: 500 },
});

async function setTools(value: string) {
  const res = await t.call('PUT', '/api/settings/attendantTools', { token: t.admin, body: { value } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

afterEach(async () => {
  await setTools(ATTENDANT_TOOLS.join(','));
});

type Method = 'GET' | 'POST';
/** The main route of each tool with a route (the chatbot's page only reads the settings). */
const MAIN_ROUTES: [tool: string, method: Method, url: string][] = [
  ['bulk', 'GET', '/api/campaigns'],
  ['groups', 'GET', '/api/groups/actions'],
  ['schedules', 'GET', '/api/schedules'],
  ['history', 'GET', '/api/history/imports'],
  ['email', 'POST', '/api/tickets/999999/email'],
  ['instagram', 'GET', '/api/outreach?channel=instagram'],
  ['sms', 'GET', '/api/outreach?channel=sms'],
  ['voice', 'GET', '/api/outreach?channel=voice'],
  ['contactsImport', 'POST', '/api/contacts/import/csv?dryRun=1'],
  ['contactsExport', 'GET', '/api/contacts/export.csv'],
];

async function call(method: Method, url: string, token: string) {
  const res = await t.app.http.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}`, ...(url.includes('/import/csv') ? { 'content-type': 'text/csv' } : {}) },
    payload: method === 'POST' ? (url.includes('/import/csv') ? 'name,number\nAna,5511987650001\n' : {}) : undefined,
  });
  const json = String(res.headers['content-type'] ?? '').includes('json');
  return { status: res.statusCode, error: json ? (JSON.parse(res.body) as { error?: string }).error : undefined };
}

describe('the setting attendantTools', () => {
  it('opens every tool to attendants by default: each main route answers them (no 403)', async () => {
    const settings = await t.call<{ key: string; value: string }[]>('GET', '/api/settings', { token: t.user });
    expect(settings.body.find((s) => s.key === 'attendantTools')?.value).toBe(ATTENDANT_TOOLS.join(','));
    for (const [tool, method, url] of MAIN_ROUTES) {
      const res = await call(method, url, t.user);
      expect(res.status, `${tool}: ${method} ${url}`).not.toBe(403);
      expect(res.status, `${tool}: ${method} ${url}`).toBeLessThan(500);
    }
    // A missing ticket is the e-mail route's own answer: the guard let the attendant through.
    expect(await call('POST', '/api/tickets/999999/email', t.user)).toMatchObject({ status: 404 });
  });

  it('narrowed to bulk,schedules: the other tools answer 403 ERR_NO_PERMISSION to attendants and still answer admins', async () => {
    await setTools('bulk,schedules');
    for (const [tool, method, url] of MAIN_ROUTES) {
      const attendant = await call(method, url, t.user);
      if (tool === 'bulk' || tool === 'schedules') expect(attendant.status, `${tool}: ${url}`).toBe(200);
      else expect([attendant.status, attendant.error], `${tool}: ${url}`).toEqual([403, 'ERR_NO_PERMISSION']);
      const admin = await call(method, url, t.admin);
      if (method === 'GET') expect(admin.status, `admin ${tool}: ${url}`).toBe(200);
      else expect(admin.status, `admin ${tool}: ${url}`).not.toBe(403);
    }
    // The rest of a tool's routes too, not only the main one.
    for (const url of ['/api/groups?whatsappId=1', '/api/groups/actions/1', '/api/history/device', '/api/history/imports/1', '/api/outreach/1']) {
      expect(await call('GET', url, t.user), url).toEqual({ status: 403, error: 'ERR_NO_PERMISSION' });
    }
  });

  it('decides the outreach pages channel by channel: sms open, voice and Instagram closed', async () => {
    await setTools('sms');
    expect((await call('GET', '/api/outreach?channel=sms', t.user)).status).toBe(200);
    for (const channel of ['voice', 'instagram']) {
      expect(await call('GET', `/api/outreach?channel=${channel}`, t.user)).toEqual({ status: 403, error: 'ERR_NO_PERMISSION' });
      const start = await t.call('POST', '/api/outreach', { token: t.user, body: { channel, from: '5511900000000', text: 'Oi', recipients: '5511912340001' } });
      expect([start.status, start.body.error], channel).toEqual([403, 'ERR_NO_PERMISSION']);
    }
  });

  it('refuses an unknown tool name with 400 and keeps the value; takes spaces and an empty list', async () => {
    await setTools('bulk,sms');
    for (const value of ['bulk,teleport', 'Bulk', 'users']) {
      const res = await t.call('PUT', '/api/settings/attendantTools', { token: t.admin, body: { value } });
      expect([res.status, res.body.error], value).toEqual([400, 'ERR_VALIDATION']);
    }
    const stored = await t.call<{ key: string; value: string }[]>('GET', '/api/settings', { token: t.admin });
    expect(stored.body.find((s) => s.key === 'attendantTools')?.value).toBe('bulk,sms');
    await setTools(' schedules , email ');
    expect((await call('GET', '/api/schedules', t.user)).status).toBe(200);
    expect((await call('GET', '/api/campaigns', t.user)).status).toBe(403);
    await setTools('');
    expect((await call('GET', '/api/schedules', t.user)).status).toBe(403);
    expect((await call('GET', '/api/schedules', t.admin)).status).toBe(200);
    // Only admins change it.
    const byUser = await t.call('PUT', '/api/settings/attendantTools', { token: t.user, body: { value: 'bulk' } });
    expect([byUser.status, byUser.body.error]).toEqual([403, 'ERR_NO_PERMISSION']);
  });
});

describe("an attendant's group action, history import and outreach batch", () => {
  it('are seen and cancelled by their author and the admins, not by another attendant (404)', async () => {
    const connection = await connectedSimulator(t);
    await t.call('PUT', '/api/settings/instagramAccountId', { token: t.admin, body: { value: '17841400000000009' } });
    await t.call('PUT', '/api/settings/instagramAccessToken', { token: t.admin, body: { value: 'IGAA-attendant-tools' } });
    const author = await t.createUser();
    const other = await t.createUser();

    const action = await t.call('POST', '/api/groups/actions', { token: author.token, body: { whatsappId: connection.id, action: 'message', message: 'Aviso' } });
    expect(action.status, JSON.stringify(action.body)).toBe(201);
    const historyImport = await t.call('POST', '/api/history/imports', { token: author.token, body: { whatsappId: connection.id, limit: 5 } });
    expect(historyImport.status, JSON.stringify(historyImport.body)).toBe(201);
    const batch = await t.call('POST', '/api/outreach', { token: author.token, body: { channel: 'instagram', text: 'Oi', recipients: '17841400000000111' } });
    expect(batch.status, JSON.stringify(batch.body)).toBe(202);

    const records = [
      { list: '/api/groups/actions', field: 'groupActions', id: action.body.groupAction.id as number, one: '/api/groups/actions/' },
      { list: '/api/history/imports', field: 'historyImports', id: historyImport.body.historyImport.id as number, one: '/api/history/imports/' },
      { list: '/api/outreach?channel=instagram', field: 'batches', id: batch.body.batch.id as number, one: '/api/outreach/' },
    ];
    expect(batch.body.batch.userId).toBe(author.user.id);
    for (const { list, field, id, one } of records) {
      const ids = async (token: string) => ((await t.call('GET', list, { token })).body[field] as { id: number }[]).map((r) => r.id);
      expect(await ids(author.token), list).toContain(id);
      expect(await ids(t.admin), list).toContain(id);
      expect(await ids(other.token), list).not.toContain(id);
      expect((await t.call('GET', `${one}${id}`, { token: author.token })).status, one).toBe(200);
      expect((await t.call('GET', `${one}${id}`, { token: t.admin })).status, one).toBe(200);
      expect((await t.call('GET', `${one}${id}`, { token: other.token })).status, one).toBe(404);
      expect((await t.call('POST', `${one}${id}/cancel`, { token: other.token })).status, one).toBe(404);
    }
    // The author cancels their own group action (an admin could too).
    const cancelled = await t.call('POST', `/api/groups/actions/${records[0]!.id}/cancel`, { token: author.token });
    expect([cancelled.status, cancelled.body.status]).toEqual([200, 'cancelled']);
  });
});

describe("a tool's live progress", () => {
  it("reaches its attendant author while the tool is open to attendants, and admins always", async () => {
    const author = await t.createUser();
    const socket = await t.socket(author.token);
    const admin = await t.socket(t.admin);
    const now = new Date().toISOString();
    const campaign: CampaignDto = {
      id: 1, kind: 'text', status: 'running', whatsappId: 1, whatsappName: 'Sim', userId: author.user.id, userName: null,
      message: 'Promoção', url: null, title: null, path: null, minInterval: 0, maxInterval: 1, template: null, total: 2, sent: 1, failed: 0,
      unknown: 0, invalid: 0, nextSendAt: now, lastError: null, createdAt: now, updatedAt: now, startedAt: now, finishedAt: null,
    };
    const heard = nextEvent(socket, 'campaign');
    t.app.services.events.emit('campaign.updated', { campaign });
    await expect(heard).resolves.toMatchObject({ action: 'update' });

    await setTools('schedules');
    const received: string[] = [];
    socket.onAny((event: string) => received.push(event));
    const adminHeard = nextEvent(admin, 'campaign');
    t.app.services.events.emit('campaign.updated', { campaign: { ...campaign, sent: 2 } });
    await expect(adminHeard).resolves.toMatchObject({ campaign: { sent: 2 } });
    await new Promise((r) => setTimeout(r, 200));
    expect(received).not.toContain('campaign');
  });
});
