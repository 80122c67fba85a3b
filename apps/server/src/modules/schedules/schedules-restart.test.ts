import type { ScheduleDto } from '@wadesk/contracts';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../app.js';
import { connectedSimulator, phoneNumbers } from '../../test/desk-factories.js';
import { eventually } from '../../test/session-helpers.js';
import { ADMIN, createTestApp } from '../../test/test-app.js';

async function call<T>(app: App, method: 'GET' | 'POST', url: string, token?: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await app.http.inject({ method, url, payload: body as never, headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.statusCode, body: JSON.parse(res.body) as T };
}

async function sentTo(app: App, token: string, whatsappId: number, number: string): Promise<string[]> {
  return (await call<{ to: string; body: string }[]>(app, 'GET', `/api/simulator/${whatsappId}/outbox?to=${number}`, token)).body.map((e) => e.body);
}

describe('scheduled messages across a restart (issue 14)', () => {
  it('sends at once, marked late, a message that fell due while the app was stopped; exactly once', { timeout: 120_000 }, async () => {
    const t = await createTestApp({}, { tempDataDir: true });
    let second: App | undefined;
    try {
      const connection = await connectedSimulator(t, { name: 'Reinício' });
      const number = phoneNumbers(82_000, 1)();
      const token = await t.adminToken();
      const sendAt = new Date(Date.now() + 5 * 60_000).toISOString();
      const created = await call<ScheduleDto>(t.app, 'POST', '/api/schedules', token, { whatsappId: connection.id, number, body: 'Bom dia!', sendAt });
      expect(created.status).toBe(201);
      await t.app.close(); // stopped before its time; the database stays

      // Started again 20 minutes later (the injected clock): the boot sweep finds it overdue.
      const later = () => new Date(Date.now() + 20 * 60_000);
      second = await buildApp({ ...t.app.config, nodeId: 'after-restart' }, { database: t.app.database, logger: false, clock: later });
      const app = second;
      const adminToken = (await call<{ token: string }>(app, 'POST', '/api/auth/login', undefined, ADMIN)).body.token;
      const sent = await eventually(async () => {
        const s = (await call<ScheduleDto>(app, 'GET', `/api/schedules/${created.body.id}`, adminToken)).body;
        return s.status === 'sent' ? s : null;
      }, 15_000, 'sent after the restart');
      expect(sent.late).toBe(true);
      expect(Date.parse(sent.sentAt!) - Date.parse(sendAt)).toBeGreaterThan(60_000);
      expect(await sentTo(app, adminToken, connection.id, number)).toEqual(['Bom dia!']);
      // The sweep again (the watchdog's, or another boot) and the original job at its time find it sent.
      await app.services.schedules.sweep();
      expect(await app.services.schedules.deliver({ scheduleId: created.body.id, version: 1 })).toMatchObject({ outcome: 'stale' });
      expect(await sentTo(app, adminToken, connection.id, number)).toEqual(['Bom dia!']);
    } finally {
      await second?.close();
      await t.app.database.close();
    }
  });

  it('fails, never resends, a message a stopped process left half-sent', { timeout: 120_000 }, async () => {
    const t = await createTestApp({}, { tempDataDir: true });
    try {
      const connection = await connectedSimulator(t, { name: 'Meio envio' });
      const number = phoneNumbers(83_000, 1)();
      const token = await t.adminToken();
      const created = await call<ScheduleDto>(t.app, 'POST', '/api/schedules', token, {
        whatsappId: connection.id,
        number,
        body: 'Talvez',
        sendAt: new Date(Date.now() + 3600_000).toISOString(),
      });
      // A process claimed it and died during the send, 10 minutes ago.
      await t.app.database.db.execute(sql`update schedules set status = 'sending', updated_at = now() - interval '10 minutes' where id = ${created.body.id}`);
      await t.app.services.schedules.sweep();
      const failed = (await call<ScheduleDto>(t.app, 'GET', `/api/schedules/${created.body.id}`, token)).body;
      expect(failed.status).toBe('failed');
      expect(failed.error).toMatch(/not sent again/);
      expect(await sentTo(t.app, token, connection.id, number)).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('waits for a connection that is down at the time (a reconnect) and sends once it is back', { timeout: 60_000 }, async () => {
    const t = await createTestApp({}, { tempDataDir: true });
    try {
      const connection = await connectedSimulator(t, { name: 'Reconectando' });
      const number = phoneNumbers(85_000, 1)();
      const token = await t.adminToken();
      expect((await t.call('DELETE', `/api/whatsappsession/${connection.id}`, { token })).status).toBeLessThan(300);
      const created = await call<ScheduleDto>(t.app, 'POST', '/api/schedules', token, {
        whatsappId: connection.id,
        number,
        body: 'Quando voltar',
        sendAt: new Date(Date.now() + 300).toISOString(),
      });
      // Due, but its connection is down: it waits (SCHEDULE_CONNECTION_WAIT_MS, 60 s by default), still scheduled.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect((await call<ScheduleDto>(t.app, 'GET', `/api/schedules/${created.body.id}`, token)).body.status).toBe('scheduled');
      // The connection comes back: the next look sends it.
      await t.call('POST', `/api/whatsappsession/${connection.id}`, { token });
      await eventually(async () => t.app.services.sessions.status(connection.id) === 'qrcode', 5000, 'qrcode');
      await t.call('POST', `/api/simulator/${connection.id}/scan`, { token });
      const sent = await eventually(async () => {
        const s = (await call<ScheduleDto>(t.app, 'GET', `/api/schedules/${created.body.id}`, token)).body;
        return s.status === 'sent' ? s : null;
      }, 15_000, 'sent once reconnected');
      expect(sent.late).toBe(false);
      expect(await sentTo(t.app, token, connection.id, number)).toEqual(['Quando voltar']);
    } finally {
      await t.close();
    }
  });
});
