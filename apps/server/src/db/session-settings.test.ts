import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, rowsOf } from './client.js';

const url = process.env.DATABASE_URL;

/** pg 8 warns (once a process) of a statement sent while its client already has one waiting; pg 9 refuses it. */
const QUEUED_STATEMENT = /already executing a query/;
const warnings: string[] = [];
const onWarning = (warning: Error) => warnings.push(warning.message);

describe.skipIf(!url)("the desk's PostgreSQL sessions (issue 35, decision 0047)", () => {
  beforeAll(() => {
    process.on('warning', onWarning);
  });
  afterAll(() => {
    process.off('warning', onWarning);
  });

  it('run without parallel workers, on every connection of the pool', async () => {
    const handle = await openDatabase({ databaseUrl: url!, poolSize: 3 });
    try {
      const settings = await Promise.all(
        [1, 2, 3].map(async () => {
          const [row] = rowsOf<{ value: string; pid: number }>(
            await handle.db.execute(sql`select current_setting('max_parallel_workers_per_gather') as value, pg_backend_pid() as pid, pg_sleep(0.05)`),
          );
          return row!;
        }),
      );
      expect(new Set(settings.map((s) => s.pid)).size).toBe(3);
      expect(settings.map((s) => s.value)).toEqual(['0', '0', '0']);
    } finally {
      await handle.close();
    }
  });

  it('make the setting before a new connection is handed out, so that no statement waits behind it', async () => {
    const handle = await openDatabase({ databaseUrl: url!, poolSize: 4 });
    try {
      // New connections, each taken by a statement or a transaction at once.
      await Promise.all([
        handle.db.execute(sql`select 1`),
        handle.db.execute(sql`select 2`),
        handle.db.transaction(async (tx) => {
          await tx.execute(sql`select 3`);
        }),
        handle.pool!.query('select 4'),
      ]);
      await new Promise((resolve) => setImmediate(resolve)); // a warning is emitted on the next tick
    } finally {
      await handle.close();
    }
    expect(warnings.filter((message) => QUEUED_STATEMENT.test(message))).toEqual([]);
  });
});
