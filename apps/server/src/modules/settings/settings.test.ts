import { SETTING_KEYS } from '@wadesk/contracts';
import { describe, expect, it } from 'vitest';
import { nextEvent, useTestApp } from '../../test/test-app.js';

const t = useTestApp({ admin: true });

type Setting = { key: string; value: string };
const valueOf = (list: Setting[], key: string) => list.find((s) => s.key === key)?.value;

describe('settings', () => {
  it('seeds every key of the specification with a default and a random API token', async () => {
    const res = await t.call('GET', '/api/settings', { token: t.admin });
    expect(res.status).toBe(200);
    expect((res.body as Setting[]).map((s) => s.key).sort()).toEqual([...SETTING_KEYS].sort());
    expect(valueOf(res.body, 'userCreation')).toBe('disabled');
    expect(valueOf(res.body, 'userApiToken')).toMatch(/^[A-Za-z0-9_-]{32}$/);
  });

  it('keeps the API token across restarts (generated once)', async () => {
    const before = valueOf((await t.call('GET', '/api/settings', { token: t.admin })).body, 'userApiToken');
    await t.app.services.settings.seed();
    const after = valueOf((await t.call('GET', '/api/settings', { token: t.admin })).body, 'userApiToken');
    expect(after).toBe(before);
  });

  it('lets any signed-in user read settings, without secrets', async () => {
    const { token } = await t.createUser();
    const res = await t.call('GET', '/api/settings', { token });
    expect(res.status).toBe(200);
    const keys = (res.body as Setting[]).map((s) => s.key);
    expect(keys).toContain('userCreation');
    expect(keys).not.toContain('userApiToken');
    expect(keys).not.toContain('emailPass');
    expect(keys).not.toContain('vonageApiSecret');
  });

  it('lets an admin update a setting, checking option values', async () => {
    const res = await t.call('PUT', '/api/settings/groups', { token: t.admin, body: { value: 'disabled' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ key: 'groups', value: 'disabled' });
    const bad = await t.call('PUT', '/api/settings/groups', { token: t.admin, body: { value: 'maybe' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('ERR_VALIDATION');
    const stored = await t.call('GET', '/api/settings', { token: t.admin });
    expect(valueOf(stored.body, 'groups')).toBe('disabled');
    const text = await t.call('PUT', '/api/settings/typebotUrl/', { token: t.admin, body: { value: 'http://localhost:3001' } });
    expect(text.status).toBe(200);
  });

  it('never sends a secret back in full, even to an admin (masked; the last two characters of a long one)', async () => {
    const put = await t.call('PUT', '/api/settings/emailPass', { token: t.admin, body: { value: 'a-long-smtp-password-42' } });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ key: 'emailPass', value: '••••••••42' });
    const list = await t.call('GET', '/api/settings', { token: t.admin });
    expect(valueOf(list.body, 'emailPass')).toBe('••••••••42');
    expect(valueOf(list.body, 'vonageApiSecret')).toBe('');
    expect(await t.app.services.settings.value('emailPass')).toBe('a-long-smtp-password-42');
  });

  it('checks the e-mail settings: port, host, addresses and the TLS mode', async () => {
    for (const [key, value] of [
      ['emailPort', '70000'],
      ['emailPort', 'abc'],
      ['emailHost', 'smtp example.com'],
      ['emailFrom', 'not-an-address'],
      ['emailTo', 'a@'],
      ['emailSecure', 'ssl'],
    ]) {
      const res = await t.call('PUT', `/api/settings/${key}`, { token: t.admin, body: { value } });
      expect(res.status, `${key}=${value}`).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
    }
    for (const [key, value] of [
      ['emailPort', '465'],
      ['emailHost', 'smtp.example.com'],
      ['emailFrom', 'desk@example.com'],
      ['emailSecure', 'tls'],
    ]) {
      expect((await t.call('PUT', `/api/settings/${key}`, { token: t.admin, body: { value } })).status, `${key}=${value}`).toBe(200);
    }
  });

  it('refuses an unknown key with ERR_NO_SETTING_FOUND', async () => {
    const res = await t.call('PUT', '/api/settings/nope', { token: t.admin, body: { value: 'x' } });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('ERR_NO_SETTING_FOUND');
  });

  it('never lets PUT overwrite userApiToken; a separate admin call regenerates it', async () => {
    const before = valueOf((await t.call('GET', '/api/settings', { token: t.admin })).body, 'userApiToken');
    const put = await t.call('PUT', '/api/settings/userApiToken', { token: t.admin, body: { value: 'mine' } });
    expect(put.status).toBe(400);
    expect(put.body.error).toBe('ERR_SETTING_READ_ONLY');
    expect(valueOf((await t.call('GET', '/api/settings', { token: t.admin })).body, 'userApiToken')).toBe(before);
    const regen = await t.call('POST', '/api/settings/userApiToken/regenerate', { token: t.admin });
    expect(regen.status).toBe(200);
    expect(regen.body.value).not.toBe(before);
    expect(valueOf((await t.call('GET', '/api/settings', { token: t.admin })).body, 'userApiToken')).toBe(regen.body.value);
  });

  it('is admin only for writes', async () => {
    const { token } = await t.createUser();
    const put = await t.call('PUT', '/api/settings/groups', { token, body: { value: 'enabled' } });
    expect(put.status).toBe(403);
    expect(put.body.error).toBe('ERR_NO_PERMISSION');
    const regen = await t.call('POST', '/api/settings/userApiToken/regenerate', { token });
    expect(regen.status).toBe(403);
  });
});

describe('realtime', () => {
  it('refuses a socket without a valid token', async () => {
    await expect(t.socket('')).rejects.toThrow(/ERR_SESSION_EXPIRED/);
    await expect(t.socket('bad.token.here')).rejects.toThrow(/ERR_SESSION_EXPIRED/);
  });

  it('sends settings events to admins, and only public ones to users', async () => {
    const adminSocket = await t.socket(t.admin);
    const { token } = await t.createUser();
    const userSocket = await t.socket(token);
    const userEvents: Setting[] = [];
    userSocket.on('settings', (e: { setting: Setting }) => userEvents.push(e.setting));

    const adminSecret = nextEvent<{ action: string; setting: Setting }>(adminSocket, 'settings');
    await t.call('PUT', '/api/settings/emailPass', { token: t.admin, body: { value: 'hunter2' } });
    expect(await adminSecret).toEqual({ action: 'update', setting: { key: 'emailPass', value: '••••••••' } });

    const userPublic = nextEvent<{ action: string; setting: Setting }>(userSocket, 'settings');
    await t.call('PUT', '/api/settings/groups', { token: t.admin, body: { value: 'enabled' } });
    expect((await userPublic).setting).toEqual({ key: 'groups', value: 'enabled' });
    expect(userEvents.map((s) => s.key)).toEqual(['groups']);
  });

  it('sends user events to admins and to the user concerned only', async () => {
    const adminSocket = await t.socket(t.admin);
    const a = await t.createUser();
    const b = await t.createUser();
    const aSocket = await t.socket(a.token);
    const bSocket = await t.socket(b.token);
    const bEvents: unknown[] = [];
    bSocket.on('user', (e: unknown) => bEvents.push(e));
    const toAdmin = nextEvent<{ action: string; user: { id: number; name: string } }>(adminSocket, 'user');
    const toA = nextEvent<{ action: string; user: { id: number; name: string } }>(aSocket, 'user');
    await t.call('PUT', `/api/users/${a.user.id}`, { token: a.token, body: { name: 'Live Name' } });
    expect((await toAdmin).user).toMatchObject({ id: a.user.id, name: 'Live Name' });
    expect((await toA).action).toBe('update');
    await new Promise((r) => setTimeout(r, 200));
    expect(bEvents).toEqual([]);
  });
});
