import type { WhatsappDto } from '@wadesk/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../app.js';
import { createTestApp, type TestApp } from '../test/test-app.js';
import { AuthStateRepository } from './auth-state.repository.js';
import { SessionManager } from './session-manager.js';
import { SimulatorNetwork } from './simulator/simulator-network.js';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

let t: TestApp;
let admin: string;
let second: App | null = null;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
});
afterAll(async () => {
  await second?.close();
  await t.app.database.close();
});

async function getFrom(app: App, id: number, token: string): Promise<WhatsappDto> {
  const res = await app.http.inject({ method: 'GET', url: `/api/whatsapp/${id}`, headers: { authorization: `Bearer ${token}` } });
  return res.json<WhatsappDto>();
}

async function leaseOwner(id: number): Promise<string | undefined> {
  const res = (await t.app.database.db.execute(sql`select owner_id from connection_leases where whatsapp_id = ${id}`)) as unknown as {
    rows: { owner_id: string }[];
  };
  return res.rows[0]?.owner_id;
}

describe('sessions after a server restart', () => {
  it('brings a paired simulator connection back CONNECTED, an unpaired one to a new QR, and keeps auth-state Buffers', async () => {
    const paired = (await t.call<WhatsappDto>('POST', '/api/whatsapp', { token: admin, body: { name: 'Paired', channel: 'simulator' } })).body;
    const unpaired = (await t.call<WhatsappDto>('POST', '/api/whatsapp', { token: admin, body: { name: 'Unpaired', channel: 'simulator' } })).body;
    await t.call('POST', `/api/simulator/${paired.id}/scan`, { token: admin });
    const secret = Buffer.from([0, 1, 2, 250, 251, 252]);
    await new AuthStateRepository(t.app.database.db, paired.id).set({ 'app-key': { key: secret, n: 1 }, gone: { x: 1 } });
    await new AuthStateRepository(t.app.database.db, paired.id).set({ gone: null });
    expect(await leaseOwner(paired.id)).toBe(t.app.config.nodeId);

    await t.app.close();
    expect(await leaseOwner(paired.id)).toBeUndefined(); // given back on a clean shutdown

    second = await buildApp({ ...t.app.config, nodeId: 'second-process' }, { database: t.app.database, logger: false });
    const token = (
      await second.http.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'admin@test.local', password: 'admin-pass-1' } })
    ).json<{ token: string }>().token;

    expect(await getFrom(second, paired.id, token)).toMatchObject({ status: 'CONNECTED', qrcode: '' });
    expect(second.services.sessions.driver(paired.id)).toBeDefined();
    const restored = await getFrom(second, unpaired.id, token);
    expect(restored.status).toBe('qrcode');
    expect(restored.qrcode).not.toBe(unpaired.qrcode);
    expect(await leaseOwner(paired.id)).toBe('second-process');

    const auth = new AuthStateRepository(second.database.db, paired.id);
    const stored = await auth.get<{ key: Buffer; n: number }>('app-key');
    expect(Buffer.isBuffer(stored?.key)).toBe(true);
    expect(stored?.key.equals(secret)).toBe(true);
    expect(stored?.n).toBe(1);
    expect(await auth.get('gone')).toBeNull();
    const many = await auth.getMany(['app-key', 'missing']);
    expect([...many.keys()]).toEqual(['app-key']);
  });
});

describe('connection leases', () => {
  it('lets one process run a connection, and another take it over once the lease expires', async () => {
    const app = second!;
    const token = (
      await app.http.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'admin@test.local', password: 'admin-pass-1' } })
    ).json<{ token: string }>().token;
    const created = await app.http.inject({
      method: 'POST',
      url: '/api/whatsapp',
      headers: { authorization: `Bearer ${token}` },
      payload: { name: 'Leased', channel: 'simulator' },
    });
    const id = created.json<WhatsappDto>().id;
    await app.http.inject({ method: 'POST', url: `/api/simulator/${id}/scan`, headers: { authorization: `Bearer ${token}` } });

    const network = new SimulatorNetwork(app.database.db);
    const other = new SessionManager({
      db: app.database.db,
      events: app.services.events,
      drivers: new Map([['simulator', network.driverFactory]]),
      nodeId: 'third-process',
      log: silent,
    });
    try {
      await other.start(id);
      expect(other.status(id)).toBeNull(); // held by the second process
      await app.database.db.execute(sql`update connection_leases set expires_at = now() - interval '1 second' where whatsapp_id = ${id}`);
      await other.maintainLeasesNow();
      expect(other.status(id)).toBe('CONNECTED'); // resumed from the auth state in the database
      expect(await leaseOwner(id)).toBe('third-process');

      await app.services.sessions.maintainLeasesNow();
      expect(app.services.sessions.status(id)).toBeNull(); // the second process noticed and let go
    } finally {
      await other.stopAll();
    }
  });
});
