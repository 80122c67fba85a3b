/**
 * bench/api: the desk's hot requests at real size, from outside, on loopback, bounded in time (issue 11).
 *
 *   npm run bench:seed                                         # once: 100,000 tickets, 1,000,000 messages
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/wadesk_bench npx tsx bench/api.ts [--seconds 10]
 *   npx tsx bench/api.ts --pglite data/bench-pglite            # the embedded database (seeded with --scale 0.1)
 *   options: --only open,search-rare (scenario keys), --connections 2,16, --no-explain, --cpu-prof DIR (profiles the server),
 *            --node-flags='--max-semi-space-size=4' (V8 flags of the server process)
 *
 * Runs the built server (`node apps/server/dist/main.js`; `node scripts/start.mjs --build` builds it) in its own
 * process against the seeded database, signs in as the seeded admin and an attendant, and drives each request
 * with autocannon at 2 and 16 connections: requests/s, p50, p99, errors (non-2xx and socket errors) and the
 * server's peak resident memory. Then, with the server stopped, it runs each request once in-process with a
 * query logger and explains (ANALYZE, BUFFERS) the slowest statement it ran: the plans in docs/benchmarks.md.
 * Prints the markdown section; `npm run bench` (bench/run.ts) writes it into docs/benchmarks.md.
 */
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';
import { embeddedDataDir, openDatabase, rowsOf, type DatabaseHandle } from '../apps/server/src/db/client.js';
import { signIn, startServer, type BenchDatabase, type ServerProcess } from './lib/server-process.js';
import { MESSAGE_LADDER, NAME_LADDER, RARE_WORDS, SEED_PASSWORD, TICKET_LADDER } from './seed/data-set.js';
import { runWhenMain } from './lib/script.js';

export interface ApiScenario {
  key: string;
  title: string;
  /** Path and query under the server's origin. */
  path: string;
  as: 'admin' | 'attendant';
  /** Requests/s and p99 (ms) at 16 connections that the issue asks for, where it does. */
  target?: { rps: number; p99: number };
  /** Measured at 16 connections only (the ladders: many rows, one question each). */
  only16?: boolean;
}

export interface ApiRow {
  scenario: ApiScenario;
  connections: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  peakRssMb: number;
}

export interface ExplainedStatement {
  scenario: ApiScenario;
  statement: string;
  executionMs: number;
  plan: string;
}

export interface ApiBenchResult {
  database: string;
  /** The embedded database (a tenth of the data): judged within 3× of the targets, as issue 11 sets. */
  embedded: boolean;
  seconds: number;
  rows: ApiRow[];
  peakRssMb: number;
  plans: ExplainedStatement[];
}

interface Facts {
  bigTicket: { id: number; messages: number };
  /** A ticket of about 100 messages with media, quotes and reactions among its newest (issue 35 item 2). */
  chatTicket: { id: number; messages: number } | null;
  /** The ladders' counts as seeded (absent from a data set seeded before issue 35). */
  ladders: { word: string; kind: 'messages' | 'tickets'; messages: number; tickets: number }[];
  names: { surname: string; contacts: number }[];
  closedTickets: number;
  attendantQueues: number[];
  counts: { tickets: number; messages: number; contacts: number };
}

const ATTENDANT = 'attendant1@bench.local';

export async function readFacts(handle: DatabaseHandle): Promise<Facts> {
  const { db } = handle;
  const [big] = rowsOf<{ id: number; n: number }>(
    await db.execute(sql`select ticket_id as id, count(*)::int as n from messages group by ticket_id order by 2 desc limit 1`),
  );
  const [closed] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from tickets where status = 'closed'`));
  const queues = rowsOf<{ q: number }>(await db.execute(sql`select uq.queue_id as q from user_queues uq join users u on u.id = uq.user_id where u.email = ${ATTENDANT} order by 1`));
  const [counts] = rowsOf<Facts['counts']>(await db.execute(sql`select (select count(*) from tickets)::int as tickets, (select count(*) from messages)::int as messages, (select count(*) from contacts)::int as contacts`));
  if (!big || !counts || counts.tickets === 0) throw new Error('the database holds no seeded data: run npm run bench:seed first');
  const [chat] = rowsOf<{ id: number; n: number }>(
    await db.execute(sql`
      select ticket_id as id, count(*)::int as n from messages group by ticket_id
      having count(*) between 90 and 120 and count(*) filter (where media_type is not null) >= 5
         and count(*) filter (where quoted_msg_id is not null) >= 3
      order by abs(count(*) - 100), ticket_id limit 1`),
  );
  const ladders: Facts['ladders'] = [];
  for (const [word, kind] of [...MESSAGE_LADDER.map(([w]) => [w, 'messages'] as const), ...TICKET_LADDER.map(([w]) => [w, 'tickets'] as const)]) {
    const [row] = rowsOf<{ messages: number; tickets: number }>(
      await db.execute(sql`select (select count(*) from messages where body like ${`% ${word}`})::int as messages,
                                 (select count(*) from ticket_search where words @@ search_query(${word}))::int as tickets`),
    );
    if (row && row.tickets > 0) ladders.push({ word, kind, ...row });
  }
  const names: Facts['names'] = [];
  for (const [surname] of NAME_LADDER) {
    const [row] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from contacts where name like ${`% ${surname}`}`));
    if (row && row.n > 0) names.push({ surname, contacts: row.n });
  }
  return {
    bigTicket: { id: big.id, messages: big.n },
    chatTicket: chat ? { id: chat.id, messages: chat.n } : null,
    ladders,
    names,
    closedTickets: closed!.n,
    attendantQueues: queues.map((r) => r.q),
    counts,
  };
}

/** Issue 35 item 1: every search, whatever its word's frequency or its name's matches. */
const SEARCH_TARGET = { rps: 200, p99: 100 };

/** The requests, as the web app sends them (see apps/web/src/features/tickets/tickets-api.ts toQuery). */
export function scenarios(facts: Facts): ApiScenario[] {
  const q = (params: Record<string, string | number>) => new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();
  const attendantQueues = JSON.stringify(facts.attendantQueues);
  const deepClosedPage = Math.max(1, Math.floor(facts.closedTickets / 40 / 2));
  const deepMessagesPage = Math.max(1, Math.floor(facts.bigTicket.messages / 20 / 2));
  return [
    { key: 'open', title: 'open tickets, page 1 (with its tab count)', path: `/api/tickets?${q({ pageNumber: 1, status: 'open', showAll: 'true', isGroup: 'false' })}`, as: 'admin', target: { rps: 700, p99: 50 } },
    { key: 'pending', title: 'pending tickets, page 1 (with its tab count)', path: `/api/tickets?${q({ pageNumber: 1, status: 'pending', showAll: 'true', isGroup: 'false' })}`, as: 'admin' },
    { key: 'open-attendant', title: "an attendant's open tickets (own queues), page 1", path: `/api/tickets?${q({ pageNumber: 1, status: 'open', showAll: 'false', isGroup: 'false', queueIds: attendantQueues })}`, as: 'attendant' },
    { key: 'closed-deep', title: `closed tickets, page ${deepClosedPage} (deep)`, path: `/api/tickets?${q({ pageNumber: deepClosedPage, status: 'closed', showAll: 'true', isGroup: 'false' })}`, as: 'admin' },
    { key: 'search-rare', title: `search a rare word ("${RARE_WORDS[0]}")`, path: `/api/tickets?${q({ pageNumber: 1, searchParam: RARE_WORDS[0]!, showAll: 'true' })}`, as: 'admin', target: { rps: 200, p99: 100 } },
    { key: 'search-common', title: 'search a common word ("garantia")', path: `/api/tickets?${q({ pageNumber: 1, searchParam: 'garantia', showAll: 'true' })}`, as: 'admin', target: { rps: 50, p99: 500 } },
    { key: 'search-name', title: 'search a contact name without accents ("joao araujo")', path: `/api/tickets?${q({ pageNumber: 1, searchParam: 'joao araujo', showAll: 'true' })}`, as: 'admin' },
    { key: 'messages-first', title: `a ticket's messages, page 1 (ticket of ${facts.bigTicket.messages} messages)`, path: `/api/messages/${facts.bigTicket.id}?pageNumber=1`, as: 'admin', target: { rps: 1500, p99: 30 } },
    { key: 'messages-deep', title: `a ticket's messages, page ${deepMessagesPage} (deep)`, path: `/api/messages/${facts.bigTicket.id}?pageNumber=${deepMessagesPage}`, as: 'admin' },
    { key: 'contacts-abc', title: 'contacts search "abc"', path: `/api/contacts?${q({ pageNumber: 1, searchParam: 'abc' })}`, as: 'admin', target: { rps: 1000, p99: 50 } },
    { key: 'contacts-name', title: 'contacts search "conceicao"', path: `/api/contacts?${q({ pageNumber: 1, searchParam: 'conceicao' })}`, as: 'admin', target: { rps: 1000, p99: 50 } },
    { key: 'dashboard', title: 'dashboard', path: '/api/dashboard', as: 'admin' },
    // Issue 36 §2: labels on 30 % of the tickets; the filter with the most used label, and with two.
    { key: 'open-label', title: 'open tickets with a label, page 1 (with its count)', path: `/api/tickets?${q({ pageNumber: 1, status: 'open', showAll: 'true', isGroup: 'false', labelIds: '[1]' })}`, as: 'admin' },
    { key: 'closed-labels', title: 'closed tickets with either of two labels, page 1 (with its count)', path: `/api/tickets?${q({ pageNumber: 1, status: 'closed', showAll: 'true', isGroup: 'false', labelIds: '[2,3]' })}`, as: 'admin' },
    ...(facts.chatTicket
      ? [{ key: 'messages-chat', title: `a ticket's messages, page 1 (ticket of ${facts.chatTicket.messages} messages with media, quotes and reactions)`, path: `/api/messages/${facts.chatTicket.id}?pageNumber=1`, as: 'admin' as const, target: { rps: 2000, p99: 30 } }]
      : []),
    // Issue 35 item 1: the cost of a search must not depend on where a word's frequency falls.
    ...facts.ladders.map((l) => ({
      key: `search-${l.word}`,
      title: `search a word in ${l.messages.toLocaleString('en')} messages of ${l.tickets.toLocaleString('en')} tickets ("${l.word}")`,
      path: `/api/tickets?${q({ pageNumber: 1, searchParam: l.word, showAll: 'true' })}`,
      as: 'admin' as const,
      target: SEARCH_TARGET,
      only16: true,
    })),
    ...facts.names.flatMap((n) => [
      {
        key: `contacts-${n.surname}`,
        title: `contacts search, a surname of ${n.contacts.toLocaleString('en')} contacts ("${n.surname}")`,
        path: `/api/contacts?${q({ pageNumber: 1, searchParam: n.surname.toLowerCase() })}`,
        as: 'admin' as const,
        target: SEARCH_TARGET,
        only16: true,
      },
      {
        key: `search-name-${n.surname}`,
        title: `tickets search, a surname of ${n.contacts.toLocaleString('en')} contacts ("${n.surname}")`,
        path: `/api/tickets?${q({ pageNumber: 1, searchParam: n.surname.toLowerCase(), showAll: 'true' })}`,
        as: 'admin' as const,
        target: SEARCH_TARGET,
        only16: true,
      },
    ]),
  ];
}

async function load(server: ServerProcess, scenario: ApiScenario, token: string, connections: number, seconds: number): Promise<ApiRow> {
  server.resetPeak();
  const result = await autocannon({
    url: `${server.baseUrl}${scenario.path}`,
    connections,
    duration: seconds,
    headers: { authorization: `Bearer ${token}` },
  });
  return {
    scenario,
    connections,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx + result.timeouts,
    peakRssMb: Math.round(server.peakRssMb()),
  };
}

/** Runs each request once in-process, logging its statements, and explains the slowest. */
async function explainAll(database: BenchDatabase, list: ApiScenario[]): Promise<ExplainedStatement[]> {
  const statements: { query: string; params: unknown[] }[] = [];
  const handle = await openDatabase(
    database.kind === 'postgres'
      ? { databaseUrl: database.url, poolSize: 2, logger: { logQuery: (query, params) => statements.push({ query, params }) } }
      : { dataDir: embeddedDataDir(database.dataDir), logger: { logQuery: (query, params) => statements.push({ query, params }) } },
  );
  const config = loadConfig(
    { SIMULATOR: 'off', LOG_LEVEL: 'warn' },
    { jwtSecret: 'bench-explain-secret', refreshSecret: 'bench-explain-refresh', dataDir: '/tmp/wadesk-bench-explain', webDist: '/nonexistent' },
  );
  const app = await buildApp(config, { database: handle, logger: false });
  const client = (handle.db as unknown as { $client: { query(text: string, params: unknown[]): Promise<{ rows: Record<string, unknown>[] }> } }).$client;
  const explained: ExplainedStatement[] = [];
  try {
    const tokens: Record<ApiScenario['as'], string> = { admin: '', attendant: '' };
    for (const [as, email] of [['admin', 'admin@bench.local'], ['attendant', ATTENDANT]] as const) {
      const res = await app.http.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: SEED_PASSWORD } });
      tokens[as] = (res.json() as { token: string }).token;
    }
    for (const scenario of list) {
      statements.length = 0;
      const res = await app.http.inject({ method: 'GET', url: scenario.path, headers: { authorization: `Bearer ${tokens[scenario.as]}` } });
      if (res.statusCode !== 200) throw new Error(`${scenario.path} answered ${res.statusCode}: ${res.body}`);
      const ran = statements.filter((s) => /^\s*(with|select)\b/i.test(s.query) && !/from "users"\s+where "users"."id" = \$1/i.test(s.query));
      let slowest: ExplainedStatement | undefined;
      for (const s of ran) {
        const { rows } = await client.query(`explain (analyze, buffers) ${s.query}`, s.params);
        const plan = rows.map((r) => String(Object.values(r)[0])).join('\n');
        const executionMs = Number(/Execution Time: ([\d.]+) ms/.exec(plan)?.[1] ?? 0);
        if (!slowest || executionMs > slowest.executionMs) slowest = { scenario, statement: s.query, executionMs, plan };
      }
      if (slowest) explained.push(slowest);
    }
  } finally {
    await app.close();
    await handle.close();
  }
  return explained;
}

export interface ApiBenchOptions {
  database: BenchDatabase;
  seconds?: number;
  connections?: number[];
  /** Only these scenario keys. */
  only?: string[];
  serverEntry?: string;
  explain?: boolean;
  /** Extra node flags of the server process (e.g. --cpu-prof to profile it). */
  serverNodeArgs?: string[];
}

export async function runApiBench(options: ApiBenchOptions): Promise<ApiBenchResult> {
  const seconds = options.seconds ?? 10;
  const connectionCounts = options.connections ?? [2, 16];
  const db = options.database;
  const factsHandle = await openDatabase(db.kind === 'postgres' ? { databaseUrl: db.url, poolSize: 1 } : { dataDir: embeddedDataDir(db.dataDir) });
  let facts: Facts;
  try {
    facts = await readFacts(factsHandle);
  } finally {
    await factsHandle.close();
  }
  const list = scenarios(facts).filter((s) => !options.only || options.only.includes(s.key));
  const server = await startServer({ database: db, entry: options.serverEntry, nodeArgs: options.serverNodeArgs });
  const rows: ApiRow[] = [];
  let peak = 0;
  try {
    const tokens = {
      admin: await signIn(server.baseUrl, 'admin@bench.local', SEED_PASSWORD),
      attendant: await signIn(server.baseUrl, ATTENDANT, SEED_PASSWORD),
    };
    for (const scenario of list) {
      // Warm-up (plans cached, pages in the buffer cache), then the measured runs.
      await load(server, scenario, tokens[scenario.as], 2, 1);
      for (const connections of scenario.only16 ? [16] : connectionCounts) {
        const row = await load(server, scenario, tokens[scenario.as], connections, seconds);
        rows.push(row);
        peak = Math.max(peak, row.peakRssMb);
        console.error(`  ${scenario.key} @${connections}: ${row.rps} req/s, p50 ${row.p50} ms, p99 ${row.p99} ms, ${row.errors} errors, RSS ${row.peakRssMb} MB`);
      }
    }
  } finally {
    await server.stop();
  }
  const plans = options.explain === false ? [] : await explainAll(db, list);
  const where =
    db.kind === 'postgres'
      ? `PostgreSQL ${await serverVersion(db.url)} on loopback`
      : 'embedded PGlite (in the server process)';
  return {
    embedded: db.kind === 'pglite',
    database: `${where}: ${facts.counts.contacts.toLocaleString('en')} contacts, ${facts.counts.tickets.toLocaleString('en')} tickets, ${facts.counts.messages.toLocaleString('en')} messages`,
    seconds,
    rows,
    peakRssMb: peak,
    plans,
  };
}

async function serverVersion(url: string): Promise<string> {
  const handle = await openDatabase({ databaseUrl: url, poolSize: 1 });
  try {
    const [row] = rowsOf<{ server_version: string }>(await handle.db.execute(sql`show server_version`));
    return row?.server_version.split(' ')[0] ?? '?';
  } finally {
    await handle.close();
  }
}

/** Issue 11: the embedded database, at a tenth of the data, within 3× of the targets. */
const EMBEDDED_SLACK = 3;

export function verdict(row: ApiRow, slack: number): string {
  const target = row.scenario.target;
  if (!target || row.connections !== 16) return '';
  const rps = Math.ceil(target.rps / slack);
  const p99 = target.p99 * slack;
  const ok = row.rps >= rps && row.p99 <= p99 && row.errors === 0;
  return `${ok ? 'met' : '**missed**'} (≥ ${rps}, ≤ ${p99} ms${slack === 1 ? '' : `: within ${slack}× of ≥ ${target.rps}, ≤ ${target.p99} ms`})`;
}

/**
 * The rows at 16 connections that missed their target (with `slack`, the targets loosened that many times: the
 * embedded database, or `npm run bench -- --quick` at a tenth of the data): `npm run bench` fails on any.
 */
export function missedTargets(result: ApiBenchResult, slack = result.embedded ? EMBEDDED_SLACK : 1): string[] {
  return result.rows
    .filter((r) => r.scenario.target && r.connections === 16)
    .filter((r) => !(r.rps >= Math.ceil(r.scenario.target!.rps / slack) && r.p99 <= r.scenario.target!.p99 * slack && r.errors === 0))
    .map((r) => `${r.scenario.title}: ${r.rps} req/s, p99 ${r.p99} ms, ${r.errors} errors (target ≥ ${Math.ceil(r.scenario.target!.rps / slack)}, ≤ ${r.scenario.target!.p99 * slack} ms)`);
}

export function apiBenchMarkdown(result: ApiBenchResult, heading = '## API at real size', slack = result.embedded ? EMBEDDED_SLACK : 1): string {
  const lines = [
    heading,
    '',
    `${result.database}; autocannon on the same machine, ${result.seconds} s a run after a 1 s warm-up; the server in its own process.`,
    '',
    '| request | connections | req/s | p50 ms | p99 ms | errors | server RSS MB | target at 16 |',
    '|---|---:|---:|---:|---:|---:|---:|---|',
    ...result.rows.map((r) => `| ${r.scenario.title} | ${r.connections} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.peakRssMb} | ${verdict(r, slack)} |`),
    '',
    `Peak server RSS over all runs: **${result.peakRssMb} MB** (target ≤ ${200 * slack} MB${slack === 1 ? '' : `: within ${slack}× of ≤ 200 MB`}).`,
  ];
  if (result.plans.length > 0) {
    lines.push('', '### Query plans (the slowest statement of each request, EXPLAIN ANALYZE, BUFFERS)', '');
    for (const p of result.plans) {
      lines.push(`<details><summary>${p.scenario.title}: ${p.executionMs.toFixed(2)} ms</summary>`, '', '```sql', p.statement, '```', '', '```', p.plan, '```', '', '</details>', '');
    }
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      seconds: { type: 'string', default: '10' },
      pglite: { type: 'string' },
      only: { type: 'string' },
      connections: { type: 'string' },
      entry: { type: 'string' },
      'cpu-prof': { type: 'string' },
      'node-flags': { type: 'string' },
      'no-explain': { type: 'boolean', default: false },
    },
  });
  const database: BenchDatabase = values.pglite
    ? { kind: 'pglite', dataDir: values.pglite }
    : { kind: 'postgres', url: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/wadesk_bench' };
  const result = await runApiBench({
    database,
    seconds: Number(values.seconds),
    only: values.only?.split(','),
    connections: values.connections?.split(',').map(Number),
    serverEntry: values.entry,
    explain: !values['no-explain'],
    serverNodeArgs: [
      ...(values['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${values['cpu-prof']}`] : []),
      ...(values['node-flags']?.split(' ').filter(Boolean) ?? []),
    ],
  });
  console.log(apiBenchMarkdown(result));
}

runWhenMain(import.meta.url, main);
