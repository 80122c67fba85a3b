import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, rowsOf, type DatabaseHandle } from './client.js';

// The embedded database (PGlite) is one session shared by the pool's one client. A statement that failed outside a
// transaction used to take it down: pg-pool ended the client of the failed statement, its end reached the client
// that replaced it on the same connection, and PGlite answered nothing more (every later statement failed).
let handle: DatabaseHandle;

beforeAll(async () => {
  handle = await openDatabase({});
  await handle.db.execute(sql`create table t (id int primary key)`);
});

afterAll(async () => {
  await handle?.close();
});

describe('embedded database: a failed statement', () => {
  it('fails alone: the statements after it run, with or without parameters', async () => {
    await handle.db.execute(sql`insert into t values (${1})`);
    await expect(handle.db.execute(sql`insert into t values (${1})`)).rejects.toMatchObject({ cause: { code: '23505' } });
    await expect(handle.db.execute(sql`select 1 / ${0}::int`)).rejects.toMatchObject({ cause: { code: '22012' } });
    await expect(handle.db.execute(sql`select 2147483647::int + ${1}::int`)).rejects.toMatchObject({ cause: { code: '22003' } });
    await handle.db.execute(sql`insert into t values (${2})`);
    expect(rowsOf<{ n: number }>(await handle.db.execute(sql`select count(*)::int as n from t`))).toEqual([{ n: 2 }]);
    expect(rowsOf<{ n: number }>(await handle.db.execute(sql`select ${40}::int + 2 as n`))).toEqual([{ n: 42 }]);
  });

  it('answers pool.query callers too, with the error or the rows', async () => {
    const pool = handle.pool!;
    await expect(pool.query('select 1 / $1::int', [0])).rejects.toMatchObject({ code: '22012' });
    const rows = await new Promise((resolve, reject) => {
      pool.query('select $1::int as n', [7], (err: Error | undefined, result: { rows: unknown[] }) => (err ? reject(err) : resolve(result.rows)));
    });
    expect(rows).toEqual([{ n: 7 }]);
  });
});

describe('embedded database: requests running statements one after another', () => {
  // Decision 0026: a statement lets the event loop go round before it queues for the one session. Without that, the
  // session went from one waiting statement to the next in microtasks, each request's next statement joined the queue
  // at once, and nothing else (reading new requests) ran until every request was done with all its statements.
  it('let the event loop go round while they run', async () => {
    const order: string[] = [];
    const request = async (r: number) => {
      for (let i = 0; i < 5; i += 1) {
        await handle.db.execute(sql`select ${r * 10 + i}::int as n`);
        order.push('statement');
      }
    };
    const requests = [0, 1, 2, 3].map(request);
    setImmediate(() => order.push('turn'));
    await Promise.all(requests);
    // The loop went round after the first statement of each request at most, not after all 20.
    expect(order.indexOf('turn')).toBeGreaterThanOrEqual(0);
    expect(order.indexOf('turn')).toBeLessThanOrEqual(4);
  });
});
