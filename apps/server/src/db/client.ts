import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { sql, type ExtractTablesWithRelations, type Logger } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema.js';

export type Schema = typeof schema;
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
export type Transaction = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Either the database or an open transaction: repositories accept both. */
export type Executor = Database | Transaction;

export interface DatabaseHandle {
  db: Database;
  kind: 'postgres' | 'pglite';
  /** The PGlite instance in embedded mode (its data directory's dumps; the app reaches it through `pool`). */
  pglite?: PGlite;
  /** The connection pool (pg-boss shares it): PostgreSQL's, or one client onto PGlite in embedded mode. */
  pool?: pg.Pool;
  close(): Promise<void>;
}

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../drizzle', import.meta.url));

/** The embedded database's shared buffers unless PGLITE_SHARED_BUFFERS says otherwise (a PostgreSQL size, e.g. 64MB). */
export const EMBEDDED_SHARED_BUFFERS = '32MB';

export interface DatabaseOptions {
  /** A PostgreSQL URL; without it, embedded PGlite. */
  databaseUrl?: string;
  /** PGlite data directory; undefined for in-memory. */
  dataDir?: string;
  /** A PGlite dump to start from (tests). */
  loadDataDir?: Blob;
  poolSize?: number;
  /** PGlite's shared_buffers (default EMBEDDED_SHARED_BUFFERS). */
  sharedBuffers?: string;
  /** Drizzle's query logger (the benchmarks read the statements a request runs, to explain them). */
  logger?: Logger;
}

/**
 * pg-pool (3.14 here; pg 8.23 asks for ^3.14) awaits `onConnect` before it hands a new client out, and a rejection
 * ends that client and fails the checkout. @types/pg still types its result as void.
 */
type PoolConfigAwaitingConnect = Omit<pg.PoolConfig, 'onConnect'> & { onConnect: (client: pg.ClientBase) => Promise<void> };

/**
 * What every new PostgreSQL connection of the pool does before its first use (`onConnect`):
 * - an error listener: a client checked out of the pool has none of pg-pool's, so one whose connection dies between
 *   two queries (a transaction's, the Socket.IO adapter's LISTEN client during a database outage) would emit an
 *   uncaught 'error' and end the process. The next query on it fails instead, and its release drops it;
 * - no parallel workers for the desk's statements (decision 0047): on a few cores busy with many requests, a Gather's
 *   workers each redo the work it splits (a search by a name of 10,000 contacts built their hash three times: 100 ms,
 *   issue 35). A session setting rather than a startup option, so that a connection pooler that refuses startup
 *   options still connects; a refusal is ignored and the connection used as it is. Awaited, so the client's first
 *   query never waits queued behind it (pg 8 warns of such a query; pg 9 refuses it).
 */
async function setUpSession(client: pg.ClientBase): Promise<void> {
  client.on('error', () => undefined);
  await client.query('set max_parallel_workers_per_gather = 0').catch(() => undefined);
}

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    // A connection attempt (or a wait for a free client) gives up after 15 s: an outage answers 503 instead of hanging.
    const config: PoolConfigAwaitingConnect = {
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: 15_000,
      onConnect: setUpSession,
    };
    const pool = new pg.Pool(config);
    pool.on('error', () => undefined); // idle client errors surface on the next query
    const db = drizzlePg(pool, { schema, logger: options.logger }) as unknown as Database;
    return { db, kind: 'postgres', pool, close: () => pool.end() };
  }
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  // PGlite's shared buffers live in the server's own memory (PostgreSQL's default, 128 MB, took the embedded desk's
  // resident memory from ~270 to ~410 MB); pages beyond them are read from the files through the OS's cache.
  const sharedBuffers = options.sharedBuffers ?? EMBEDDED_SHARED_BUFFERS;
  const pglite = new PGlite({
    dataDir: options.dataDir,
    loadDataDir: options.loadDataDir,
    extensions: { pg_trgm, unaccent },
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${sharedBuffers}`],
  });
  await pglite.waitReady;
  // The app talks to PGlite through node-postgres (PGlite's own adapter), as to PostgreSQL: its named statements are
  // parsed and planned once in PGlite's one backend, where drizzle's PGlite driver planned every statement every
  // time. One client (PGlite has one session): a transaction holds it, as PGlite's own transactions hold PGlite.
  const pgConfig = createPgConfig(pglite);
  // drizzle hands node-postgres its type parsers as the query's `types` (an object), which pg's own serializer reads
  // as no parameter types; PGlite's serializer expects an array: given none, as PostgreSQL is.
  const parse = pgConfig.connection.parse.bind(pgConfig.connection);
  pgConfig.connection.parse = (query: { types?: unknown }) => parse({ ...query, types: Array.isArray(query.types) ? query.types : [] });
  // A wait for the one client gives up after 15 s, as on PostgreSQL: a statement stuck behind a transaction fails.
  const pool = new pg.Pool({ ...pgConfig, max: 1, idleTimeoutMillis: 0, connectionTimeoutMillis: 15_000 } as pg.PoolConfig);
  pool.on('error', () => undefined);
  queryInTurns(pool);
  embeddedPools.add(pool);
  const db = drizzlePg(pool, { schema, logger: options.logger }) as unknown as Database;
  return {
    db,
    kind: 'pglite',
    pglite,
    pool,
    close: async () => {
      await pool.end();
      await pglite.close();
    },
  };
}

/**
 * Resolves once the event loop has gone round, reading the sockets (new requests, answers to write) on the way.
 * PGlite runs statements in the server's own thread, and a statement's end handed the one client to the next waiting
 * statement without the loop going round (pg-pool's hand-over and the promises are microtasks and next ticks): under
 * load, statements ran back to back while any request had one waiting, and requests that came meanwhile waited unread.
 * Common-word searches through 16 connections took up to 5 s seen from the client while the server's own time for
 * each stayed under 0.7 s (issue 11, decision 0026).
 */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * The embedded pool's `pool.query`: each statement waits for the event loop to go round first (`nextTurn`), and a
 * statement's error does not end the client. `pool.query` hands its client back with the statement's error, and
 * pg-pool then ends that client and opens a new one. Against PostgreSQL that is a new connection; against PGlite both
 * clients are the one shared connection object:
 * the old client's end reached the new one ('Connection terminated unexpectedly'), its messages went to the wrong
 * query, and PGlite itself stopped answering (every later statement failed until a restart). One failed statement
 * (a unique violation, a number out of range) took the whole embedded desk down. Here a statement's error is the
 * caller's alone: the client goes back to the pool as after a success. A transaction already did so.
 */
function queryInTurns(pool: pg.Pool): void {
  type Callback = (err: Error | undefined, result?: unknown) => void;
  pool.query = ((...args: unknown[]) => {
    const callback = typeof args[args.length - 1] === 'function' ? (args.pop() as Callback) : undefined;
    const result = (async () => {
      await nextTurn();
      const client = await pool.connect();
      try {
        return await (client.query as (...a: unknown[]) => Promise<unknown>)(...args);
      } finally {
        client.release();
      }
    })();
    if (!callback) return result;
    result.then(
      (value) => callback(undefined, value),
      (err: Error) => callback(err),
    );
    return undefined;
  }) as typeof pool.query;
}

/** The pools that reach an embedded PGlite (one session): no second client may be opened beside them. */
const embeddedPools = new WeakSet<pg.Pool>();

export function isEmbeddedPool(pool: pg.Pool): boolean {
  return embeddedPools.has(pool);
}

export async function migrateDatabase(handle: DatabaseHandle): Promise<void> {
  const config = { migrationsFolder: MIGRATIONS_FOLDER };
  // Trigram indexes (ticket and contact search) need the extensions before the migrations run; search
  // ignores accents through unaccent (migration 0002 wraps it in the immutable f_unaccent).
  await handle.db.execute(sql`create extension if not exists pg_trgm`);
  await handle.db.execute(sql`create extension if not exists unaccent`);
  await migratePg(handle.db as unknown as Parameters<typeof migratePg>[0], config);
}

export function embeddedDataDir(dataDir: string): string {
  return path.join(dataDir, 'pgdata');
}

/** The rows of a raw `db.execute(sql…)`: both drivers answer `{ rows }`. */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}
