import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WebhookDto } from '@wadesk/contracts';
import { describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../app.js';
import { connectedSimulator, inbound, phoneNumbers } from '../../test/desk-factories.js';
import { eventually } from '../../test/session-helpers.js';
import { ADMIN, createTestApp } from '../../test/test-app.js';

const onPostgres = Boolean(process.env.DATABASE_URL);

async function call<T>(app: App, method: 'GET' | 'POST' | 'PUT', url: string, token?: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await app.http.inject({ method, url, payload: body as never, headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.statusCode, body: JSON.parse(res.body) as T };
}

// Two processes on one PostgreSQL: the events of each are heard where they happen (a send stored by the process
// that took the request, its ack by the process that runs the connection) and reach the receiver once each, in order.
describe.skipIf(!onPostgres)('webhooks with two processes on one database', () => {
  it('delivers the events of both processes once each, in order per ticket', { timeout: 60_000 }, async () => {
    const got: { id: string; event: string; data: Record<string, any> }[] = [];
    const server = http.createServer((req, res) => {
      let raw = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (raw += chunk));
      req.on('end', () => {
        got.push(JSON.parse(raw) as (typeof got)[number]);
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const t = await createTestApp({ mediaFetchAllowPrivate: true }, { tempDataDir: true });
    let second: App | undefined;
    try {
      second = await buildApp({ ...t.app.config, nodeId: 'second-process' }, { database: t.app.database, logger: false });
      const admin = await t.adminToken();
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      const hook = await t.call<WebhookDto>('POST', '/api/webhooks', { token: admin, body: { url, events: ['message.created', 'message.updated', 'contact.created'] } });
      expect(hook.status).toBe(201);

      const connection = await connectedSimulator(t, { name: 'Webhooks routed' });
      const ticket = await inbound(t, connection.id, { from: phoneNumbers(82_000, 1)(), body: 'Olá' });
      const token2 = (await call<{ token: string }>(second, 'POST', '/api/auth/login', undefined, ADMIN)).body.token;
      const made = await call<{ id: number }>(second, 'POST', '/api/contacts', token2, { name: 'Made in the second', number: phoneNumbers(83_000, 1)() });
      expect(made.status).toBe(201);
      for (const body of ['Roteado 1', 'Roteado 2', 'Roteado 3']) expect((await call(second, 'POST', `/api/messages/${ticket.id}`, token2, { body })).status).toBe(201);

      await eventually(
        async () => got.filter((r) => r.event === 'message.updated' && r.data.message.ack >= 1).length >= 3,
        30_000,
        'acks of the routed sends delivered',
      );
      const created = got.filter((r) => r.event === 'message.created' && r.data.ticket.id === ticket.id).map((r) => r.data.message.body);
      expect(created).toEqual(['Olá', 'Roteado 1', 'Roteado 2', 'Roteado 3']);
      expect(got.filter((r) => r.event === 'contact.created' && r.data.contact.id === made.body.id)).toHaveLength(1);
      expect(new Set(got.map((r) => r.id)).size).toBe(got.length);
    } finally {
      await second?.close();
      await t.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
