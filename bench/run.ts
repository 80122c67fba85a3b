/**
 * `npm run bench`: the real-size benchmarks of issue 11, written into docs/benchmarks.md.
 *
 *   npm run bench                          # PostgreSQL (DATABASE_URL's server, default 127.0.0.1:5432) and PGlite
 *   npm run bench -- --only api,ingest     # some of api, reports, ceiling, ingest, menus, live, web, pglite
 *   npm run bench -- --seconds 30 --reseed # longer runs; seed the data sets again
 *   npm run bench -- --quick               # CI: the API on PostgreSQL at a tenth of the data, 5 s a request, 16
 *                                          # connections, targets loosened QUICK_SLACK times; nothing written
 *
 * Exits non-zero when a request misses its target (issue 35 item 4), after printing every figure.
 *
 * Builds the app if its sources changed (scripts/start.mjs --build), seeds the data sets when missing
 * (PostgreSQL database wadesk_bench at scale 1; data/bench-pglite at scale 0.1), runs bench/api, bench/ceiling, bench/ingest,
 * bench/menus, bench/live and bench/web, and replaces the part of docs/benchmarks.md between its `bench:start` and `bench:end` markers
 * with the figures, the command, the machine, its calibration (bench/lib/calibrate.ts) and the date. Loopback only;
 * every run is bounded in time.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { openDatabase, rowsOf } from '../apps/server/src/db/client.js';
import { apiBenchMarkdown, missedTargets, runApiBench } from './api.js';
import { ceilingBenchMarkdown, missedCeilingTargets, runCeilingBench } from './ceiling.js';
import { ingestBenchMarkdown, runIngestBench } from './ingest.js';
import { liveBenchMarkdown, missedLiveTargets, runLiveBench } from './live.js';
import { menusBenchMarkdown, missedMenuTargets, runMenusBench } from './menus.js';
import { missedReportTargets, reportsBenchMarkdown, runReportsBench } from './reports.js';
import { calibrate, calibrationLine } from './lib/calibrate.js';
import { machineLine, postgresUrl, ROOT } from './lib/server-process.js';
import { runWebBench, webBenchMarkdown } from './web.js';

const { values } = parseArgs({
  options: {
    only: { type: 'string', default: 'api,reports,ceiling,ingest,menus,live,web,pglite' },
    seconds: { type: 'string', default: '10' },
    'ingest-seconds': { type: 'string', default: '60' },
    /** bench/live: how long inbound runs while the team is connected (each on one process, then three). */
    'live-seconds': { type: 'string', default: '20' },
    reseed: { type: 'boolean', default: false },
    'no-write': { type: 'boolean', default: false },
    quick: { type: 'boolean', default: false },
    /** With --quick: where to write { passed, failed } (one test a target), for scripts/test.mjs. */
    json: { type: 'string' },
  },
});
/**
 * `--quick`: a tenth of the data, on a CI machine that has just run every other test; its targets are the real ones
 * loosened this many times. It is there to catch a cliff (a search 1.6 s instead of 0.1, issue 35), not to measure:
 * on this 2-core machine loaded by other work (load average 20) every request stayed within 10× (docs/benchmarks.md).
 */
const QUICK_SLACK = 10;
const only = new Set(values.only.split(','));
const seconds = Number(values.seconds);
const BENCH_DB = 'wadesk_bench';
const PGLITE_DIR = path.join(ROOT, 'data', 'bench-pglite');
const DOC = path.join(ROOT, 'docs', 'benchmarks.md');

function run(command: string, args: string[], env: Record<string, string> = {}): void {
  execFileSync(command, args, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ...env } });
}

/** The seeded PostgreSQL database's ticket count, or 0 when it is missing. */
async function seededTickets(name = BENCH_DB): Promise<number> {
  try {
    const handle = await openDatabase({ databaseUrl: postgresUrl(name), poolSize: 1 });
    try {
      return rowsOf<{ n: number }>(await handle.db.execute(sql`select count(*)::int as n from tickets`))[0]?.n ?? 0;
    } finally {
      await handle.close();
    }
  } catch {
    return 0;
  }
}

/** `--quick`: the API requests at a tenth of the data, each for 5 s at 16 connections; fails on a missed target. */
async function quick(): Promise<void> {
  run(process.execPath, ['scripts/start.mjs', '--build']);
  const name = 'wadesk_bench_quick';
  if (values.reseed || (await seededTickets(name)) < 10_000) {
    run('npx', ['tsx', 'bench/seed.ts', '--scale', '0.1', '--database', name], { DATABASE_URL: postgresUrl('postgres') });
  }
  const result = await runApiBench({ database: { kind: 'postgres', url: postgresUrl(name) }, seconds: 5, connections: [16], explain: false });
  console.log(apiBenchMarkdown(result, '### API, PostgreSQL, a tenth of the data set (--quick)', QUICK_SLACK));
  const missed = missedTargets(result, QUICK_SLACK);
  const measured = result.rows.filter((r) => r.scenario.target).length;
  console.log(`bench --quick: ${measured - missed.length} of ${measured} targets met (loosened ${QUICK_SLACK}×)`);
  for (const line of missed) console.log(`  missed: ${line}`);
  if (values.json) writeFileSync(values.json, JSON.stringify({ passed: measured - missed.length, failed: missed.length, missed }));
  if (missed.length > 0) process.exitCode = 1;
}

async function main(): Promise<void> {
  if (values.quick) return quick();
  const started = new Date();
  const missed: string[] = [];
  run(process.execPath, ['scripts/start.mjs', '--build']);
  // Before any load: how fast this machine is today, to compare these figures with another run's.
  const calibration = calibrationLine(await calibrate(postgresUrl('postgres')));
  console.error(calibration);
  const sections: string[] = [];
  // Each section is printed as soon as it is measured: a later failure loses nothing.
  const add = (section: string) => {
    sections.push(section);
    console.error(`\n${section}\n`);
  };

  if (only.has('api') || only.has('reports') || only.has('ceiling') || only.has('ingest') || only.has('menus') || only.has('live')) {
    if (values.reseed || (await seededTickets()) < 100_000) {
      run('npx', ['tsx', 'bench/seed.ts', '--scale', '1', '--database', BENCH_DB], { DATABASE_URL: postgresUrl('postgres') });
    }
    const database = { kind: 'postgres' as const, url: postgresUrl(BENCH_DB) };
    if (only.has('api')) {
      console.error('bench/api on PostgreSQL');
      const result = await runApiBench({ database, seconds });
      missed.push(...missedTargets(result));
      add(apiBenchMarkdown(result, '### API, PostgreSQL, the full data set'));
    }
    if (only.has('reports')) {
      console.error('bench/reports on PostgreSQL');
      const result = await runReportsBench({ database, seconds });
      missed.push(...missedReportTargets(result));
      add(reportsBenchMarkdown(result, '### Reports (issue 36 §6), PostgreSQL, 30 days of the full data set'));
    }
    if (only.has('ceiling')) {
      console.error('bench/ceiling on PostgreSQL');
      const result = await runCeilingBench({ url: database.url, seconds });
      missed.push(...missedCeilingTargets(result));
      add(ceilingBenchMarkdown(result, "### The machine's ceiling (issue 35 item 3), PostgreSQL, the full data set"));
    }
    if (only.has('ingest')) {
      console.error('bench/ingest on PostgreSQL');
      const result = await runIngestBench({ database, rates: [250, 500, 1000], seconds: Math.min(10, seconds) });
      const sustained = await runIngestBench({ database, rates: [Math.max(...result.steps.filter((s) => s.lost === 0).map((s) => s.sustained), 100)], seconds: Number(values['ingest-seconds']) });
      result.steps.push(...sustained.steps);
      add(ingestBenchMarkdown(result, '### Inbound messages, PostgreSQL (rising rates, then the best rate held)'));
    }
    if (only.has('menus')) {
      console.error('bench/menus on PostgreSQL');
      const result = await runMenusBench({ database, seconds: Number(values['ingest-seconds']) });
      missed.push(...missedMenuTargets(result));
      add(menusBenchMarkdown(result, '### Queue menus of new contacts (issue 35 item 6), PostgreSQL, one process and three'));
    }
    if (only.has('live')) {
      console.error('bench/live on PostgreSQL');
      const result = await runLiveBench({ url: database.url, seconds: Number(values['live-seconds']), log: (line) => console.error(line) });
      missed.push(...missedLiveTargets(result));
      add(liveBenchMarkdown(result, '### Live at team size (issue 35 item 5), PostgreSQL, one process and three'));
    }
  }
  if (only.has('pglite')) {
    if (values.reseed && existsSync(PGLITE_DIR)) run('rm', ['-rf', PGLITE_DIR]);
    if (!existsSync(path.join(PGLITE_DIR, 'pgdata'))) run('npx', ['tsx', 'bench/seed.ts', '--scale', '0.1', '--pglite', path.join(PGLITE_DIR, 'pgdata')]);
    const database = { kind: 'pglite' as const, dataDir: PGLITE_DIR };
    console.error('bench/api on PGlite');
    const result = await runApiBench({ database, seconds, connections: [16] });
    missed.push(...missedTargets(result));
    add(apiBenchMarkdown(result, '### API, embedded PGlite, a tenth of the data set'));
  }
  if (only.has('web')) {
    console.error('bench/web');
    add(webBenchMarkdown(await runWebBench()));
  }

  const body = [
    `<!-- bench:start (written by npm run bench; edit outside these markers) -->`,
    `## Real size (issue 11): figures of ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
    '',
    `Command: \`npm run bench -- --only ${values.only} --seconds ${seconds}\`. Machine: ${machineLine()}; the load generator runs on the same machine.`,
    '',
    calibration,
    '',
    ...sections.flatMap((s) => [s, '']),
    '<!-- bench:end -->',
  ].join('\n');
  console.log(body);
  if (values['no-write']) return finish(missed);
  const doc = existsSync(DOC) ? readFileSync(DOC, 'utf8') : '# Benchmarks\n';
  const start = doc.indexOf('<!-- bench:start');
  const end = doc.indexOf('<!-- bench:end -->');
  const next =
    start >= 0 && end > start
      ? doc.slice(0, start) + body + doc.slice(end + '<!-- bench:end -->'.length)
      : doc.replace(/^(# Benchmarks\n)/, `$1\n${body}\n`);
  writeFileSync(DOC, next);
  console.error(`wrote ${path.relative(ROOT, DOC)}`);
  finish(missed);
}

/** Every figure is printed and written first; then a missed target fails the run (issue 35 item 4). */
function finish(missed: string[]): void {
  if (missed.length === 0) return;
  console.error(`\n${missed.length} target(s) missed:`);
  for (const line of missed) console.error(`  ${line}`);
  process.exitCode = 1;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
