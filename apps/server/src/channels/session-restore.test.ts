import type { WhatsappDto } from '@wadesk/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../app.js';
import { channelPorts } from '../channel-ports.js';
import { createTestApp, type TestApp } from '../test/test-app.js';
import { AuthStateRepository } from './auth-state.repository.js';
import { queryRows } from '../test/desk-factories.js';
import { eventually } from '../test/session-helpers.js';
import { AdvisoryLockLeases, connectionLeasesFor, type ConnectionLeases } from './connection-lease.repository.js';
import { SessionManager } from './session-manager.js';
import { PAIRED_KEY } from './simulator/simulator.driver.js';
import { SimulatorNetwork } from './simulator/simulator-network.js';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
const onPostgres = Boolean(process.env.DATABASE_URL);

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

/** The admin's access token on an app built in this file (the restarted one has no TestApp around it). */
async function adminTokenOf(app: App): Promise<string> {
  const res = await app.http.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'admin@test.local', password: 'admin-pass-1' } });
  return res.json<{ token: string }>().token;
}

/** A new simulator connection, created through the API of `app`. */
async function createConnection(app: App, token: string, name: string): Promise<number> {
  const created = await app.http.inject({
    method: 'POST',
    url: '/api/whatsapp',
    headers: { authorization: `Bearer ${token}` },
    payload: { name, channel: 'simulator' },
  });
  return created.json<WhatsappDto>().id;
}

async function getFrom(app: App, id: number, token: string): Promise<WhatsappDto> {
  const res = await app.http.inject({ method: 'GET', url: `/api/whatsapp/${id}`, headers: { authorization: `Bearer ${token}` } });
  return res.json<WhatsappDto>();
}

/** The node holding a connection's advisory lock (PostgreSQL), from its lock connection's application_name. */
async function leaseOwner(id: number): Promise<string | undefined> {
  const found = await queryRows<{ name: string }>(t, sql`
    select a.application_name as name from pg_locks l join pg_stat_activity a on a.pid = l.pid
     where l.locktype = 'advisory' and l.granted and l.objid::bigint = ${id} and l.objsubid = 2
       and l.database = (select oid from pg_database where datname = current_database())`);
  return found[0]?.name.replace(/^wadesk-leases /, '');
}

/** Ends a node's lock connection from the server side, as when its process dies. */
async function killLockConnection(nodeId: string): Promise<void> {
  await queryRows(t, sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = ${`wadesk-leases ${nodeId}`}`);
}

describe('sessions after a server restart', () => {
  it('brings a paired simulator connection back CONNECTED, an unpaired one to a new QR, and keeps auth-state Buffers', async () => {
    const paired = (await t.call<WhatsappDto>('POST', '/api/whatsapp', { token: admin, body: { name: 'Paired', channel: 'simulator' } })).body;
    const unpaired = (await t.call<WhatsappDto>('POST', '/api/whatsapp', { token: admin, body: { name: 'Unpaired', channel: 'simulator' } })).body;
    await t.call('POST', `/api/simulator/${paired.id}/scan`, { token: admin });
    const secret = Buffer.from([0, 1, 2, 250, 251, 252]);
    await new AuthStateRepository(t.app.database.db, paired.id).set({ 'app-key': { key: secret, n: 1 }, gone: { x: 1 } });
    await new AuthStateRepository(t.app.database.db, paired.id).set({ gone: null });
    if (onPostgres) expect(await leaseOwner(paired.id)).toBe(t.app.config.nodeId);

    await t.app.close();
    if (onPostgres) expect(await leaseOwner(paired.id)).toBeUndefined(); // given back on a clean shutdown

    second = await buildApp({ ...t.app.config, nodeId: 'second-process' }, { database: t.app.database, logger: false });
    const token = await adminTokenOf(second);

    expect(await getFrom(second, paired.id, token)).toMatchObject({ status: 'CONNECTED', qrcode: '' });
    expect(second.services.sessions.driver(paired.id)).toBeDefined();
    const restored = await getFrom(second, unpaired.id, token);
    expect(restored.status).toBe('qrcode');
    expect(restored.qrcode).not.toBe(unpaired.qrcode);
    if (onPostgres) expect(await leaseOwner(paired.id)).toBe('second-process');

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

describe('connection states after a crash', () => {
  it('does not keep showing CONNECTED for a connection whose process died: it shows what its new driver reports', async () => {
    const app = second!;
    const token = await adminTokenOf(app);
    const id = await createConnection(app, token, 'Was connected');
    // As a killed process leaves it: stored CONNECTED, but never paired (nothing to resume from).
    await queryRows(t, sql`update whatsapps set status = 'CONNECTED', qrcode = '' where id = ${id}`);
    const network = new SimulatorNetwork(app.database.db, channelPorts(app.database.db));
    const seen: string[] = [];
    const unsubscribe = app.services.events.on('whatsapp.session', ({ session }) => {
      if (session.id === id) seen.push(session.status);
    });
    const restarted = new SessionManager({
      db: app.database.db,
      connections: channelPorts(app.database.db).connections,
      events: app.services.events,
      drivers: new Map([['simulator', network.driverFactory]]),
      nodeId: 'restarted-process',
      log: silent,
    });
    try {
      await app.services.sessions.stopAll(); // the process that ran it is gone
      await restarted.startAll();
      expect(restarted.status(id)).toBe('qrcode');
      expect((await getFrom(app, id, token)).status).toBe('qrcode');
      expect(seen[0]).toBe('OPENING'); // first thing announced: not CONNECTED any more
    } finally {
      unsubscribe();
      await restarted.stopAll();
    }
  });
});

/** Leases of a process that is about to die: once dead, it takes nothing any more (a dead process does nothing). */
class DyingLeases extends AdvisoryLockLeases {
  dead = false;
  override async acquire(whatsappId: number): Promise<boolean> {
    return !this.dead && super.acquire(whatsappId);
  }
  override async unowned(): Promise<number[]> {
    return this.dead ? [] : super.unowned();
  }
}

describe.skipIf(!onPostgres)('connection leases (PostgreSQL advisory locks)', () => {
  it('lets one process run a connection; another takes it over at once when the lock connection of the first dies', async () => {
    const app = second!;
    const token = await adminTokenOf(app);
    const id = await createConnection(app, token, 'Leased');
    await new AuthStateRepository(app.database.db, id).set({ [PAIRED_KEY]: true });

    const firstLeases = new DyingLeases({ connectionString: postgresUrl(), application_name: 'wadesk-leases lease-first' }, silent);
    const first = manager(app, 'lease-first', firstLeases);
    const other = manager(app, 'lease-second', connectionLeasesFor(app.database.db, 'lease-second', silent));
    try {
      await first.start(id);
      expect(first.status(id)).toBe('CONNECTED');
      expect(await leaseOwner(id)).toBe('lease-first');

      await other.start(id);
      expect(other.status(id)).toBeNull(); // held by the first process
      await other.maintainLeasesNow();
      expect(other.status(id)).toBeNull();

      // The first process dies: PostgreSQL ends its lock connection, and it does nothing any more.
      firstLeases.dead = true;
      const died = Date.now();
      await killLockConnection('lease-first');
      await eventually(async () => {
        await other.maintainLeasesNow();
        return other.status(id) === 'CONNECTED'; // resumed from the auth state in the database
      }, 3000, 'taken over');
      expect(Date.now() - died).toBeLessThan(2000); // at once, not after a lease TTL
      expect(await leaseOwner(id)).toBe('lease-second');
      // Had the first one lived on, it would have noticed the lost lock connection and let the connection go.
      await eventually(async () => first.status(id) === null, 3000, 'first process let go');
    } finally {
      await other.stopAll();
      await first.stopAll();
    }
  });

  it('lets a live process that lost its lock connection take its free connections back', async () => {
    const app = second!;
    const id = (await app.services.whatsapps.list()).at(-1)!.id;
    const leases = connectionLeasesFor(app.database.db, 'lease-third', silent);
    const third = manager(app, 'lease-third', leases);
    try {
      await third.start(id);
      expect(third.status(id)).toBe('CONNECTED');
      await killLockConnection('lease-third');
      await eventually(async () => {
        await third.maintainLeasesNow();
        return (await leaseOwner(id)) === 'lease-third' && third.status(id) === 'CONNECTED';
      }, 3000, 'taken back');
    } finally {
      await third.stopAll();
    }
  });
});

/** A session manager of another process on the same database, running simulator connections. */
function manager(app: App, nodeId: string, leases: ConnectionLeases): SessionManager {
  return new SessionManager({
    db: app.database.db,
    connections: channelPorts(app.database.db).connections,
    events: app.services.events,
    drivers: new Map([['simulator', new SimulatorNetwork(app.database.db, channelPorts(app.database.db)).driverFactory]]),
    nodeId,
    log: silent,
    leases,
  });
}

/** The connection string of the test database (the pool's own). */
function postgresUrl(): string {
  const pool = (t.app.database.db as unknown as { $client: { options: { connectionString: string } } }).$client;
  return pool.options.connectionString;
}
