import type { CampaignCreatedResponse, CampaignDto } from '@wadesk/contracts';
import { describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../app.js';
import { connectedSimulator, phoneNumbers } from '../../test/desk-factories.js';
import { eventually } from '../../test/session-helpers.js';
import { ADMIN, createTestApp } from '../../test/test-app.js';

async function call<T>(app: App, method: 'GET' | 'POST', url: string, token?: string, body?: unknown): Promise<T> {
  const res = await app.http.inject({ method, url, payload: body as never, headers: token ? { authorization: `Bearer ${token}` } : {} });
  return JSON.parse(res.body) as T;
}

describe('bulk sends with two server processes on one database (issue 12)', () => {
  it('sends each recipient once when both processes work the campaign jobs', { timeout: 90_000 }, async () => {
    const t = await createTestApp({}, { tempDataDir: true });
    let second: App | undefined;
    try {
      second = await buildApp({ ...t.app.config, nodeId: 'second-process' }, { database: t.app.database, logger: false });
      const connection = await connectedSimulator(t, { name: 'Two processes' });
      const next = phoneNumbers(70_000, 1);
      const list = Array.from({ length: 12 }, () => next());
      const token = await t.adminToken();
      const created = await call<CampaignCreatedResponse>(t.app, 'POST', '/api/campaigns', token, {
        whatsappId: connection.id,
        kind: 'text',
        numbers: list.join('\n'),
        message: 'Dois processos',
        minInterval: 0,
        maxInterval: 0,
      });
      const app2 = second;
      const token2 = (await call<{ token: string }>(app2, 'POST', '/api/auth/login', undefined, ADMIN)).token;
      const done = await eventually(async () => {
        const c = await call<CampaignDto>(app2, 'GET', `/api/campaigns/${created.id}`, token2);
        return c.status === 'done' ? c : null;
      }, 60_000, 'campaign done');
      expect(done).toMatchObject({ sent: 12, failed: 0, unknown: 0 });
      // Whichever process ran the connection's driver sent them: together, each number exactly once, in order.
      // The simulated phone keeps its outbox in the database (issue 33 item 25): both processes show it; each send once by id.
      const sentById = new Map<string, string>();
      for (const [app, tk] of [[t.app, token], [app2, token2]] as const) {
        const outbox = await call<{ id: string; to: string }[]>(app, 'GET', `/api/simulator/${connection.id}/outbox`, tk);
        if (Array.isArray(outbox)) for (const e of outbox) if (list.includes(e.to)) sentById.set(e.id, e.to);
      }
      const sent = [...sentById.values()];
      expect([...sent].sort()).toEqual([...list].sort());
    } finally {
      await second?.close();
      await t.close();
    }
  });
});
