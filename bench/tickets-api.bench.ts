/**
 * Load benchmark of the ticket list and search, on loopback only, bounded in time.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/tickets-api.bench.ts
 *
 * Creates a throwaway database (PostgreSQL) or an in-memory PGlite, seeds contacts, tickets and messages with
 * SQL, boots the real app on a random loopback port and measures requests per second with autocannon.
 * Sizes: BENCH_TICKETS (default 5000), BENCH_MESSAGES_PER_TICKET (default 20), BENCH_SECONDS (default 10).
 */
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';
import { migrateDatabase, openDatabase, type DatabaseHandle } from '../apps/server/src/db/client.js';
import { openThrowawayDatabase } from '../apps/server/src/test/throwaway-database.js';
import { seedConnectionQueuesAndContacts, seedTicketsAndMessages } from './seed-base.js';

const TICKETS = Number(process.env.BENCH_TICKETS ?? 5000);
const PER_TICKET = Number(process.env.BENCH_MESSAGES_PER_TICKET ?? 20);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);

/** A throwaway database on DATABASE_URL's server (dropped on close), or an in-memory PGlite. */
async function openBenchDatabase(): Promise<DatabaseHandle> {
  const base = process.env.DATABASE_URL;
  return base ? openThrowawayDatabase(base, 'wadesk_bench', 20) : openDatabase({});
}

async function seed(handle: DatabaseHandle): Promise<void> {
  const { db } = handle;
  await seedConnectionQueuesAndContacts(db, TICKETS);
  await seedTicketsAndMessages(db, TICKETS, PER_TICKET);
  // Flush the GIN pending lists and refresh statistics, as autovacuum would on a live database.
  await db.execute(sql`vacuum analyze`);
}

async function run(url: string, token: string, title: string): Promise<{ title: string; rps: number; p50: number; p99: number; errors: number }> {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    headers: { authorization: `Bearer ${token}` },
  });
  return {
    title,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

async function main(): Promise<void> {
  const handle = await openBenchDatabase();
  try {
    await migrateDatabase(handle);
    const started = Date.now();
    await seed(handle);
    console.log(`seeded ${TICKETS} tickets and ${TICKETS * PER_TICKET} messages in ${((Date.now() - started) / 1000).toFixed(1)} s (${handle.kind})`);
    const config = loadConfig(
      { ADMIN_EMAIL: 'bench@bench.local', ADMIN_PASSWORD: 'bench-pass', SIMULATOR: 'on', LOG_LEVEL: 'warn' },
      { jwtSecret: 'bench-jwt-secret', refreshSecret: 'bench-refresh-secret', dataDir: '/tmp/wadesk-bench', webDist: '/nonexistent' },
    );
    const app = await buildApp(config, { database: handle, logger: false });
    await app.http.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.http.server.address() as AddressInfo).port}`;
    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'bench@bench.local', password: 'bench-pass' }),
    });
    const { token } = (await login.json()) as { token: string };
    const results = [
      await run(`${base}/api/tickets?status=open&showAll=true&pageNumber=1`, token, 'list open tickets (page 1, 40 rows)'),
      await run(`${base}/api/tickets?status=pending&showAll=true&pageNumber=3`, token, 'list pending tickets (page 3)'),
      await run(`${base}/api/tickets?searchParam=garantia&showAll=true`, token, 'search a common word (in 20% of messages)'),
      await run(`${base}/api/tickets?searchParam=xylofone&showAll=true`, token, 'search a rare word (in 0.1% of messages)'),
      await run(`${base}/api/tickets?searchParam=cliente%2012&showAll=true`, token, 'search a contact name'),
    ];
    console.log(`\n${handle.kind}, ${TICKETS} tickets, ${TICKETS * PER_TICKET} messages, ${CONNECTIONS} connections, ${SECONDS} s each`);
    console.log('| request | req/s | p50 ms | p99 ms | errors |\n|---|---|---|---|---|');
    for (const r of results) console.log(`| ${r.title} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.errors} |`);
    await app.close();
  } finally {
    await handle.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
