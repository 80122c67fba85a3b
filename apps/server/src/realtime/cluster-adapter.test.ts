import pg from 'pg';
import { Server } from 'socket.io';
import { afterAll, describe, expect, it } from 'vitest';
import { OwnEchoes, PublishesUnderWay, useClusterAdapter } from './cluster-adapter.js';
import type { RealtimeServer } from './socket-server.js';

const url = process.env.DATABASE_URL;

// The adapter's LISTEN client is released once: closing the server gives it back, and an error on that connection
// afterwards (the database restarting, the pool ending) is the pool's to handle, not a second release that throws.
describe.skipIf(!url)('the cluster adapter LISTEN client', () => {
  const pool = new pg.Pool({ connectionString: url, max: 3 });
  const poolErrors: Error[] = [];
  pool.on('error', (err) => poolErrors.push(err));
  afterAll(() => pool.end());

  it('is released once, and an error on its connection after the server closed does not release it again', async () => {
    const acquired = new Set<pg.PoolClient>();
    pool.on('acquire', (client) => acquired.add(client));
    const warnings: string[] = [];
    const io = new Server() as unknown as RealtimeServer;
    await useClusterAdapter(io, pool, { warn: (_obj, msg) => warnings.push(String(msg)) }, new PublishesUnderWay());
    const listening = () => [...acquired].filter((client) => client.listenerCount('notification') > 0);
    const held = () => pool.totalCount - pool.idleCount;
    // The adapter's first heartbeat (a NOTIFY) may hold a second client for a moment: wait until only the LISTEN is held.
    const deadline = Date.now() + 5000;
    while ((listening().length === 0 || held() !== 1) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(listening()).toHaveLength(1);
    const client = listening()[0]!;
    expect(held()).toBe(1);

    await io.of('/').adapter.close(); // what io.close() does for each namespace
    expect(held()).toBe(0); // given back to the pool
    expect(Object.hasOwn(client, 'on')).toBe(false); // an ordinary client again, its notifications unfiltered

    const gone = new Error('terminating connection due to administrator command');
    expect(() => client.emit('error', gone)).not.toThrow();
    expect(poolErrors).toContain(gone); // the pool's idle listener had it, and dropped the client
    expect(warnings).toEqual([]);
  });

  it("recognises every event this process publishes in its echo, and delivers the other processes' events", async () => {
    const listener = new pg.Client({ connectionString: url });
    await listener.connect();
    const payloads: string[] = [];
    listener.on('notification', (msg) => payloads.push(msg.payload ?? ''));
    await listener.query('LISTEN "socket.io#/"');
    const quiet = { warn: () => undefined };
    const [a, b] = [new Server(), new Server()]; // untyped events, unlike the app's RealtimeServer
    await useClusterAdapter(a as unknown as RealtimeServer, pool, quiet, new PublishesUnderWay());
    await useClusterAdapter(b as unknown as RealtimeServer, pool, quiet, new PublishesUnderWay());
    const heard = { a: [] as unknown[], b: [] as unknown[] };
    a.on('ping', (n: unknown) => heard.a.push(n));
    b.on('ping', (n: unknown) => heard.b.push(n));
    // Both listening before anything is sent.
    const ready = Date.now() + 5000;
    while (pool.totalCount - pool.idleCount < 2 && Date.now() < ready) await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, 200));

    a.to('ticket:1').emit('appMessage', { text: '"uid":"x","nsp":"/"}', big: 'é'.repeat(10) });
    a.serverSideEmit('ping', 1);
    a.to('ticket:1').emit('appMessage', { big: 'x'.repeat(9000) }); // over NOTIFY's limit: an attachment
    const deadline = Date.now() + 5000;
    while ((payloads.length < 3 || heard.b.length < 1) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(heard.b).toEqual([1]);
    expect(heard.a).toEqual([]); // its own event, dropped

    const uidOf = (io: Server) => (io.of('/').adapter as unknown as { uid: string }).uid;
    const own = new OwnEchoes();
    own.add(uidOf(a), '/');
    const other = new OwnEchoes();
    other.add(uidOf(b), '/');
    const fromA = payloads.filter((payload) => (JSON.parse(payload) as { uid: string }).uid === uidOf(a));
    expect(fromA.length).toBeGreaterThanOrEqual(3);
    for (const payload of fromA) {
      expect(own.has(payload), payload.slice(0, 200)).toBe(true);
      expect(other.has(payload)).toBe(false);
    }
    own.remove(uidOf(a), '/');
    expect(fromA.some((payload) => own.has(payload))).toBe(false);

    await a.of('/').adapter.close();
    await b.of('/').adapter.close();
    await listener.end();
  });
});
