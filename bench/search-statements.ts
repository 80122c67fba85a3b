/**
 * bench/search-statements: what each statement of a ticket search costs PostgreSQL, for two builds of the server on
 * the same data set (issue 35 item 1). Each build's TicketsRepository answers the search once (page 1, an admin's
 * view) with its statements recorded; each statement is then run again under `EXPLAIN (ANALYZE, TIMING OFF)` N times,
 * the builds in turn, and the smallest execution time kept: on a machine shared with other work, the minimum of
 * interleaved runs is what the statement costs, where requests/s move with the load.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/wadesk_bench npx tsx bench/search-statements.ts \
 *     --before apps/server/dist-base --after apps/server/dist [--runs 9] [--plans] ladtfivek garantia yamamoto
 *
 * A build is a directory of the compiled server (`npx tsc -p apps/server/tsconfig.build.json --outDir …`).
 * Prints, per search, each statement's milliseconds and their sum (the excerpts and DTO statements included); with
 * `--plans`, the after build's plans too (`EXPLAIN (ANALYZE, BUFFERS)`).
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type pg from 'pg';
import type { DatabaseHandle, DatabaseOptions } from '../apps/server/src/db/client.js';
import type { TicketsRepository as Repository } from '../apps/server/src/modules/tickets/tickets.repository.js';
import { postgresUrl } from './lib/server-process.js';
import { runWhenMain } from './lib/script.js';

interface Recorded {
  text: string;
  values: unknown[];
}

interface Build {
  name: string;
  handle: DatabaseHandle;
  repository: Repository;
  recorded: Recorded[];
  query: (text: string, values: unknown[]) => Promise<pg.QueryResult>;
}

/** A build's repository on its own connection, every statement it sends recorded. */
async function openBuild(name: string, dir: string, url: string): Promise<Build> {
  const load = async <T>(file: string): Promise<T> => (await import(pathToFileURL(path.resolve(dir, file)).href)) as T;
  const { openDatabase } = await load<{ openDatabase: (options: DatabaseOptions) => Promise<DatabaseHandle> }>('db/client.js');
  const { TicketsRepository } = await load<{ TicketsRepository: new (db: DatabaseHandle['db']) => Repository }>('modules/tickets/tickets.repository.js');
  const handle = await openDatabase({ databaseUrl: url, poolSize: 1 });
  const pool = handle.pool!;
  const query = pool.query.bind(pool) as (text: string, values: unknown[]) => Promise<pg.QueryResult>;
  const recorded: Recorded[] = [];
  // Drizzle sends a config object ({ text, values, … }) or the text and its values.
  (pool as { query: unknown }).query = (first: string | { text: string; values?: unknown[] }, second?: unknown, ...rest: unknown[]) => {
    if (typeof first === 'string') recorded.push({ text: first, values: Array.isArray(second) ? second : [] });
    else recorded.push({ text: first.text, values: first.values ?? (Array.isArray(second) ? second : []) });
    return (query as (...args: unknown[]) => unknown)(first, second, ...rest);
  };
  return { name, handle, repository: new TicketsRepository(handle.db), recorded, query };
}

async function executionMs(build: Build, statement: Recorded): Promise<number> {
  const result = await build.query(`explain (analyze, timing off, summary) ${statement.text}`, statement.values);
  const line = result.rows.map((row: Record<string, string>) => row['QUERY PLAN']!).find((l) => l.startsWith('Execution Time'));
  return line ? Number.parseFloat(line.split(': ')[1]!) : Number.NaN;
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      before: { type: 'string' },
      after: { type: 'string' },
      runs: { type: 'string', default: '9' },
      plans: { type: 'boolean', default: false },
    },
  });
  if (!values.before || !values.after || positionals.length === 0) {
    throw new Error('usage: bench/search-statements.ts --before DIR --after DIR [--runs N] word…');
  }
  const url = process.env.DATABASE_URL ?? postgresUrl('wadesk_bench');
  const builds = [await openBuild('before', values.before, url), await openBuild('after', values.after, url)];
  try {
    const runs = Number(values.runs);
    for (const word of positionals) {
      const statements = new Map<Build, Recorded[]>();
      for (const build of builds) {
        build.recorded.length = 0;
        await build.repository.listJson({ search: word }, 1, 40);
        statements.set(build, [...build.recorded]);
      }
      const least = new Map(builds.map((b) => [b, statements.get(b)!.map(() => Number.POSITIVE_INFINITY)]));
      for (let run = 0; run < runs; run += 1) {
        for (const build of builds) {
          for (const [i, statement] of statements.get(build)!.entries()) {
            least.get(build)![i] = Math.min(least.get(build)![i]!, await executionMs(build, statement));
          }
        }
      }
      const shown = builds.map((b) => {
        const ms = least.get(b)!;
        return `${b.name} ${ms.map((m) => m.toFixed(2)).join(' + ')} = ${ms.reduce((a, m) => a + m, 0).toFixed(2)} ms`;
      });
      console.log(`${word.padEnd(14)} ${shown.join(' | ')}`);
      if (values.plans) {
        // The after build's statements as run once more, with their plans: where each one's time goes.
        const after = builds[1]!;
        for (const statement of statements.get(after)!) {
          const result = await after.query(`explain (analyze, buffers) ${statement.text}`, statement.values);
          console.log(result.rows.map((row: Record<string, string>) => `    ${row['QUERY PLAN']!}`).join('\n'));
        }
      }
    }
  } finally {
    for (const build of builds) await build.handle.close();
  }
}

runWhenMain(import.meta.url, main);
