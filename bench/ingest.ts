/**
 * bench/ingest: inbound messages through the simulator at rising rates, with an attendant's socket connected
 * (issue 11): sustained messages/s, p50/p99 from the inbound call to the socket event, none lost or duplicated.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/wadesk_bench npx tsx bench/ingest.ts [--rates 250,500,1000] [--seconds 10]
 *   npx tsx bench/ingest.ts --pglite data/bench-pglite
 *   options: --cpu-prof DIR (profiles the server), --node-flags='--max-semi-space-size=4' (V8 flags of the server)
 *
 * Works on a copy of the seeded database (PostgreSQL: `create database … template`, dropped after; PGlite: a copied
 * data folder), so the desk it writes into has its real size and the seeded one stays as it was. Runs the built
 * server in its own process with the simulator on, pairs a simulator connection, connects the admin's socket,
 * and sends `POST /api/simulator/:id/inbound` from many contacts at each fixed rate (autocannon, open loop), each
 * body tagged with its number. A message counts as received when its `appMessage` event reaches the socket;
 * acknowledged (2xx) but never received is lost; every acknowledged message is then looked up in the database
 * (stored exactly once).
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { io } from 'socket.io-client';
import { embeddedDataDir, openDatabase, rowsOf } from '../apps/server/src/db/client.js';
import { databaseUrl, runStatement } from '../apps/server/src/test/throwaway-database.js';
import { cpuMs, postgresCpuMs } from './lib/cpu.js';
import { percentile, signIn, startServer, type BenchDatabase, type ServerProcess } from './lib/server-process.js';
import { SEED_PASSWORD } from './seed/data-set.js';
import { runWhenMain } from './lib/script.js';

export interface IngestStep {
  rate: number;
  seconds: number;
  sent: number;
  acknowledged: number;
  received: number;
  /** Received on the socket per second of the step. */
  sustained: number;
  p50: number;
  p99: number;
  lost: number;
  duplicated: number;
  errors: number;
  peakRssMb: number;
  /** CPU time per acknowledged message (µs): the server process, and PostgreSQL's backends (0 on PGlite). */
  serverCpuUs: number;
  postgresCpuUs: number;
}

export interface IngestBenchResult {
  database: string;
  contacts: number;
  steps: IngestStep[];
}

export interface IngestBenchOptions {
  database: BenchDatabase;
  rates?: number[];
  seconds?: number;
  /** Distinct senders (default 5,000). */
  contacts?: number;
  serverEntry?: string;
  /** Extra node flags of the server process (e.g. --cpu-prof to profile it). */
  serverNodeArgs?: string[];
}

const TAG = 'ingest-bench';

/** A copy of the seeded database for this run (named after it and `suffix`, one a benchmark), and how to remove it. */
export async function copyDatabase(db: BenchDatabase, suffix = 'ingest'): Promise<{ copy: BenchDatabase; remove: () => Promise<void> }> {
  if (db.kind === 'pglite') {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'wadesk-ingest-'));
    await cp(embeddedDataDir(db.dataDir), embeddedDataDir(dir), { recursive: true });
    return { copy: { kind: 'pglite', dataDir: dir }, remove: () => rm(dir, { recursive: true, force: true }) };
  }
  const source = new URL(db.url).pathname.slice(1);
  const name = `${source}_${suffix}`;
  const admin = databaseUrl(db.url, 'postgres');
  await runStatement(admin, `drop database if exists ${name} with (force)`);
  // A template must have no other session (a benchmark's pool may still be closing).
  await runStatement(admin, `select pg_terminate_backend(pid) from pg_stat_activity where datname = '${source}' and pid <> pg_backend_pid()`);
  await runStatement(admin, `create database ${name} template ${source}`);
  return { copy: { kind: 'postgres', url: databaseUrl(db.url, name) }, remove: () => runStatement(admin, `drop database if exists ${name} with (force)`) };
}

export async function api<T>(server: ServerProcess, token: string, method: string, url: string, body?: unknown): Promise<T> {
  const res = await fetch(`${server.baseUrl}${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** A new simulator connection (with `input`'s fields: its queues…), paired: it runs in the process it was made on. */
export async function pairSimulator(server: ServerProcess, token: string, input: object = {}): Promise<number> {
  const { id } = await api<{ id: number }>(server, token, 'POST', '/api/whatsapp', { name: `Ingest ${Date.now()}`, channel: 'simulator', ...input });
  const deadline = Date.now() + 15_000;
  while ((await api<{ status: string }>(server, token, 'GET', `/api/whatsapp/${id}`)).status !== 'qrcode') {
    if (Date.now() > deadline) throw new Error('the simulator connection never showed a QR code');
    await new Promise((r) => setTimeout(r, 100));
  }
  await api(server, token, 'POST', `/api/simulator/${id}/scan`);
  return id;
}

export async function runIngestBench(options: IngestBenchOptions): Promise<IngestBenchResult> {
  const rates = options.rates ?? [250, 500, 1000];
  const seconds = options.seconds ?? 10;
  const contacts = options.contacts ?? 5000;
  const { copy, remove } = await copyDatabase(options.database);
  const server = await startServer({ database: copy, entry: options.serverEntry, simulator: true, nodeArgs: options.serverNodeArgs });
  const postgresDb = copy.kind === 'postgres' ? new URL(copy.url).pathname.slice(1) : null;
  const steps: IngestStep[] = [];
  try {
    const token = await signIn(server.baseUrl, 'admin@bench.local', SEED_PASSWORD);
    const whatsappId = await pairSimulator(server, token);
    const socket = io(server.baseUrl, { path: '/socket.io', auth: { token }, transports: ['websocket'], reconnection: false });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    const sentAt = new Map<number, number>();
    const arrivals = new Map<number, number>();
    let duplicateEvents = 0;
    socket.on('appMessage', (e: { action: string; message: { body: string; fromMe: boolean } }) => {
      if (e.action !== 'create' || e.message.fromMe) return;
      const match = /^ingest-bench (\d+) /.exec(e.message.body);
      if (!match) return;
      const n = Number(match[1]);
      if (arrivals.has(n)) duplicateEvents += 1;
      else arrivals.set(n, performance.now());
    });

    let next = 0;
    for (const rate of rates) {
      server.resetPeak();
      const first = next;
      const acknowledged = new Set<number>();
      duplicateEvents = 0;
      const cpuBefore = { server: cpuMs(server.pid), postgres: postgresDb ? postgresCpuMs(postgresDb) : 0 };
      const result = await autocannon({
        url: `${server.baseUrl}/api/simulator/${whatsappId}/inbound`,
        method: 'POST',
        connections: Math.min(128, Math.max(8, Math.ceil(rate / 10))),
        overallRate: rate,
        duration: seconds,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        requests: [
          {
            setupRequest: (req: autocannon.Request, context: object) => {
              const n = next++;
              (context as { n?: number }).n = n;
              sentAt.set(n, performance.now());
              const from = `55119${String(10_000_000 + (n % contacts)).slice(-8)}`;
              return { ...req, body: JSON.stringify({ id: `${TAG}-${n}`, from, name: `Ingest ${n % contacts}`, body: `${TAG} ${n} olá, quero saber do meu pedido` }) };
            },
            onResponse: (status: number, _body: string, context: object) => {
              if (status >= 200 && status < 300) acknowledged.add((context as { n: number }).n);
            },
          },
        ],
      });
      // Stragglers: wait until every acknowledged message arrived, or 10 s.
      const waitUntil = Date.now() + 10_000;
      while (Date.now() < waitUntil && [...acknowledged].some((n) => !arrivals.has(n))) await new Promise((r) => setTimeout(r, 100));
      const latencies: number[] = [];
      let received = 0;
      for (let n = first; n < next; n += 1) {
        const at = arrivals.get(n);
        if (at === undefined) continue;
        received += 1;
        latencies.push(at - sentAt.get(n)!);
      }
      latencies.sort((a, b) => a - b);
      const lost = [...acknowledged].filter((n) => !arrivals.has(n)).length;
      const perMessage = (ms: number) => Math.round((ms * 1000) / Math.max(1, acknowledged.size));
      steps.push({
        rate,
        seconds,
        sent: next - first,
        acknowledged: acknowledged.size,
        received,
        sustained: Math.round(received / seconds),
        p50: Math.round(percentile(latencies, 0.5)),
        p99: Math.round(percentile(latencies, 0.99)),
        lost,
        duplicated: duplicateEvents,
        errors: result.errors + result.non2xx + result.timeouts,
        peakRssMb: Math.round(server.peakRssMb()),
        serverCpuUs: perMessage(cpuMs(server.pid) - cpuBefore.server),
        postgresCpuUs: perMessage(postgresDb ? postgresCpuMs(postgresDb) - cpuBefore.postgres : 0),
      });
      const s = steps.at(-1)!;
      console.error(`  ${rate}/s: ${s.sustained} msg/s received, p50 ${s.p50} ms, p99 ${s.p99} ms, ${s.lost} lost, ${s.errors} errors, RSS ${s.peakRssMb} MB, CPU a message: server ${s.serverCpuUs} µs, PostgreSQL ${s.postgresCpuUs} µs`);
    }
    socket.close();
  } finally {
    await server.stop();
  }
  // Stored exactly once: every tagged message of the run, by its network id.
  const handle = await openDatabase(copy.kind === 'postgres' ? { databaseUrl: copy.url, poolSize: 1 } : { dataDir: embeddedDataDir(copy.dataDir) });
  try {
    const rows = rowsOf<{ total: number; distinct_ids: number }>(
      await handle.db.execute(sql`select count(*)::int as total, count(distinct channel_message_id)::int as distinct_ids from messages where channel_message_id like ${`${TAG}-%`}`),
    );
    const stored = rows[0]!;
    const extra = stored.total - stored.distinct_ids;
    for (const step of steps) step.duplicated += extra > 0 ? extra : 0;
  } finally {
    await handle.close();
    await remove();
  }
  const where = options.database.kind === 'postgres' ? 'PostgreSQL on loopback' : 'embedded PGlite';
  return { database: `${where}, a copy of the seeded database`, contacts, steps };
}

export function ingestBenchMarkdown(result: IngestBenchResult, heading = '## Inbound messages'): string {
  return [
    heading,
    '',
    `${result.database}; simulator inbound calls from ${result.contacts.toLocaleString('en')} contacts at a fixed rate (autocannon, open loop), the admin's socket connected; latency from the call to the socket event.`,
    '',
    '| offered msg/s | seconds | acknowledged | received on the socket | sustained msg/s | p50 ms | p99 ms | lost | duplicated | errors | server RSS MB | server CPU µs/msg | PostgreSQL CPU µs/msg |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...result.steps.map(
      (s) => `| ${s.rate} | ${s.seconds} | ${s.acknowledged} | ${s.received} | ${s.sustained} | ${s.p50} | ${s.p99} | ${s.lost} | ${s.duplicated} | ${s.errors} | ${s.peakRssMb} | ${s.serverCpuUs} | ${s.postgresCpuUs} |`,
    ),
    '',
    'Target: ≥ 1,000 messages/s sustained for 60 s, p99 ≤ 100 ms to the socket, none lost.',
  ].join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      rates: { type: 'string', default: '250,500,1000' },
      seconds: { type: 'string', default: '10' },
      contacts: { type: 'string', default: '5000' },
      pglite: { type: 'string' },
      'cpu-prof': { type: 'string' },
      'node-flags': { type: 'string' },
      entry: { type: 'string' },
    },
  });
  const database: BenchDatabase = values.pglite
    ? { kind: 'pglite', dataDir: values.pglite }
    : { kind: 'postgres', url: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/wadesk_bench' };
  const result = await runIngestBench({
    database,
    rates: values.rates.split(',').map(Number),
    seconds: Number(values.seconds),
    contacts: Number(values.contacts),
    serverEntry: values.entry,
    serverNodeArgs: [
      ...(values['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${values['cpu-prof']}`] : []),
      ...(values['node-flags']?.split(' ').filter(Boolean) ?? []),
    ],
  });
  console.log(ingestBenchMarkdown(result));
}

runWhenMain(import.meta.url, main);
