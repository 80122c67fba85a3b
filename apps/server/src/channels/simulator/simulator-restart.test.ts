import { describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../app.js';
import { connectedSimulator, inbound } from '../../test/desk-factories.js';
import { eventually } from '../../test/session-helpers.js';
import { ADMIN, createTestApp } from '../../test/test-app.js';

async function call<T>(app: App, method: 'GET' | 'POST', url: string, token?: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await app.http.inject({ method, url, payload: body as never, headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.statusCode, body: JSON.parse(res.body) as T };
}

interface Phone {
  status: string;
  contacts: { number: string; name: string | null }[];
  groups: { id: string; subject: string; announce: boolean }[];
}

describe('the simulator across a restart (issue 33 item 25)', () => {
  it('keeps its customers, their messages, what it sent and its groups in the database', { timeout: 120_000 }, async () => {
    const t = await createTestApp({}, { tempDataDir: true });
    let second: App | undefined;
    try {
      const connection = await connectedSimulator(t, { name: 'Reinício do simulador' });
      const token = await t.adminToken();
      const ticket = await inbound(t, connection.id, { from: '5511912345678', name: 'Cliente Antiga', body: 'Olá, antes do reinício' });
      const reply = await call(t.app, 'POST', `/api/messages/${ticket.id}`, token, { body: 'Resposta antes do reinício' });
      expect(reply.status).toBe(201);
      const group = await call<{ id: string }>(t.app, 'POST', `/api/simulator/${connection.id}/groups`, token, { subject: 'Grupo Antigo', participants: ['5511912345678'] });
      expect(group.status).toBe(201);
      await t.app.close(); // the connection stops: the phone is written

      second = await buildApp({ ...t.app.config, nodeId: 'after-restart' }, { database: t.app.database, logger: false });
      const app = second;
      const adminToken = (await call<{ token: string }>(app, 'POST', '/api/auth/login', undefined, ADMIN)).body.token;
      const phone = await eventually(async () => {
        const res = await call<Phone>(app, 'GET', `/api/simulator/${connection.id}/contacts`, adminToken);
        return res.body.contacts.length > 0 ? res.body : null;
      }, 15_000, 'the phone after the restart');
      expect(phone.contacts).toEqual([expect.objectContaining({ number: '5511912345678', name: 'Cliente Antiga' })]);
      expect(phone.groups.map((g) => g.subject)).toContain('Grupo Antigo');
      const sent = await call<{ body: string }[]>(app, 'GET', `/api/simulator/${connection.id}/outbox?to=5511912345678`, adminToken);
      expect(sent.body.map((e) => e.body)).toContain('Resposta antes do reinício');
    } finally {
      await second?.close();
      await t.app.database.close();
    }
  });
});
