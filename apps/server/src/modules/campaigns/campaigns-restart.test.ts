import type { CampaignCreatedResponse, CampaignDto } from '@wadesk/contracts';
import { describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../app.js';
import { connectedSimulator, phoneNumbers } from '../../test/desk-factories.js';
import { eventually } from '../../test/session-helpers.js';
import { ADMIN, createTestApp } from '../../test/test-app.js';

async function call<T>(app: App, method: 'GET' | 'POST', url: string, token?: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await app.http.inject({ method, url, payload: body as never, headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.statusCode, body: JSON.parse(res.body) as T };
}

async function signIn(app: App): Promise<string> {
  return (await call<{ token: string }>(app, 'POST', '/api/auth/login', undefined, ADMIN)).body.token;
}

/** The simulated phone's sends to `list`, by id (its outbox is kept in the database across a restart, issue 33 item 25). */
async function sentTo(app: App, token: string, whatsappId: number, list: string[]): Promise<Map<string, string>> {
  const entries = (await call<{ id: string; to: string }[]>(app, 'GET', `/api/simulator/${whatsappId}/outbox`, token)).body;
  return new Map(entries.filter((e) => list.includes(e.to)).map((e) => [e.id, e.to]));
}

describe('a bulk send across a restart (issue 12)', () => {
  it('finishes a campaign interrupted by stopping the app and starting it again, every recipient sent once', { timeout: 120_000 }, async () => {
    const t = await createTestApp({}, { tempDataDir: true });
    let second: App | undefined;
    try {
      const connection = await connectedSimulator(t, { name: 'Restart' });
      const next = phoneNumbers(50_000, 1);
      const list = Array.from({ length: 8 }, () => next());
      const token = await t.adminToken();
      const created = await call<CampaignCreatedResponse>(t.app, 'POST', '/api/campaigns', token, {
        whatsappId: connection.id,
        kind: 'text',
        numbers: list.join('\n'),
        message: 'Depois do reinício',
        minInterval: 0,
        maxInterval: 1,
      });
      expect(created.status).toBe(201);
      const id = created.body.id;
      await eventually(async () => (await call<CampaignDto>(t.app, 'GET', `/api/campaigns/${id}`, token)).body.sent >= 2, 20_000, 'two sends');
      const before = await sentTo(t.app, token, connection.id, list);
      expect(before.size).toBeLessThan(8);
      await t.app.close(); // the database stays open: the next process uses it

      second = await buildApp({ ...t.app.config, nodeId: 'after-restart' }, { database: t.app.database, logger: false });
      const app = second;
      const adminToken = await signIn(app);
      const done = await eventually(async () => {
        const c = (await call<CampaignDto>(app, 'GET', `/api/campaigns/${id}`, adminToken)).body;
        return c.status === 'done' ? c : null;
      }, 60_000, 'campaign done after the restart');
      const after = await sentTo(app, adminToken, connection.id, list);
      // Every send once, in list order: the ones before the restart, then the rest.
      expect([...new Map([...before, ...after]).values()]).toEqual(list);
      expect(done).toMatchObject({ sent: 8, failed: 0, unknown: 0 });
    } finally {
      await second?.close();
      await t.app.database.close();
    }
  });
});
