/**
 * bench/ceiling: how close the desk comes to the machine's ceiling (issue 35 item 3). For the open list and the
 * messages page, in one run, at 16 connections and the same seconds each:
 *
 *   ours  the built server (bench/lib/server-process.ts) under autocannon;
 *   (a)   PostgreSQL alone: the statements the server ran for one such request, read on the wire between the server
 *         and PostgreSQL (bench/lib/wire-capture.ts), replayed by pgbench (bench/lib/pgbench-replay.ts: -M prepared,
 *         16 clients, 2 threads), one pgbench transaction being one request's statements with the same values;
 *   (b)   a bare Fastify (bench/lib/bare-fastify.ts) answering the bytes the server answered, under autocannon.
 *
 * Ours is reported as a fraction of the lower of (a) and (b); the issue's target is ≥ 50 %. Beside the rates, the CPU
 * each side spent per request (from /proc): unlike requests/s, it holds when other work shares the machine.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/wadesk_bench npx tsx bench/ceiling.ts [--seconds 10] [--entry apps/server/dist/main.js]
 *
 * The database is only read: pgbench's sessions are read-only (default_transaction_read_only), so a request that
 * wrote would fail the run instead of changing the data set. `npm run bench` (bench/run.ts) calls runCeilingBench.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { openDatabase } from '../apps/server/src/db/client.js';
import { readFacts, scenarios, type ApiScenario } from './api.js';
import { trackBackendCpu } from './lib/backend-cpu.js';
import { cpuMs } from './lib/cpu.js';
import { pgbenchScript, runPgbench, type PgbenchFigures } from './lib/pgbench-replay.js';
import { ROOT, signIn, startServer } from './lib/server-process.js';
import { startWireCapture, type CapturedStatement } from './lib/wire-capture.js';
import { SEED_PASSWORD } from './seed/data-set.js';
import { failOnMissed, runWhenMain } from './lib/script.js';

/** The requests of bench/api.ts whose ceilings the issue asks for. */
const KEYS = ['open', 'messages-chat'];
const CONNECTIONS = 16;
/** The application_name of each side's PostgreSQL sessions, whose CPU is counted (bench/lib/backend-cpu.ts). */
const OURS_SESSIONS = `wadesk-ceiling-ours-${process.pid}`;
const PGBENCH_SESSIONS = `wadesk-ceiling-pgbench-${process.pid}`;
/** Issue 35 item 3: ours at least half of the lower ceiling. */
const TARGET_FRACTION = 0.5;

interface LoadFigures {
  rps: number;
  p99: number;
  errors: number;
  /** CPU time per request (µs) of the process that answered. */
  cpuUs: number;
}

export interface CeilingRow {
  scenario: ApiScenario;
  /** The response the bare Fastify repeats. */
  contentType: string;
  bytes: number;
  ours: LoadFigures & { postgresCpuUs: number };
  postgres: PgbenchFigures & { statements: number; named: number; script: string };
  fastify: LoadFigures;
}

export interface CeilingResult {
  database: string;
  seconds: number;
  rows: CeilingRow[];
  /** CPU the server and its PostgreSQL sessions spend idle (ms a second): pg-boss's workers poll through its pool. */
  idle: { serverMs: number; postgresMs: number };
}

/** How long the server is watched idle before its load. */
const IDLE_SECONDS = 3;

/** A request as the server answered it, and the statements it ran for it. */
interface Captured {
  statements: CapturedStatement[];
  contentType: string;
  body: Buffer;
}

/** How many requests are captured: a request's statements are those all of them ran. */
const CAPTURED_REQUESTS = 5;

const statementKey = (s: CapturedStatement) => JSON.stringify([s.text, s.params]);

/** The statements every run holds (as many times as the one that holds it least), in the first run's order. */
function commonStatements(runs: CapturedStatement[][]): CapturedStatement[] {
  return runs.slice(1).reduce((kept, run) => {
    const left = run.map(statementKey);
    return kept.filter((s) => {
      const at = left.indexOf(statementKey(s));
      if (at >= 0) left.splice(at, 1);
      return at >= 0;
    });
  }, runs[0] ?? []);
}

/**
 * Each request's statements, from the built server started on a capturing proxy: after a warm-up (caches filled),
 * a few requests one at a time, and the statements all of them ran. pg-boss's workers poll through the same pool many
 * times a second: a poll that fell in one request's window is not taken for part of it.
 */
async function captureRequests(url: string, list: ApiScenario[], entry: string | undefined): Promise<Map<string, Captured>> {
  const target = new URL(url);
  const capture = await startWireCapture({ host: target.hostname, port: Number(target.port || 5432) });
  const proxied = new URL(url);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(capture.port);
  const server = await startServer({ database: { kind: 'postgres', url: proxied.toString() }, entry });
  const captured = new Map<string, Captured>();
  try {
    const token = await signIn(server.baseUrl, 'admin@bench.local', SEED_PASSWORD);
    const request = async (scenario: ApiScenario) => {
      const res = await fetch(`${server.baseUrl}${scenario.path}`, { headers: { authorization: `Bearer ${token}` } });
      if (res.status !== 200) throw new Error(`${scenario.path} answered ${res.status}: ${await res.text()}`);
      return { contentType: res.headers.get('content-type') ?? 'application/octet-stream', body: Buffer.from(await res.arrayBuffer()) };
    };
    for (const scenario of list) {
      if (scenario.as !== 'admin') throw new Error(`${scenario.key}: the ceiling signs in as the admin only`);
      for (let i = 0; i < 3; i += 1) await request(scenario);
      const runs: CapturedStatement[][] = [];
      let response: Awaited<ReturnType<typeof request>> | undefined;
      for (let i = 0; i < CAPTURED_REQUESTS; i += 1) {
        capture.start();
        response = await request(scenario);
        runs.push(capture.stop());
      }
      const statements = commonStatements(runs);
      if (statements.length === 0) throw new Error(`${scenario.key}: the requests ran no statement in common`);
      captured.set(scenario.key, { statements, ...response! });
    }
  } finally {
    await server.stop();
    await capture.close();
  }
  return captured;
}

/**
 * autocannon at 16 connections for `seconds` after a 1 s warm-up, with the CPU per request of `pid` and of the
 * PostgreSQL sessions of `sessions` (the server's pool) when given.
 */
async function load(
  url: string,
  headers: Record<string, string>,
  seconds: number,
  pid: number,
  sessions?: { url: string; applicationName: string },
): Promise<LoadFigures & { postgresCpuUs: number }> {
  await autocannon({ url, connections: CONNECTIONS, duration: 1, headers });
  const before = cpuMs(pid);
  const backends = sessions && (await trackBackendCpu(sessions.url, sessions.applicationName));
  const result = await autocannon({ url, connections: CONNECTIONS, duration: seconds, headers });
  const postgresMs = backends ? await backends.stop() : 0;
  const perRequest = (ms: number) => Math.round((ms * 1000) / Math.max(1, result.requests.total));
  return {
    rps: Math.round(result.requests.average),
    p99: result.latency.p99,
    errors: result.errors + result.non2xx + result.timeouts,
    cpuUs: perRequest(cpuMs(pid) - before),
    postgresCpuUs: perRequest(postgresMs),
  };
}

/** A bare Fastify in its own process answering `route` with the captured response; stopped after `work`. */
async function withBareFastify<T>(route: string, captured: Captured, work: (baseUrl: string, pid: number) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(path.join(tmpdir(), 'wadesk-bare-'));
  const bodyFile = path.join(dir, 'body');
  writeFileSync(bodyFile, captured.body);
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench/lib/bare-fastify.ts'), route, captured.contentType, bodyFile], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const [port] = await Promise.race([
      createInterface({ input: child.stdout! })[Symbol.asyncIterator]().next().then((line) => [Number(line.value)]),
      exited.then(() => [NaN]),
      new Promise<number[]>((resolve) => setTimeout(() => resolve([NaN]), 30_000).unref()),
    ]);
    if (!Number.isInteger(port)) throw new Error('the bare Fastify did not start within 30 s');
    return await work(`http://127.0.0.1:${port}`, child.pid!);
  } finally {
    child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The server's own CPU and its PostgreSQL sessions' while it answers nothing, in ms a second. */
async function idleCpu(pid: number, url: string): Promise<CeilingResult['idle']> {
  const before = cpuMs(pid);
  const backends = await trackBackendCpu(url, OURS_SESSIONS);
  await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
  const postgresMs = await backends.stop();
  return { serverMs: Math.round((cpuMs(pid) - before) / IDLE_SECONDS), postgresMs: Math.round(postgresMs / IDLE_SECONDS) };
}

export interface CeilingBenchOptions {
  /** The seeded PostgreSQL database (only read). */
  url: string;
  seconds?: number;
  serverEntry?: string;
}

export async function runCeilingBench(options: CeilingBenchOptions): Promise<CeilingResult> {
  const seconds = options.seconds ?? 10;
  const factsHandle = await openDatabase({ databaseUrl: options.url, poolSize: 1 });
  const facts = await readFacts(factsHandle).finally(() => factsHandle.close());
  const list = scenarios(facts).filter((s) => KEYS.includes(s.key));
  const captured = await captureRequests(options.url, list, options.serverEntry);

  const ours = new Map<string, CeilingRow['ours']>();
  const server = await startServer({ database: { kind: 'postgres', url: options.url }, entry: options.serverEntry, env: { PGAPPNAME: OURS_SESSIONS } });
  let idle: CeilingResult['idle'];
  try {
    const headers = { authorization: `Bearer ${await signIn(server.baseUrl, 'admin@bench.local', SEED_PASSWORD)}` };
    idle = await idleCpu(server.pid, options.url);
    for (const scenario of list) {
      ours.set(scenario.key, await load(`${server.baseUrl}${scenario.path}`, headers, seconds, server.pid, { url: options.url, applicationName: OURS_SESSIONS }));
      console.error(`  ${scenario.key} ours: ${ours.get(scenario.key)!.rps} req/s, p99 ${ours.get(scenario.key)!.p99} ms`);
    }
  } finally {
    await server.stop();
  }

  const rows: CeilingRow[] = [];
  for (const scenario of list) {
    const request = captured.get(scenario.key)!;
    const { script, variables } = pgbenchScript(request.statements);
    const figures = await runPgbench({ url: options.url, script, variables, seconds, clients: CONNECTIONS, applicationName: PGBENCH_SESSIONS });
    const postgres = { ...figures, statements: request.statements.length, named: request.statements.filter((s) => s.named).length, script: `${script}${variables.map((v) => `-- -D ${v}`).join('\n')}` };
    console.error(`  ${scenario.key} PostgreSQL alone: ${postgres.tps} tps, latency ${postgres.latencyMs} ms (p99 ${postgres.p99} ms), ${postgres.statements} statements`);
    const route = new URL(scenario.path, 'http://localhost').pathname;
    const fastify = await withBareFastify(route, request, (baseUrl, pid) => load(`${baseUrl}${scenario.path}`, {}, seconds, pid));
    console.error(`  ${scenario.key} bare Fastify: ${fastify.rps} req/s, p99 ${fastify.p99} ms`);
    rows.push({ scenario, contentType: request.contentType, bytes: request.body.length, ours: ours.get(scenario.key)!, postgres, fastify });
  }
  return {
    database: `PostgreSQL on loopback: ${facts.counts.contacts.toLocaleString('en')} contacts, ${facts.counts.tickets.toLocaleString('en')} tickets, ${facts.counts.messages.toLocaleString('en')} messages`,
    seconds,
    rows,
    idle,
  };
}

/** Ours over the lower of the two ceilings (0–1). */
export function ceilingFraction(row: CeilingRow): number {
  return row.ours.rps / Math.max(1, Math.min(row.postgres.tps, row.fastify.rps));
}

/** The requests under half their ceiling, or answered with errors: `npm run bench` fails on any. */
export function missedCeilingTargets(result: CeilingResult): string[] {
  return result.rows
    .filter((r) => !(ceilingFraction(r) >= TARGET_FRACTION && r.ours.errors === 0 && r.fastify.errors === 0))
    .map((r) => `ceiling of ${r.scenario.title}: ours ${r.ours.rps} req/s (${r.ours.errors} errors), ${(ceilingFraction(r) * 100).toFixed(0)} % of min(PostgreSQL alone ${r.postgres.tps} tps, bare Fastify ${r.fastify.rps} req/s) (target ≥ ${TARGET_FRACTION * 100} %)`);
}

export function ceilingBenchMarkdown(result: CeilingResult, heading = "### The machine's ceiling (issue 35 item 3)"): string {
  const lines = [
    heading,
    '',
    `${result.database}; ${CONNECTIONS} connections, ${result.seconds} s a run after a 1 s warm-up, one after the other on the same machine as their load generators.`,
    'Ours: the built server under autocannon. (a) PostgreSQL alone: the statements the server ran for one request (read on the wire between it and PostgreSQL), replayed with the same values by `pgbench -M prepared -c 16 -j 2`, one transaction a request (its p99 from pgbench\'s per-transaction log). pgbench prepares each statement once a session; the server prepares its named statements so and parses and plans the unnamed ones at each run (the script says which is which). (b) a plain `fastify()` in its own process answering the same bytes and content type for the same URL, under autocannon.',
    '',
    '| request | response | ours req/s | ours p99 ms | (a) statements | (a) tps | (a) latency avg / p99 ms | (b) req/s | (b) p99 ms | ours / min(a, b) | target |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    ...result.rows.map((r) => {
      const fraction = ceilingFraction(r);
      const met = fraction >= TARGET_FRACTION && r.ours.errors === 0 && r.fastify.errors === 0;
      return `| ${r.scenario.title} | ${r.bytes.toLocaleString('en')} B, ${r.contentType} | ${r.ours.rps} | ${r.ours.p99} | ${r.postgres.statements} (${r.postgres.named} named) | ${r.postgres.tps} | ${r.postgres.latencyMs} / ${r.postgres.p99} | ${r.fastify.rps} | ${r.fastify.p99} | ${(fraction * 100).toFixed(0)} % | ${met ? 'met' : '**missed**'} (≥ ${TARGET_FRACTION * 100} %) |`;
    }),
    '',
    'CPU per request (µs, from /proc), which holds when other work shares the machine:',
    '',
    '| request | ours: server | ours: PostgreSQL | (a) PostgreSQL alone | (b) bare Fastify |',
    '|---|---:|---:|---:|---:|',
    ...result.rows.map((r) => `| ${r.scenario.title} | ${r.ours.cpuUs} | ${r.ours.postgresCpuUs} | ${r.postgres.cpuUs} | ${r.fastify.cpuUs} |`),
    '',
    `Ours' columns include what the server spends answering nothing (pg-boss's workers polling through its pool): watched idle for ${IDLE_SECONDS} s before its load, ${result.idle.serverMs} ms of its CPU and ${result.idle.postgresMs} ms of PostgreSQL's a second, ` +
      `${result.rows.map((r) => `${Math.round(((result.idle.serverMs + result.idle.postgresMs) * 1000) / Math.max(1, r.ours.rps))} µs a request at ${r.ours.rps} requests/s (${r.scenario.key})`).join(', ')}.`,
    '',
    `Load average when the run ended: ${loadavg().map((n) => n.toFixed(1)).join(', ')} (${cpus().length} cores).`,
    '',
  ];
  for (const r of result.rows) {
    lines.push(`<details><summary>pgbench script of ${r.scenario.title}</summary>`, '', '```sql', r.postgres.script, '```', '', '</details>', '');
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { seconds: { type: 'string', default: '10' }, entry: { type: 'string' } } });
  const result = await runCeilingBench({
    url: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/wadesk_bench',
    seconds: Number(values.seconds),
    serverEntry: values.entry,
  });
  console.log(ceilingBenchMarkdown(result));
  failOnMissed(missedCeilingTargets(result));
}

runWhenMain(import.meta.url, main);
