/**
 * Accent- and case-insensitive search, A/B in one database: the predicates before issue 10 item 13
 * (`lower(col) like '%word%'` on lower() trigram indexes) against today's (`messages.search_text like
 * f_unaccent(lower('%word%'))`, `f_unaccent(lower(name)) like ...` on their trigram indexes), run alternately
 * so both see the same machine load. Prints the median time of the ticket search's matching step.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/search-fold.bench.ts   # PostgreSQL
 *   npx tsx bench/search-fold.bench.ts                                                          # embedded PGlite
 *   # BENCH_TICKETS (5000), BENCH_MESSAGES_PER_TICKET (20), BENCH_ROUNDS (21)
 */
import { sql, type SQL } from 'drizzle-orm';
import { migrateDatabase, openDatabase, type DatabaseHandle } from '../apps/server/src/db/client.js';
import { openThrowawayDatabase } from '../apps/server/src/test/throwaway-database.js';
import { seedConnectionQueuesAndContacts, seedTicketsAndMessages } from './seed-base.js';

const TICKETS = Number(process.env.BENCH_TICKETS ?? 5000);
const PER_TICKET = Number(process.env.BENCH_MESSAGES_PER_TICKET ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 21);

async function openBenchDatabase(): Promise<DatabaseHandle> {
  const base = process.env.DATABASE_URL;
  return base ? openThrowawayDatabase(base, 'wadesk_bench', 4) : openDatabase({});
}

/** The ticket search's matching step (tickets.repository.ts), with the old or the folded predicates. */
function matching(folded: boolean, word: string): SQL {
  const p = `%${word}%`;
  const name = folded ? sql`f_unaccent(lower(c.name)) like f_unaccent(lower(${p}))` : sql`lower(c.name) like ${p}`;
  const body = folded ? sql`m.search_text like f_unaccent(lower(${p}))` : sql`lower(m.body) like ${p}`;
  return sql`select count(*) from tickets t
    where t.contact_id in (select c.id from contacts c where ${name} or c.number like ${p})
       or t.id in (select m.ticket_id from messages m where ${body})`;
}

async function main(): Promise<void> {
  const handle = await openBenchDatabase();
  try {
    const { db } = handle;
    await migrateDatabase(handle);
    await seedConnectionQueuesAndContacts(db, TICKETS);
    await seedTicketsAndMessages(db, TICKETS, PER_TICKET);
    // The indexes the old predicates used, beside today's.
    await db.execute(sql`create index bench_old_body on messages using gin (lower(body) gin_trgm_ops)`);
    await db.execute(sql`create index bench_old_name on contacts using gin (lower(name) gin_trgm_ops)`);
    await db.execute(sql`vacuum analyze`);
    console.log(`${handle.kind}, ${TICKETS} tickets, ${TICKETS * PER_TICKET} messages, ${ROUNDS} rounds, median ms`);
    console.log('| search | lower() like (before) | folded (after) |\n|---|---|---|');
    for (const word of ['garantia', 'xylofone', 'cliente 12']) {
      const times = { before: [] as number[], after: [] as number[] };
      for (let round = 0; round < ROUNDS; round += 1) {
        for (const folded of round % 2 ? [true, false] : [false, true]) {
          const started = performance.now();
          await db.execute(matching(folded, word));
          times[folded ? 'after' : 'before'].push(performance.now() - started);
        }
      }
      const median = (list: number[]) => list.sort((a, b) => a - b)[Math.floor(list.length / 2)]!.toFixed(1);
      console.log(`| ${word} | ${median(times.before)} | ${median(times.after)} |`);
    }
  } finally {
    await handle.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
