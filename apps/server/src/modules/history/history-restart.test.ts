import type { HistoryImportDto, HistoryImportStartedResponse } from '@wadesk/contracts';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../app.js';
import { rowsOf } from '../../db/client.js';
import { connectedSimulator, phoneNumbers } from '../../test/desk-factories.js';
import { eventually } from '../../test/session-helpers.js';
import { ADMIN, createTestApp } from '../../test/test-app.js';
import type { HistoryStepScheduler } from './history.service.js';

async function call<T>(app: App, method: 'GET' | 'POST', url: string, token?: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await app.http.inject({ method, url, payload: body as never, headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.statusCode, body: JSON.parse(res.body) as T };
}

async function signIn(app: App): Promise<string> {
  return (await call<{ token: string }>(app, 'POST', '/api/auth/login', undefined, ADMIN)).body.token;
}

async function storedCount(app: App, whatsappId: number): Promise<number> {
  const rows = rowsOf<{ n: number }>(await app.database.db.execute(sql`select count(*)::int as n from messages where whatsapp_id = ${whatsappId}`));
  return Number(rows[0]!.n);
}

async function finished(app: App, token: string, id: number): Promise<HistoryImportDto> {
  return eventually(async () => {
    const found = (await call<HistoryImportDto>(app, 'GET', `/api/history/imports/${id}`, token)).body;
    return found.status === 'done' ? found : null;
  }, 30_000, `history import ${id} done`);
}

describe('a history import across a restart (issue 14)', () => {
  it('is continued by the next process from the device history kept in the database, every message stored once', { timeout: 120_000 }, async () => {
    const t = await createTestApp({}, { tempDataDir: true });
    let second: App | undefined;
    try {
      const connection = await connectedSimulator(t, { name: 'Restart' });
      const token = await t.adminToken();
      const next = phoneNumbers(90_000, 1);
      const base = Date.parse('2023-07-01T09:00:00.000Z');
      const messages = [0, 1, 2].flatMap((c) => {
        const number = next();
        return Array.from({ length: 10 }, (_, i) => ({ id: `R-${number}-${i}`, chat: number, fromMe: i % 3 === 0, body: `m${i}`, timestamp: base + (c * 100 + i) * 60_000 }));
      });
      expect((await call(t.app, 'POST', `/api/simulator/${connection.id}/history`, token, { messages })).status).toBe(201);

      // The process imports one chat, then dies before queueing the next step.
      const history = t.app.services.history;
      const original = Reflect.get(history, 'scheduleStep') as HistoryStepScheduler;
      history.useScheduler(async () => '00000000-0000-0000-0000-000000000000');
      const started = await call<HistoryImportStartedResponse>(t.app, 'POST', '/api/history/imports', token, { whatsappId: connection.id, limit: 10 });
      expect(started.status).toBe(201);
      const id = started.body.historyImport.id;
      const [row] = rowsOf<{ chain: string }>(await t.app.database.db.execute(sql`select chain from history_imports where id = ${id}`));
      await history.step(id, row!.chain);
      history.useScheduler(original);
      expect(await storedCount(t.app, connection.id)).toBe(10);
      await t.app.close(); // the database stays open: the next process uses it

      second = await buildApp({ ...t.app.config, nodeId: 'after-restart' }, { database: t.app.database, logger: false });
      const app = second;
      const adminToken = await signIn(app);
      // Minutes later, the watchdog (cron every minute) finds the import overdue.
      await app.database.db.execute(sql`update history_imports set next_run_at = next_run_at - interval '10 minutes' where id = ${id}`);
      await app.services.history.recoverOverdue();
      expect(await finished(app, adminToken, id)).toMatchObject({ chatsTotal: 3, chatsDone: 3, messagesImported: 30 });
      expect(await storedCount(app, connection.id)).toBe(30);

      // Running it again after the restart adds nothing.
      const again = await call<HistoryImportStartedResponse>(app, 'POST', '/api/history/imports', adminToken, { whatsappId: connection.id, limit: 10 });
      expect(await finished(app, adminToken, again.body.historyImport.id)).toMatchObject({ messagesImported: 0, messagesSkipped: 30 });
      expect(await storedCount(app, connection.id)).toBe(30);
    } finally {
      await second?.close();
      await t.app.database.close();
    }
  });
});
