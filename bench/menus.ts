/**
 * bench/menus: first messages from new contacts at a fixed rate, each asking for its queue menu (issue 35 item 6):
 * whether the `queue.menu` jobs keep pace with inbound, on one process and on three sharing the database.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/wadesk_bench npx tsx bench/menus.ts [--rates 400,500] [--seconds 60] [--processes 1,3]
 *   options: --cpu-prof DIR (profiles the servers), --node-flags='…' (V8 flags of the servers), --entry (the built server)
 *
 * On a copy of the seeded database (bench/ingest's copyDatabase), each process gets a simulator connection with two
 * queues, so that every new ticket waits for a queue and gets the menu after QUEUE_MENU_DEBOUNCE_MS. Every message
 * comes from a new number, the load spread evenly over the processes (autocannon, open loop, each on the connection
 * its process runs). The admin's socket (on the first process; the others reach it through the cluster adapter) times
 * both ends: a message is received when its `appMessage` create arrives, its menu is sent when the menu's
 * `appMessage` shows it handed to the network (ack ≥ 1), wherever it was sent from (SocketWatch.menuAt). The job queue's depth is read
 * from the first process's /metrics every second. After the load, the run waits until every menu is sent or the
 * target's time is well past.
 */
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import type { MessageDto } from '@wadesk/contracts';
import { io, type Socket } from 'socket.io-client';
import { api, copyDatabase, pairSimulator } from './ingest.js';
import { cpuMs, postgresCpuMs } from './lib/cpu.js';
import { percentile, signIn, startServer, type BenchDatabase, type ServerProcess } from './lib/server-process.js';
import { SEED_PASSWORD } from './seed/data-set.js';
import { failOnMissed, runWhenMain } from './lib/script.js';

export interface MenusStep {
  processes: number;
  rate: number;
  seconds: number;
  acknowledged: number;
  received: number;
  /** Received on the socket per second of the step. */
  sustained: number;
  p99: number;
  lost: number;
  errors: number;
  /** One menu a new ticket: as many as messages received. */
  menusExpected: number;
  menusSent: number;
  /** Tickets that got more than one menu (once per ticket is the job's rule). */
  menusTwice: number;
  /** From a message's inbound call to its menu handed to the network (ms); Infinity when one never was. */
  menuP99: number;
  menuMax: number;
  /** wadesk_job_queue_depth{queue="queue.menu"}: every second of the step, its highest, and once the run waited. */
  depth: number[];
  depthPeak: number;
  depthEnd: number;
  /** CPU per acknowledged message, its menu included (µs): the server processes, and PostgreSQL's backends. */
  serverCpuUs: number;
  postgresCpuUs: number;
}

export interface MenusBenchResult {
  debounceMs: number;
  steps: MenusStep[];
}

export interface MenusBenchOptions {
  database: BenchDatabase & { kind: 'postgres' };
  /** Offered first messages a second (default 400, then 500 for the inbound target). */
  rates?: number[];
  seconds?: number;
  /** Runs on this many processes sharing the database, one after the other (default 1, then 3). */
  processes?: number[];
  serverEntry?: string;
  serverNodeArgs?: string[];
}

const TAG = 'menus-bench';
const METRICS_TOKEN = 'menus-bench-metrics-token';
/** The menu's target (issue 35 item 6): sent within the debounce and this. */
const MENU_SLACK_MS = 5000;
/** After the load, how long past the menu target the run waits for the last menus before counting them missing. */
const MENU_WAIT_MS = 30_000;

/** The debounce the servers run with (their environment's QUEUE_MENU_DEBOUNCE_MS, else config.ts's default). */
function debounceMs(): number {
  return Number(process.env.QUEUE_MENU_DEBOUNCE_MS ?? 3000);
}

/** A number no seeded contact has (area code 00) and no other message of the run. */
function newNumber(n: number): string {
  return `5500${String(n).padStart(9, '0')}`;
}

/** The first process migrates and starts; the others then start together, each with its node id. */
async function startServers(database: BenchDatabase, count: number, options: MenusBenchOptions): Promise<ServerProcess[]> {
  const start = (i: number) =>
    startServer({ database, entry: options.serverEntry, simulator: true, nodeArgs: options.serverNodeArgs, env: { NODE_ID: `p${i + 1}`, METRICS_TOKEN } });
  const first = await start(0);
  const others = await Promise.allSettled(Array.from({ length: count - 1 }, (_, i) => start(i + 1)));
  const started = [first, ...others.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []))];
  const failed = others.find((o) => o.status === 'rejected');
  if (failed) {
    await Promise.all(started.map((s) => s.stop()));
    throw failed.reason;
  }
  return started;
}

/** The queue menu's depth on `server`'s /metrics (the same for every process: read from the database). */
async function menuQueueDepth(server: ServerProcess): Promise<number | null> {
  try {
    const res = await fetch(`${server.baseUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    const match = /^wadesk_job_queue_depth\{queue="queue\.menu"\} (\d+)/m.exec(await res.text());
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

/** What the admin's socket saw: each message's arrival, each ticket's message number and its menus. */
class SocketWatch {
  readonly arrivals = new Map<number, number>();
  readonly ticketOf = new Map<number, number>();
  /** Per ticket: its menus' ids, when the first was announced and when one was first handed to the network. */
  readonly menuIds = new Map<number, Set<number>>();
  private readonly announcedAt = new Map<number, number>();
  private readonly handedAt = new Map<number, number>();

  constructor(socket: Socket) {
    socket.on('appMessage', (e: { action: string; message: MessageDto }) => this.see(e.message));
  }

  /**
   * When the ticket's menu was sent: handed to the network (ack ≥ 1), or announced when no ack came (the simulator's
   * ack of a cold server's very first send was once missing; a menu sent by its connection's own process is announced
   * after it is handed to the network, a routed one before).
   */
  menuAt(ticketId: number): number | undefined {
    return this.handedAt.get(ticketId) ?? this.announcedAt.get(ticketId);
  }

  private see(message: MessageDto): void {
    if (!message.fromMe) {
      const match = /^menus-bench (\d+) /.exec(message.body);
      if (!match || this.arrivals.has(Number(match[1]))) return;
      this.arrivals.set(Number(match[1]), performance.now());
      this.ticketOf.set(Number(match[1]), message.ticketId);
      return;
    }
    const ids = this.menuIds.get(message.ticketId) ?? new Set<number>();
    ids.add(message.id);
    this.menuIds.set(message.ticketId, ids);
    if (!this.announcedAt.has(message.ticketId)) this.announcedAt.set(message.ticketId, performance.now());
    if (message.ack >= 1 && !this.handedAt.has(message.ticketId)) this.handedAt.set(message.ticketId, performance.now());
  }
}

/** Open-loop inbound on every process at once, `rate` in all, each message from a new number. */
async function sendFirstMessages(
  servers: ServerProcess[],
  tokens: string[],
  connections: number[],
  rate: number,
  seconds: number,
  next: () => number,
  sentAt: Map<number, number>,
  acknowledged: Set<number>,
): Promise<number> {
  const results = await Promise.all(
    servers.map((server, i) =>
      autocannon({
        url: `${server.baseUrl}/api/simulator/${connections[i]}/inbound`,
        method: 'POST',
        connections: Math.ceil(Math.min(128, Math.max(8, Math.ceil(rate / 10))) / servers.length),
        overallRate: Math.round(rate / servers.length),
        duration: seconds,
        headers: { authorization: `Bearer ${tokens[i]}`, 'content-type': 'application/json' },
        requests: [
          {
            setupRequest: (req: autocannon.Request, context: object) => {
              const n = next();
              (context as { n?: number }).n = n;
              sentAt.set(n, performance.now());
              return { ...req, body: JSON.stringify({ id: `${TAG}-${n}`, from: newNumber(n), name: `Menus ${n}`, body: `${TAG} ${n} olá, primeira mensagem` }) };
            },
            onResponse: (status: number, _body: string, context: object) => {
              if (status >= 200 && status < 300) acknowledged.add((context as { n: number }).n);
            },
          },
        ],
      }),
    ),
  );
  return results.reduce((sum, r) => sum + r.errors + r.non2xx + r.timeouts, 0);
}

async function waitFor(done: () => boolean, until: number): Promise<void> {
  while (Date.now() < until && !done()) await new Promise((r) => setTimeout(r, 100));
}

/** The steps of one group of processes, on its own copy of the database. */
async function runOn(processes: number, options: MenusBenchOptions, rates: number[], seconds: number): Promise<MenusStep[]> {
  const { copy, remove } = await copyDatabase(options.database, 'menus');
  const postgresDb = new URL((copy as { url: string }).url).pathname.slice(1);
  const steps: MenusStep[] = [];
  let servers: ServerProcess[] = [];
  let socket: Socket | null = null;
  try {
    servers = await startServers(copy, processes, options);
    const tokens = await Promise.all(servers.map((s) => signIn(s.baseUrl, 'admin@bench.local', SEED_PASSWORD)));
    const queues = await api<{ id: number }[]>(servers[0]!, tokens[0]!, 'GET', '/api/queue');
    const queueIds = queues.slice(0, 2).map((q) => q.id);
    if (queueIds.length < 2) throw new Error('the seeded database has fewer than two queues: no menu would be sent');
    const connections: number[] = [];
    for (const [i, server] of servers.entries()) connections.push(await pairSimulator(server, tokens[i]!, { name: `Menus ${i + 1} ${Date.now()}`, queueIds, greetingMessage: "Olá! Escolha uma fila:" }));
    socket = io(servers[0]!.baseUrl, { path: '/socket.io', auth: { token: tokens[0] }, transports: ['websocket'], reconnection: false });
    await new Promise<void>((resolve, reject) => {
      socket!.once('connect', () => resolve());
      socket!.once('connect_error', reject);
    });
    const watch = new SocketWatch(socket);
    const sentAt = new Map<number, number>();
    let next = 0;
    for (const rate of rates) {
      const first = next;
      const acknowledged = new Set<number>();
      const depth: number[] = [];
      const sampler = setInterval(() => void menuQueueDepth(servers[0]!).then((d) => d !== null && depth.push(d)), 1000);
      const cpuBefore = { server: servers.reduce((sum, s) => sum + cpuMs(s.pid), 0), postgres: postgresCpuMs(postgresDb) };
      const errors = await sendFirstMessages(servers, tokens, connections, rate, seconds, () => next++, sentAt, acknowledged);
      const loadEnd = Date.now();
      const numbers = Array.from({ length: next - first }, (_, i) => first + i);
      await waitFor(() => [...acknowledged].every((n) => watch.arrivals.has(n)), loadEnd + 10_000);
      const menuDue = () => numbers.every((n) => !watch.ticketOf.has(n) || watch.menuAt(watch.ticketOf.get(n)!) !== undefined);
      await waitFor(menuDue, loadEnd + debounceMs() + MENU_SLACK_MS + MENU_WAIT_MS);
      clearInterval(sampler);
      const depthEnd = (await menuQueueDepth(servers[0]!)) ?? -1;
      const cpu = {
        server: servers.reduce((sum, s) => sum + cpuMs(s.pid), 0) - cpuBefore.server,
        postgres: postgresCpuMs(postgresDb) - cpuBefore.postgres,
      };
      const latencies: number[] = [];
      const menuDelays: number[] = [];
      let menusTwice = 0;
      for (const n of numbers) {
        const at = watch.arrivals.get(n);
        if (at === undefined) continue;
        latencies.push(at - sentAt.get(n)!);
        const ticketId = watch.ticketOf.get(n)!;
        const menuAt = watch.menuAt(ticketId);
        menuDelays.push(menuAt === undefined ? Infinity : menuAt - sentAt.get(n)!);
        if ((watch.menuIds.get(ticketId)?.size ?? 0) > 1) menusTwice += 1;
      }
      latencies.sort((a, b) => a - b);
      menuDelays.sort((a, b) => a - b);
      const perMessage = (ms: number) => Math.round((ms * 1000) / Math.max(1, acknowledged.size));
      const step: MenusStep = {
        processes,
        rate,
        seconds,
        acknowledged: acknowledged.size,
        received: latencies.length,
        sustained: Math.round(latencies.length / seconds),
        p99: Math.round(percentile(latencies, 0.99)),
        lost: [...acknowledged].filter((n) => !watch.arrivals.has(n)).length,
        errors,
        menusExpected: latencies.length,
        menusSent: menuDelays.filter(Number.isFinite).length,
        menusTwice,
        menuP99: Math.round(percentile(menuDelays, 0.99)),
        menuMax: Math.round(menuDelays.at(-1) ?? 0),
        depth,
        depthPeak: Math.max(0, ...depth),
        depthEnd,
        serverCpuUs: perMessage(cpu.server),
        postgresCpuUs: perMessage(cpu.postgres),
      };
      steps.push(step);
      console.error(
        `  ${processes} process(es), ${rate}/s: ${step.sustained} msg/s received, p99 ${step.p99} ms, ${step.lost} lost; menus ${step.menusSent}/${step.menusExpected}, p99 ${ms(step.menuP99)}, max ${ms(step.menuMax)}; depth peak ${step.depthPeak}, end ${step.depthEnd}; CPU a message: server ${step.serverCpuUs} µs, PostgreSQL ${step.postgresCpuUs} µs`,
      );
    }
  } finally {
    socket?.close();
    await Promise.all(servers.map((s) => s.stop()));
    await remove();
  }
  return steps;
}

function ms(value: number): string {
  return Number.isFinite(value) ? `${value.toLocaleString('en')} ms` : 'never';
}

export async function runMenusBench(options: MenusBenchOptions): Promise<MenusBenchResult> {
  const rates = options.rates ?? [400, 500];
  const seconds = options.seconds ?? 60;
  const steps: MenusStep[] = [];
  for (const processes of options.processes ?? [1, 3]) steps.push(...(await runOn(processes, options, rates, seconds)));
  return { debounceMs: debounceMs(), steps };
}

/** Every menu within the debounce + 5 s at 400/s; inbound of new contacts ≥ 500 msg/s, p99 ≤ 100 ms, 0 lost. */
export function missedMenuTargets(result: MenusBenchResult): string[] {
  const missed: string[] = [];
  const menuTarget = result.debounceMs + MENU_SLACK_MS;
  for (const s of result.steps) {
    const where = `menus, ${s.processes} process(es), ${s.rate}/s`;
    if (s.menusSent < s.menusExpected || s.menuMax > menuTarget) missed.push(`${where}: ${s.menusSent} of ${s.menusExpected} menus, the slowest ${ms(s.menuMax)} (target every one within ${menuTarget} ms)`);
    if (s.menusTwice > 0) missed.push(`${where}: ${s.menusTwice} tickets got their menu twice`);
    if (s.rate >= 500 && (s.sustained < 500 || s.p99 > 100 || s.lost > 0)) missed.push(`${where}: inbound ${s.sustained} msg/s, p99 ${s.p99} ms, ${s.lost} lost (target ≥ 500 msg/s, p99 ≤ 100 ms, 0 lost)`);
  }
  return missed;
}

/** The depth samples, one every `every` seconds. */
function depthLine(depth: number[], every = 5): string {
  return depth.filter((_, i) => i % every === every - 1).join(', ');
}

export function menusBenchMarkdown(result: MenusBenchResult, heading = '## Queue menus of new contacts'): string {
  return [
    heading,
    '',
    `PostgreSQL on loopback, a copy of the seeded database; every message from a new number (a new contact and ticket) on simulator connections with two queues, one per process, the load spread over the processes (autocannon, open loop); QUEUE_MENU_DEBOUNCE_MS ${result.debounceMs}. Inbound latency from the call to the admin's socket event; a menu's delay from its message's call to the socket event showing it handed to the network.`,
    '',
    '| processes | offered msg/s | seconds | acknowledged | received | sustained msg/s | p99 ms | lost | errors | menus sent / expected | twice | menu p99 | menu max | queue depth peak | depth at the end | server CPU µs/msg | PostgreSQL CPU µs/msg |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...result.steps.map(
      (s) =>
        `| ${s.processes} | ${s.rate} | ${s.seconds} | ${s.acknowledged} | ${s.received} | ${s.sustained} | ${s.p99} | ${s.lost} | ${s.errors} | ${s.menusSent} / ${s.menusExpected} | ${s.menusTwice} | ${ms(s.menuP99)} | ${ms(s.menuMax)} | ${s.depthPeak} | ${s.depthEnd} | ${s.serverCpuUs} | ${s.postgresCpuUs} |`,
    ),
    '',
    'Queue depth every 5 s:',
    '',
    ...result.steps.map((s) => `- ${s.processes} process(es), ${s.rate}/s: ${depthLine(s.depth)}`),
    '',
    `Targets (issue 35 item 6): at 400 first messages a second for 60 s, every menu sent within ${(result.debounceMs + MENU_SLACK_MS).toLocaleString('en')} ms (the debounce + 5 s), once, on one process and on three; inbound of new contacts ≥ 500 msg/s for 60 s, p99 ≤ 100 ms, 0 lost.`,
  ].join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      rates: { type: 'string', default: '400,500' },
      seconds: { type: 'string', default: '60' },
      processes: { type: 'string', default: '1,3' },
      'cpu-prof': { type: 'string' },
      'node-flags': { type: 'string' },
      entry: { type: 'string' },
    },
  });
  const result = await runMenusBench({
    database: { kind: 'postgres', url: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/wadesk_bench' },
    rates: values.rates.split(',').map(Number),
    seconds: Number(values.seconds),
    processes: values.processes.split(',').map(Number),
    serverEntry: values.entry,
    serverNodeArgs: [
      ...(values['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${values['cpu-prof']}`] : []),
      ...(values['node-flags']?.split(' ').filter(Boolean) ?? []),
    ],
  });
  console.log(menusBenchMarkdown(result));
  failOnMissed(missedMenuTargets(result));
}

runWhenMain(import.meta.url, main);
