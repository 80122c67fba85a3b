import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openDatabase, rowsOf } from './client.js';

const url = process.env.DATABASE_URL;

describe.skipIf(!url)('the desk\'s PostgreSQL sessions (issue 35)', () => {
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
});
