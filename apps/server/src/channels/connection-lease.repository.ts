import pg from 'pg';
import { isEmbeddedPool, type Database } from '../db/client.js';
import type { DriverContext } from './channel-driver.js';

/**
 * Which process runs a connection. A lease must die with its process: a restarted process (or another
 * node) gets a dead process's connections back at once, not after a TTL.
 */
export interface ConnectionLeases {
  /** Takes the connection for this process; false when another live process holds it. */
  acquire(whatsappId: number): Promise<boolean>;
  /** Of these ids, the ones this process still holds (none once the lock connection died). */
  held(whatsappIds: number[]): Promise<Set<number>>;
  release(whatsappIds: number[]): Promise<void>;
  /** Connections no live process holds: candidates to take over. */
  unowned(): Promise<number[]>;
  /** Live processes (their lock connections) and connections, to spread the connections between them. */
  census(): Promise<{ processes: number; connections: number }>;
  /** Called when every lease was lost at once (the lock connection died). */
  onLost(listener: () => void): void;
  /** Gives every lease back. */
  close(): Promise<void>;
}

/**
 * Embedded mode (PGlite): only one process can open the data folder at all, so this process owns every
 * connection from the start.
 */
export class EmbeddedLeases implements ConnectionLeases {
  async acquire(): Promise<boolean> {
    return true;
  }
  async held(whatsappIds: number[]): Promise<Set<number>> {
    return new Set(whatsappIds);
  }
  async release(): Promise<void> {}
  async unowned(): Promise<number[]> {
    return [];
  }
  async census(): Promise<{ processes: number; connections: number }> {
    return { processes: 1, connections: 0 };
  }
  onLost(): void {}
  async close(): Promise<void> {}
}

/** First key of our advisory locks ('wads'); the second is the connection id. */
export const LEASE_LOCK_CLASS = 0x77616473;

/**
 * PostgreSQL advisory locks held on one dedicated connection of this process: `pg_try_advisory_lock(class,
 * whatsappId)`. When the process dies, PostgreSQL sees its socket close and drops the locks at once; while
 * it lives, nobody else can take them. No lease row, no TTL.
 */
export class AdvisoryLockLeases implements ConnectionLeases {
  private client: pg.Client | null = null;
  private connecting: Promise<pg.Client> | null = null;
  private readonly mine = new Set<number>();
  private readonly lostListeners: (() => void)[] = [];
  private closed = false;

  constructor(
    private readonly config: pg.ClientConfig,
    private readonly log: DriverContext['log'],
  ) {}

  async acquire(whatsappId: number): Promise<boolean> {
    const client = await this.connection();
    if (this.mine.has(whatsappId)) return true;
    const res = await client.query<{ ok: boolean }>('select pg_try_advisory_lock($1::int, $2::int) as ok', [LEASE_LOCK_CLASS, whatsappId]);
    if (!res.rows[0]?.ok) return false;
    if (this.client !== client) return false; // the connection died meanwhile: the lock went with it
    this.mine.add(whatsappId);
    return true;
  }

  async held(whatsappIds: number[]): Promise<Set<number>> {
    const client = this.client;
    if (!client || whatsappIds.length === 0) return new Set();
    try {
      await client.query('select 1'); // a connection that broke silently fails here
    } catch {
      this.lost(client);
    }
    return new Set(whatsappIds.filter((id) => this.client === client && this.mine.has(id)));
  }

  async release(whatsappIds: number[]): Promise<void> {
    const client = this.client;
    for (const id of whatsappIds) {
      if (!this.mine.delete(id) || !client) continue;
      await client.query('select pg_advisory_unlock($1::int, $2::int)', [LEASE_LOCK_CLASS, id]);
    }
  }

  async unowned(): Promise<number[]> {
    const client = await this.connection();
    const res = await client.query<{ id: number }>(
      `select w.id from whatsapps w
        where not exists (
          select 1 from pg_locks l
           where l.locktype = 'advisory' and l.granted
             and l.database = (select oid from pg_database where datname = current_database())
             and l.classid::bigint = $1 and l.objid::bigint = w.id and l.objsubid = 2)
        order by w.id`,
      [LEASE_LOCK_CLASS],
    );
    return res.rows.map((r) => r.id);
  }

  async census(): Promise<{ processes: number; connections: number }> {
    const client = await this.connection();
    const res = await client.query<{ processes: number; connections: number }>(
      `select (select count(*)::int from pg_stat_activity
                where datname = current_database() and application_name like 'wadesk-leases %') as processes,
              (select count(*)::int from whatsapps) as connections`,
    );
    const row = res.rows[0];
    return { processes: Math.max(1, row?.processes ?? 1), connections: row?.connections ?? 0 };
  }

  onLost(listener: () => void): void {
    this.lostListeners.push(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client ?? (await this.connecting?.catch(() => null)) ?? null;
    this.client = null;
    this.mine.clear();
    await client?.end().catch(() => undefined);
  }

  /** For tests: the backend pid of the lock connection (to end it as if the process died). */
  async backendPid(): Promise<number> {
    const client = await this.connection();
    const res = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
    return res.rows[0]!.pid;
  }

  private async connection(): Promise<pg.Client> {
    if (this.closed) throw new Error('connection leases are closed');
    if (this.client) return this.client;
    this.connecting ??= (async () => {
      const client = new pg.Client({ ...this.config, keepAlive: true });
      client.on('error', (err) => {
        this.log.warn({ err }, 'connection lease lock connection failed');
        this.lost(client);
      });
      client.on('end', () => this.lost(client));
      try {
        await client.connect();
      } catch (err) {
        client.removeAllListeners();
        throw err;
      }
      this.client = client;
      return client;
    })().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  private lost(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = null;
    const had = this.mine.size;
    this.mine.clear();
    void client.end().catch(() => undefined);
    if (this.closed) return;
    if (had > 0) this.log.warn({ leases: had }, 'lock connection lost: every connection lease of this process is gone');
    for (const listener of this.lostListeners) listener();
  }
}

/** Advisory locks on PostgreSQL (a dedicated client configured like the pool); every connection ours on PGlite. */
export function connectionLeasesFor(db: Database, nodeId: string, log: DriverContext['log']): ConnectionLeases {
  const client: unknown = (db as unknown as { $client?: unknown }).$client;
  if (client instanceof pg.Pool && !isEmbeddedPool(client)) {
    // The pool's own settings (max, idle timeout) mean nothing to one client, which ignores them.
    const config: pg.ClientConfig = { ...(client.options as pg.PoolConfig) };
    return new AdvisoryLockLeases({ ...config, application_name: `wadesk-leases ${nodeId}`.slice(0, 63) }, log);
  }
  return new EmbeddedLeases();
}
