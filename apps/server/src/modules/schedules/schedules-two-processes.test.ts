import type { ScheduleDto } from '@wadesk/contracts';
import { describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../app.js';
import { connectedSimulator, phoneNumbers } from '../../test/desk-factories.js';
import { eventually } from '../../test/session-helpers.js';
import { ADMIN, createTestApp } from '../../test/test-app.js';
import { serverTimeZone } from '../tickets/tickets.service.js';

async function call<T>(app: App, method: 'GET' | 'POST', url: string, token?: string, body?: unknown): Promise<T> {
  const res = await app.http.inject({ method, url, payload: body as never, headers: token ? { authorization: `Bearer ${token}` } : {} });
  return JSON.parse(res.body) as T;
}

describe('scheduled messages with two server processes on one database (issue 14)', () => {
  it('sends each message once when both processes work the jobs and DISPARAR is pressed on both', { timeout: 90_000 }, async () => {
    const t = await createTestApp({}, { tempDataDir: true });
    let second: App | undefined;
    try {
      second = await buildApp({ ...t.app.config, nodeId: 'second-process' }, { database: t.app.database, logger: false });
      const app2 = second;
      const connection = await connectedSimulator(t, { name: 'Dois processos' });
      const next = phoneNumbers(84_000, 1);
      const numbers = Array.from({ length: 6 }, () => next());
      const token = await t.adminToken();
      const token2 = (await call<{ token: string }>(app2, 'POST', '/api/auth/login', undefined, ADMIN)).token;
      const sendAt = new Date(Date.now() + 2500).toISOString();
      const created: ScheduleDto[] = [];
      for (const number of numbers) {
        created.push(await call<ScheduleDto>(t.app, 'POST', '/api/schedules', token, { whatsappId: connection.id, number, body: `Para ${number}`, sendAt }));
      }
      // Besides each schedule's own job, both processes queue a send of every one of them now.
      const dataEnvio = new Intl.DateTimeFormat('en-CA', { timeZone: serverTimeZone(), year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(sendAt));
      await Promise.all([
        call(t.app, 'POST', '/api/sendAgendamento', token, { dataEnvio, ticketwhatsappId: connection.id }),
        call(app2, 'POST', '/api/sendAgendamento', token2, { dataEnvio, ticketwhatsappId: connection.id }),
      ]);
      await eventually(async () => {
        const all = await Promise.all(created.map((s) => call<ScheduleDto>(app2, 'GET', `/api/schedules/${s.id}`, token2)));
        return all.every((s) => s.status === 'sent');
      }, 30_000, 'all sent');
      // Let the schedules' own jobs (due at sendAt) run too.
      await eventually(async () => Date.now() > Date.parse(sendAt) + 2000, 10_000, 'past the time');
      // The simulated phone keeps its outbox in the database (issue 33 item 25): both processes show it; each send once by id.
      const sentById = new Map<string, string>();
      for (const [app, tk] of [[t.app, token], [app2, token2]] as const) {
        const outbox = await call<{ id: string; to: string }[]>(app, 'GET', `/api/simulator/${connection.id}/outbox`, tk);
        if (Array.isArray(outbox)) for (const e of outbox) if (numbers.includes(e.to)) sentById.set(e.id, e.to);
      }
      const sent = [...sentById.values()];
      expect([...sent].sort()).toEqual([...numbers].sort());
    } finally {
      await second?.close();
      await t.close();
    }
  });
});
