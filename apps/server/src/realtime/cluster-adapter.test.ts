import pg from 'pg';
import { Server } from 'socket.io';
import { afterAll, describe, expect, it } from 'vitest';
import { PublishesUnderWay, useClusterAdapter } from './cluster-adapter.js';
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
    const deadline = Date.now() + 5000;
    while (listening().length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(listening()).toHaveLength(1);
    const client = listening()[0]!;
    expect(pool.totalCount - pool.idleCount).toBe(1);

    await io.of('/').adapter.close(); // what io.close() does for each namespace
    expect(pool.totalCount - pool.idleCount).toBe(0); // given back to the pool

    const gone = new Error('terminating connection due to administrator command');
    expect(() => client.emit('error', gone)).not.toThrow();
    expect(poolErrors).toContain(gone); // the pool's idle listener had it, and dropped the client
    expect(warnings).toEqual([]);
  });
});
