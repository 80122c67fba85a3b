/**
 * Seeds the large benchmark data set (issue 11) into a fresh database, migrated by the app's own migrations.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:seed -- [--scale 1] [--database wadesk_bench] [--drop]
 *   npm run bench:seed -- --scale 0.1 --pglite data/bench-pglite/pgdata   # the embedded database (a tenth; the server's DATA_DIR is data/bench-pglite)
 *
 * PostgreSQL: (re)creates the database named by --database (default wadesk_bench) on DATABASE_URL's server and
 * leaves it there for the benchmarks (--drop removes it at the end). PGlite: a new data directory (must not exist).
 * Scale 1: 50,000 contacts, 100,000 tickets, 1,000,000 messages (see bench/seed/data-set.ts). Users:
 * admin@bench.local and attendant1..7@bench.local, password "bench-pass".
 */
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { migrateDatabase, openDatabase, rowsOf, type DatabaseHandle } from '../apps/server/src/db/client.js';
import { databaseUrl, runStatement } from '../apps/server/src/test/throwaway-database.js';
import { seedDataSet, sizesAt } from './seed/data-set.js';

const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: '1' },
    database: { type: 'string', default: 'wadesk_bench' },
    pglite: { type: 'string' },
    drop: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  console.log('usage: [DATABASE_URL=postgres://...] npm run bench:seed -- [--scale 1] [--database wadesk_bench] [--drop] [--pglite DIR]');
  process.exit(0);
}
const scale = Number(values.scale);
if (!(scale > 0 && scale <= 10)) throw new Error(`--scale must be in (0, 10], got ${values.scale}`);
const name = values.database ?? 'wadesk_bench';
if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`--database must be a plain lower-case identifier, got ${name}`);


async function open(): Promise<{ handle: DatabaseHandle; where: string; dropAfter?: () => Promise<void> }> {
  if (values.pglite) {
    if (existsSync(values.pglite)) throw new Error(`${values.pglite} exists: give a new directory`);
    return { handle: await openDatabase({ dataDir: values.pglite }), where: `PGlite at ${values.pglite}` };
  }
  const baseUrl = process.env.DATABASE_URL;
  if (!baseUrl) throw new Error('set DATABASE_URL (a PostgreSQL server, its database is only used to create ours) or pass --pglite DIR');
  await runStatement(baseUrl, `drop database if exists ${name} with (force)`);
  await runStatement(baseUrl, `create database ${name}`);
  // One connection: setseed() and the temporary plan table belong to the session.
  const handle = await openDatabase({ databaseUrl: databaseUrl(baseUrl, name), poolSize: 1 });
  return {
    handle,
    where: `PostgreSQL database ${name} (${new URL(baseUrl).host})`,
    dropAfter: () => runStatement(baseUrl, `drop database if exists ${name} with (force)`),
  };
}

async function main(): Promise<void> {
  const target = sizesAt(scale);
  const { handle, where, dropAfter } = await open();
  const started = Date.now();
  try {
    console.log(`seeding ${where}: scale ${scale} (${target.contacts} contacts, ${target.tickets} tickets, ${target.messages} messages)`);
    await migrateDatabase(handle);
    const counts = await seedDataSet(handle.db, scale, (line) => console.log(line));
    const seconds = (Date.now() - started) / 1000;
    const sizes = await handle.db.execute(sql`
      select pg_size_pretty(pg_database_size(current_database())) as db,
             pg_size_pretty(pg_total_relation_size('messages')) as messages,
             pg_size_pretty(pg_total_relation_size('tickets')) as tickets,
             pg_size_pretty(pg_total_relation_size('contacts')) as contacts`);
    const size = rowsOf<{ db: string; messages: string; tickets: string; contacts: string }>(sizes)[0];
    console.log(
      `done in ${seconds.toFixed(1)} s: ${counts.contacts} contacts, ${counts.tickets} tickets ` +
        `(${counts.open} open, ${counts.pending} pending, ${counts.closed} closed), ${counts.messages} messages, ` +
        `${counts.ticketEvents} ticket events`,
    );
    console.log(`size: database ${size.db}; messages ${size.messages}, tickets ${size.tickets}, contacts ${size.contacts} (with indexes)`);
  } finally {
    await handle.close();
    if (values.drop && dropAfter) {
      await dropAfter();
      console.log(`dropped ${name}`);
    }
  }
}

await main();
