/// <reference lib="dom" />
/**
 * Web benchmark (issue 11): JavaScript per route and the attendant's timings, in Chromium on loopback.
 *
 *   npx tsx bench/web.ts                                  # builds the web app into a temporary folder first
 *   WEB_DIST=/tmp/web npx tsx bench/web.ts                # an existing build (with dist/.vite/manifest.json)
 *   BENCH_WEB_DATABASE=pglite npx tsx bench/web.ts        # the embedded database instead of PostgreSQL
 *   BENCH_WEB_PROFILE=/tmp/prof npx tsx bench/web.ts      # also a CPU profile of the page while tickets are opened
 *   BENCH_WEB_CPU_SLOWDOWN=2 npx tsx bench/web.ts         # the page's CPU throttled 2× while tickets are opened and accepted
 *
 * The server is the built one (apps/server/dist/main.js, `npm run build -w apps/server`; BENCH_SERVER_ENTRY for
 * another) in its own process, as `npm start` runs it, on PostgreSQL (DATABASE_URL's server, default
 * 127.0.0.1:5432; a database wadesk_bench_web made for the run and dropped after it) or, when no PostgreSQL answers
 * (or BENCH_WEB_DATABASE=pglite), on PGlite in a temporary folder. The data set: BENCH_WEB_TICKETS tickets (default
 * 3,000: a third open, a sixth pending, the rest closed) with BENCH_WEB_MESSAGES messages each (default 30).
 *
 * - JavaScript per route, from the build's manifest: the entry with its static imports, plus the chunks the route
 *   loads (the signed-in layout and the page, with their static imports); gzip and brotli sizes of the files the
 *   server sends (the build's .gz/.br siblings). Chunks loaded later on demand (the MP3 encoder) are not counted.
 * - Time to an interactive login page: navigation start → the login form is in the page with its submit button
 *   enabled, in a fresh browser profile (cold cache) and on a reload (warm cache: hashed files from the cache,
 *   index.html revalidated).
 * - Login → ticket list: click on Enter → the first ticket row is in the page.
 * - Opening a ticket: click on a row of Working on → the ticket's newest message is on screen, painted (the frame
 *   after it is in the page).
 * - Accept → chat: click on Accept on a row of the Queue tab → the ticket's chat shows with its composer enabled.
 * Each is timed inside the page (performance.now(), a MutationObserver and animation frames), BENCH_WEB_REPETITIONS
 * times (default 20), and reported as median and p95. Bounded in time: BENCH_WEB_BUDGET_S (default 240 s) for the
 * browser part, repetitions stop when it is spent.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync, brotliCompressSync } from 'node:zlib';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { sql } from 'drizzle-orm';
import { embeddedDataDir, migrateDatabase, openDatabase, rowsOf, type DatabaseHandle } from '../apps/server/src/db/client.js';
import { hashPassword } from '../apps/server/src/modules/auth/password.js';
import { runStatement } from '../apps/server/src/test/throwaway-database.js';
import { percentile, postgresUrl, ROOT, startServer, type BenchDatabase, type ServerProcess } from './lib/server-process.js';
import { seedConnectionQueuesAndContacts } from './seed-base.js';

const EMAIL = 'bench@bench.local';
const PASSWORD = 'bench-pass';
/** The database the run makes on the PostgreSQL server (and drops after it). */
const WEB_DATABASE = 'wadesk_bench_web';

export interface WebBenchOptions {
  /** A built web app with its manifest (dist/.vite/manifest.json); built into a temporary folder when absent. */
  webDist?: string;
  /** PostgreSQL (default when a server answers at DATABASE_URL or 127.0.0.1:5432) or the embedded PGlite. */
  database?: 'postgres' | 'pglite';
  /** The built server's entry; default apps/server/dist/main.js. */
  serverEntry?: string;
  /** Tickets seeded (a third open, a quarter pending, the rest closed); default 3,000. */
  tickets?: number;
  /** Messages per ticket; default 30. */
  messagesPerTicket?: number;
  /** Repetitions of each timing; default 20. */
  repetitions?: number;
  /** Time budget of the browser part, in seconds (repetitions stop when it is spent); default 240. */
  budgetSeconds?: number;
  /** Progress lines; default: none. */
  log?: (line: string) => void;
}

export interface Timing {
  runs: number;
  medianMs: number;
  p95Ms: number;
  minMs: number;
  maxMs: number;
}

export interface RouteScript {
  route: string;
  /** Manifest keys of the chunks the route loads on top of the entry. */
  modules: string[];
  files: number;
  gzipBytes: number;
  brotliBytes: number;
}

export interface WebBenchResult {
  date: string;
  machine: { cpus: number; cpuModel: string; memoryGb: number; node: string; chromium: string };
  dataSet: { tickets: number; open: number; pending: number; messages: number };
  database: 'postgres' | 'pglite';
  webDist: string;
  /** The entry (index.html's script and its static imports): what every page loads first. */
  entry: { files: number; gzipBytes: number; brotliBytes: number };
  routes: RouteScript[];
  /** JavaScript the browser actually fetched before the login form was usable (as served: brotli), median of the cold runs. */
  loginTransferredJsBytes: number;
  timings: {
    loginInteractiveCold: Timing;
    loginInteractiveWarm: Timing;
    loginToTicketList: Timing;
    openTicket: Timing;
    acceptToChat: Timing;
  };
}

// ---------------------------------------------------------------------------------------------------------------
// JavaScript per route, from the manifest

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

const PRIVATE_LAYOUT = 'src/app/private-layout.tsx';
/** Each route with the modules it loads after the entry (see apps/web/src/app/routes.tsx). */
const ROUTE_MODULES: [string, string[]][] = [
  ['/login', ['src/features/auth/login-page.tsx']],
  ['/signup', ['src/features/auth/signup-page.tsx']],
  ['/ (dashboard)', [PRIVATE_LAYOUT, 'src/features/dashboard/dashboard-page.tsx']],
  ['/tickets (list and chat)', [PRIVATE_LAYOUT, 'src/features/tickets/tickets-page.tsx']],
  ['/contacts', [PRIVATE_LAYOUT, 'src/features/contacts/contacts-page.tsx']],
  ['/connections', [PRIVATE_LAYOUT, 'src/features/connections/connections-page.tsx']],
  ['/quickAnswers', [PRIVATE_LAYOUT, 'src/features/quick-answers/quick-answers-page.tsx']],
  ['/users', [PRIVATE_LAYOUT, 'src/features/users/users-page.tsx']],
  ['/queues', [PRIVATE_LAYOUT, 'src/features/queues/queues-page.tsx']],
  ['/settings', [PRIVATE_LAYOUT, 'src/features/settings/settings-page.tsx']],
  ['/simulator', [PRIVATE_LAYOUT, 'src/features/simulator/simulator-page.tsx']],
];

/** A chunk and every chunk it imports statically (what the browser must load before it runs). */
function staticClosure(manifest: Manifest, key: string, into = new Set<string>()): Set<string> {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`bench/web: ${key} is not in the build's manifest (is it still a lazy route?)`);
  if (into.has(chunk.file)) return into;
  into.add(chunk.file);
  for (const imported of chunk.imports ?? []) staticClosure(manifest, imported, into);
  return into;
}

/** Sizes as served: the build's precompressed sibling when there is one, else compressed here. */
function servedSize(webDist: string, file: string, encoding: 'gz' | 'br'): number {
  const sibling = path.join(webDist, `${file}.${encoding}`);
  if (existsSync(sibling)) return readFileSync(sibling).length;
  const body = readFileSync(path.join(webDist, file));
  return encoding === 'gz' ? gzipSync(body, { level: 9 }).length : brotliCompressSync(body).length;
}

function sizeOf(webDist: string, files: Iterable<string>): { files: number; gzipBytes: number; brotliBytes: number } {
  let count = 0;
  let gzipBytes = 0;
  let brotliBytes = 0;
  for (const file of files) {
    if (!file.endsWith('.js')) continue;
    count += 1;
    gzipBytes += servedSize(webDist, file, 'gz');
    brotliBytes += servedSize(webDist, file, 'br');
  }
  return { files: count, gzipBytes, brotliBytes };
}

export function measureRouteScripts(webDist: string): { entry: WebBenchResult['entry']; routes: RouteScript[] } {
  const manifestPath = path.join(webDist, '.vite', 'manifest.json');
  if (!existsSync(manifestPath)) throw new Error(`bench/web: ${manifestPath} is missing: build with build.manifest (apps/web/vite.config.ts)`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
  const entryKey = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
  if (!entryKey) throw new Error('bench/web: the manifest has no entry');
  const entryFiles = staticClosure(manifest, entryKey);
  const routes = ROUTE_MODULES.filter(([, modules]) => modules.every((m) => manifest[m])).map(([route, modules]) => {
    const files = new Set(entryFiles);
    for (const module of modules) staticClosure(manifest, module, files);
    return { route, modules, ...sizeOf(webDist, files) };
  });
  return { entry: sizeOf(webDist, entryFiles), routes };
}

// ---------------------------------------------------------------------------------------------------------------
// Data set and app

interface Seeded {
  tickets: number;
  open: number;
  pending: number;
  messages: number;
}

async function seed(handle: DatabaseHandle, tickets: number, perTicket: number): Promise<Seeded> {
  const { db } = handle;
  await migrateDatabase(handle);
  // The admin who signs in (the server's start-up adds none once a user exists).
  await db.execute(sql`insert into users (name, email, password_hash, profile) values ('Bench', ${EMAIL}, ${await hashPassword(PASSWORD)}, 'admin')`);
  await seedConnectionQueuesAndContacts(db, tickets);
  // One ticket per contact: every third open (the admin's), every fourth of the others pending, the rest closed.
  await db.execute(sql`
    insert into tickets (status, contact_id, whatsapp_id, queue_id, user_id, last_message, unread_messages, created_at, updated_at)
    select s.status, g, 1, case when g % 5 = 0 then null else 1 + g % 2 end,
           case when s.status = 'pending' then null else (select id from users where email = ${EMAIL}) end,
           'mensagem ' || ${perTicket} || ' do ticket ' || g, case when s.status = 'closed' then 0 else g % 4 end,
           now() - ((g * 97) || ' seconds')::interval, now() - ((g * 97) || ' seconds')::interval
    from generate_series(1, ${tickets}) g,
         lateral (select case when g % 3 = 0 then 'open' when g % 4 = 1 then 'pending' else 'closed' end as status) s`);
  await db.execute(sql`
    insert into messages (channel_message_id, whatsapp_id, ticket_id, contact_id, body, from_me, ack, created_at)
    select 'W' || t || '-' || m, 1, t, t,
           case when m % 6 = 0 then 'Uma mensagem mais longa, com *negrito* e ~riscado~, que ocupa algumas linhas no balão ' || m
                else 'mensagem ' || m || ' do ticket ' || t end,
           m % 2 = 0, 3, now() - ((t * 97) || ' seconds')::interval - ((${perTicket} - m) || ' minutes')::interval
    from generate_series(1, ${tickets}) t, generate_series(1, ${perTicket}) m`);
  await db.execute(sql`analyze`);
  const counts = rowsOf<{ status: string; n: number }>(await db.execute(sql`select status, count(*)::int as n from tickets group by status`));
  const by = new Map(counts.map((r) => [r.status, Number(r.n)]));
  return { tickets, open: by.get('open') ?? 0, pending: by.get('pending') ?? 0, messages: tickets * perTicket };
}

function buildWeb(log: (line: string) => void): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'wadesk-bench-web-'));
  log(`building the web app into ${dir}`);
  execFileSync('npx', ['vite', 'build', '--outDir', dir, '--emptyOutDir', '--logLevel', 'warn'], {
    cwd: path.join(ROOT, 'apps/web'),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

async function postgresAnswers(): Promise<boolean> {
  try {
    await runStatement(postgresUrl('postgres'), 'select 1');
    return true;
  } catch {
    return false;
  }
}

interface PreparedDatabase {
  database: BenchDatabase;
  dataSet: Seeded;
  /** The newest message of each ticket. */
  lastMessage: Map<number, number>;
  drop: () => Promise<void>;
}

/** A fresh database with the data set, closed again so that the server process can open it. */
async function prepareDatabase(kind: 'postgres' | 'pglite', tickets: number, perTicket: number): Promise<PreparedDatabase> {
  let database: BenchDatabase;
  let handle: DatabaseHandle;
  let drop: () => Promise<void>;
  if (kind === 'postgres') {
    const admin = postgresUrl('postgres');
    await runStatement(admin, `drop database if exists ${WEB_DATABASE} with (force)`);
    await runStatement(admin, `create database ${WEB_DATABASE}`);
    database = { kind: 'postgres', url: postgresUrl(WEB_DATABASE) };
    handle = await openDatabase({ databaseUrl: database.url, poolSize: 1 });
    drop = () => runStatement(admin, `drop database if exists ${WEB_DATABASE} with (force)`);
  } else {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'wadesk-bench-web-data-'));
    database = { kind: 'pglite', dataDir };
    handle = await openDatabase({ dataDir: embeddedDataDir(dataDir) });
    drop = async () => rmSync(dataDir, { recursive: true, force: true });
  }
  let dataSet: Seeded;
  let lastMessage: Map<number, number>;
  try {
    dataSet = await seed(handle, tickets, perTicket);
    const last = rowsOf<{ ticket_id: number; id: number }>(
      await handle.db.execute(sql`select ticket_id, max(id)::int as id from messages group by ticket_id`),
    );
    lastMessage = new Map(last.map((r) => [Number(r.ticket_id), Number(r.id)]));
  } catch (err) {
    await handle.close().catch(() => undefined);
    await drop();
    throw err;
  }
  await handle.close();
  return { database, dataSet, lastMessage, drop };
}

// ---------------------------------------------------------------------------------------------------------------
// Timings in the page

function timing(samples: number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b);
  if (sorted.length === 0) return { runs: 0, medianMs: NaN, p95Ms: NaN, minMs: NaN, maxMs: NaN };
  const round = (n: number) => Math.round(n * 10) / 10;
  const mid = sorted.length / 2;
  const median = sorted.length % 2 ? sorted[Math.floor(mid)]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { runs: sorted.length, medianMs: round(median), p95Ms: round(percentile(sorted, 0.95)), minMs: round(sorted[0]!), maxMs: round(sorted[sorted.length - 1]!) };
}

declare global {
  interface Window {
    /** performance.now() when the login form first became usable (set by the init script). */
    __benchLoginReady?: number;
  }
}

/** Records when the login form is first usable: email field in a form whose submit button is enabled. */
function watchLoginForm(): void {
  const ready = () => {
    const button = document.querySelector<HTMLButtonElement>('form button[type="submit"]');
    return !!button && !button.disabled && !!document.querySelector('form input[type="email"]');
  };
  const observer = new MutationObserver(() => {
    if (window.__benchLoginReady === undefined && ready()) {
      window.__benchLoginReady = performance.now();
      observer.disconnect();
    }
  });
  observer.observe(document, { subtree: true, childList: true, attributes: true });
  localStorage.setItem('notificationsAsked', 'true');
}

async function loginReadyAt(page: Page): Promise<number> {
  await page.waitForFunction(() => window.__benchLoginReady !== undefined, undefined, { timeout: 15_000 });
  return page.evaluate(() => window.__benchLoginReady!);
}

/** Script bytes fetched (encoded, as sent) that finished loading before `until` (ms since navigation start). */
function scriptBytesBefore(page: Page, until: number): Promise<number> {
  return page.evaluate((limit) => {
    let total = 0;
    for (const entry of performance.getEntriesByType('resource') as PerformanceResourceTiming[]) {
      if (new URL(entry.name).pathname.endsWith('.js') && entry.responseEnd <= limit) total += entry.encodedBodySize;
    }
    return total;
  }, until);
}

interface ClickSpec {
  /** Element to click. */
  click: string;
  /** What must be true (and then painted: one more animation frame) to stop the clock. */
  done: { kind: 'row' } | { kind: 'message'; messageId: number } | { kind: 'composer'; ticketId: number };
}

/** Clicks inside the page and times, with performance.now(), until `done` holds and has been painted. */
function timeClick(page: Page, spec: ClickSpec): Promise<number> {
  return page.evaluate(
    ({ click, done }) =>
      new Promise<number>((resolve, reject) => {
        const visibleIn = (el: Element, container: Element | null) => {
          if (!container) return false;
          const a = el.getBoundingClientRect();
          const b = container.getBoundingClientRect();
          return a.height > 0 && a.bottom > b.top && a.top < b.bottom;
        };
        const holds = () => {
          if (done.kind === 'row') return !!document.querySelector('[data-testid^="ticket-row-"]');
          if (done.kind === 'message') {
            const el = document.querySelector(`[data-testid="message"][data-message-id="${done.messageId}"]`);
            return !!el && visibleIn(el, document.querySelector('[data-testid="messages-list"]'));
          }
          const title = document.querySelector('[data-testid="chat-view"] [data-testid="ticket-title"]');
          const composer = document.querySelector<HTMLTextAreaElement>('[data-testid="chat-view"] textarea[aria-label]');
          // "Name #12": the number at the end, exactly (#12 is not #123).
          return !!title?.textContent?.trim().endsWith(` #${done.ticketId}`) && !!composer && !composer.disabled;
        };
        const target = document.querySelector<HTMLElement>(click);
        if (!target) {
          reject(new Error(`nothing to click: ${click}`));
          return;
        }
        let finished = false;
        const observer = new MutationObserver(() => check());
        const timer = setTimeout(() => {
          finished = true;
          observer.disconnect();
          reject(new Error(`timed out waiting for ${JSON.stringify(done)}`));
        }, 15_000);
        const check = () => {
          if (finished || !holds()) return;
          finished = true;
          observer.disconnect();
          clearTimeout(timer);
          // Painted: the frame after the change.
          requestAnimationFrame(() => resolve(performance.now() - start));
        };
        // Scrolling (the chat pinned to its bottom) changes no DOM: look on every frame too.
        const frame = () => {
          if (finished) return;
          check();
          requestAnimationFrame(frame);
        };
        observer.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
        const start = performance.now();
        target.click();
        requestAnimationFrame(frame);
      }),
    spec,
  );
}

const LAUNCH_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const VIEWPORT = { width: 1366, height: 800 };

async function newContext(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: VIEWPORT, locale: 'en-US' });
  // tsx (esbuild, keepNames) wraps named functions in __name(): the page needs it for the functions sent to it.
  await context.addInitScript({ content: 'globalThis.__name ??= (fn) => fn;' });
  await context.addInitScript(watchLoginForm);
  return context;
}

async function signIn(page: Page): Promise<void> {
  await page.locator('form input[type="email"]').fill(EMAIL);
  await page.locator('form input[type="password"]').fill(PASSWORD);
}

// ---------------------------------------------------------------------------------------------------------------

export async function runWebBench(options: WebBenchOptions = {}): Promise<WebBenchResult> {
  const log = options.log ?? (() => undefined);
  const ticketsWanted = options.tickets ?? Number(process.env.BENCH_WEB_TICKETS ?? 3000);
  const perTicket = options.messagesPerTicket ?? Number(process.env.BENCH_WEB_MESSAGES ?? 30);
  const repetitions = options.repetitions ?? Number(process.env.BENCH_WEB_REPETITIONS ?? 20);
  const budgetMs = (options.budgetSeconds ?? Number(process.env.BENCH_WEB_BUDGET_S ?? 240)) * 1000;

  const given = options.webDist ?? process.env.WEB_DIST;
  const built = given ? undefined : buildWeb(log);
  try {
    return await measure({ ...options, webDist: path.resolve(given ?? built!.dir) }, { log, ticketsWanted, perTicket, repetitions, budgetMs });
  } finally {
    built?.cleanup();
  }
}

interface Settings {
  log: (line: string) => void;
  ticketsWanted: number;
  perTicket: number;
  repetitions: number;
  budgetMs: number;
}

async function measure(options: WebBenchOptions & { webDist: string }, settings: Settings): Promise<WebBenchResult> {
  const { log, ticketsWanted, perTicket, repetitions, budgetMs } = settings;
  const webDist = options.webDist;
  const scripts = measureRouteScripts(webDist);

  const serverEntry = path.resolve(ROOT, options.serverEntry ?? process.env.BENCH_SERVER_ENTRY ?? 'apps/server/dist/main.js');
  if (!existsSync(serverEntry)) throw new Error(`bench/web: ${serverEntry} is missing: build the server (npm run build -w apps/server)`);
  const wanted = options.database ?? (process.env.BENCH_WEB_DATABASE as 'postgres' | 'pglite' | undefined);
  const kind = wanted ?? ((await postgresAnswers()) ? 'postgres' : 'pglite');

  const seededAt = Date.now();
  const prepared = await prepareDatabase(kind, ticketsWanted, perTicket);
  const { dataSet, lastMessage } = prepared;
  log(`seeded ${dataSet.tickets} tickets (${dataSet.open} open, ${dataSet.pending} pending) and ${dataSet.messages} messages on ${kind} in ${((Date.now() - seededAt) / 1000).toFixed(1)} s`);
  let server: ServerProcess | undefined;
  let browser: Browser | undefined;
  try {
    server = await startServer({
      database: prepared.database,
      entry: serverEntry,
      simulator: true,
      // The seeded open tickets span days: the auto-close must not run during the bench.
      env: { WEB_DIST: webDist, AUTO_CLOSE_CRON: '0 0 1 1 *' },
    });
    const base = server.baseUrl;

    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: LAUNCH_ARGS });
    const deadline = Date.now() + budgetMs;
    const more = (done: number) => done < repetitions && Date.now() < deadline;

    // A first visit warms the server (JIT, database caches) without being counted.
    {
      const context = await newContext(browser);
      const page = await context.newPage();
      await page.goto(`${base}/login`);
      await loginReadyAt(page);
      await context.close();
    }

    // Login page, cold (fresh profile) and warm (reload), and login → ticket list.
    const cold: number[] = [];
    const warm: number[] = [];
    const toList: number[] = [];
    const transferred: number[] = [];
    while (more(cold.length)) {
      const context = await newContext(browser);
      const page = await context.newPage();
      await page.goto(`${base}/login`);
      const ready = await loginReadyAt(page);
      cold.push(ready);
      transferred.push(await scriptBytesBefore(page, ready));
      await page.reload();
      warm.push(await loginReadyAt(page));
      await signIn(page);
      toList.push(await timeClick(page, { click: 'form button[type="submit"]', done: { kind: 'row' } }));
      await page.waitForURL('**/tickets**');
      await context.close();
    }
    log(`login: cold ${timing(cold).medianMs} ms, warm ${timing(warm).medianMs} ms; login → list ${timing(toList).medianMs} ms`);

    // Opening tickets and accepting, signed in once.
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto(`${base}/login`);
    await loginReadyAt(page);
    await signIn(page);
    await page.locator('form button[type="submit"]').click();
    await page.locator('[data-testid^="ticket-row-"]').first().waitFor();
    // The first opening loads nothing more than the others (the chat is in the tickets page's chunk): not discarded.
    const open: number[] = [];
    // BENCH_WEB_PROFILE: the page's JavaScript profiled over the openings (a .cpuprofile for DevTools).
    const profileDir = process.env.BENCH_WEB_PROFILE;
    const profiler = profileDir ? await context.newCDPSession(page) : undefined;
    if (profiler) {
      await profiler.send('Profiler.enable');
      await profiler.send('Profiler.setSamplingInterval', { interval: 200 });
      await profiler.send('Profiler.start');
    }
    // BENCH_WEB_CPU_SLOWDOWN=N: the page's CPU N times slower (Chromium's throttling; the server is not), for the
    // openings and Accept: how the attendant's timings hold on a slower machine.
    const slowdown = Number(process.env.BENCH_WEB_CPU_SLOWDOWN ?? 1);
    if (slowdown > 1) await (await context.newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate: slowdown });
    let previous: number | undefined;
    for (let i = 0; more(open.length); i += 1) {
      const ids = await page
        .locator('[data-testid="tickets-list"] [data-testid^="ticket-row-"]')
        .evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-testid')!.replace('ticket-row-', ''))));
      // Rows on screen, taken in turn, never the one already open.
      const candidates = ids.slice(0, 8).filter((id) => id !== previous);
      const id = candidates[i % candidates.length]!;
      const messageId = lastMessage.get(id);
      if (messageId === undefined) throw new Error(`bench/web: ticket ${id} has no messages`);
      open.push(await timeClick(page, { click: `[data-testid="ticket-row-${id}"]`, done: { kind: 'message', messageId } }));
      previous = id;
      // Let the read marks and the list settle, as an attendant would before the next click.
      await page.waitForTimeout(150);
    }
    log(`open a ticket: ${timing(open).medianMs} ms`);
    if (profiler && profileDir) {
      const { profile } = await profiler.send('Profiler.stop');
      mkdirSync(profileDir, { recursive: true });
      const file = path.join(profileDir, `open-ticket-${Date.now()}.cpuprofile`);
      writeFileSync(file, JSON.stringify(profile));
      log(`profile of the openings: ${file}`);
    }

    const accept: number[] = [];
    while (more(accept.length)) {
      await page.getByRole('tab', { name: /^queue/i }).click();
      const row = page.locator('[data-testid="tickets-list"] [data-testid^="ticket-row-"]').filter({ has: page.getByRole('button', { name: 'Accept' }) }).first();
      await row.waitFor();
      const id = Number((await row.getAttribute('data-testid'))!.replace('ticket-row-', ''));
      accept.push(
        await timeClick(page, {
          click: `[data-testid="ticket-row-${id}"] button.MuiButton-contained`,
          done: { kind: 'composer', ticketId: id },
        }),
      );
      await page.waitForTimeout(150);
    }
    log(`accept → chat: ${timing(accept).medianMs} ms`);
    await context.close();

    const sortedTransfers = [...transferred].sort((a, b) => a - b);
    return {
      date: new Date().toISOString(),
      machine: {
        cpus: os.cpus().length,
        cpuModel: os.cpus()[0]?.model.trim() ?? 'unknown',
        memoryGb: Math.round(os.totalmem() / 2 ** 30),
        node: process.version,
        chromium: browser.version(),
      },
      dataSet,
      database: kind,
      webDist,
      entry: scripts.entry,
      routes: scripts.routes,
      loginTransferredJsBytes: sortedTransfers[Math.floor(sortedTransfers.length / 2)] ?? 0,
      timings: {
        loginInteractiveCold: timing(cold),
        loginInteractiveWarm: timing(warm),
        loginToTicketList: timing(toList),
        openTicket: timing(open),
        acceptToChat: timing(accept),
      },
    };
  } finally {
    await browser?.close();
    await server?.stop();
    await prepared.drop();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Report

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;
const ms = (value: number) => (Number.isFinite(value) ? `${Math.round(value)} ms` : 'n/a');

/** The targets of issue 11 for the web app. */
export const WEB_TARGETS = { loginScriptGzipBytes: 250_000, openTicketMs: 150, acceptToChatMs: 300 } as const;

export function webBenchMarkdown(result: WebBenchResult): string {
  const login = result.routes.find((r) => r.route === '/login');
  const verdict = (ok: boolean) => (ok ? 'met' : '**missed**');
  const lines: string[] = [];
  lines.push('## Web app (bench/web)');
  lines.push('');
  lines.push(
    `Chromium ${result.machine.chromium} on loopback, ${result.machine.cpus} × ${result.machine.cpuModel}, ${result.machine.memoryGb} GB, Node ${result.machine.node}; ` +
      `${result.date.slice(0, 10)}. Data set: ${result.dataSet.tickets.toLocaleString('en')} tickets ` +
      `(${result.dataSet.open.toLocaleString('en')} open, ${result.dataSet.pending.toLocaleString('en')} pending), ` +
      `${result.dataSet.messages.toLocaleString('en')} messages, ${result.database === 'postgres' ? 'PostgreSQL' : 'PGlite'}; the built server in its own process. Command: \`npx tsx bench/web.ts\` (or \`WEB_DIST=<build> npx tsx bench/web.ts\`).`,
  );
  lines.push('');
  lines.push('### JavaScript per route');
  lines.push('');
  lines.push('The entry and its static imports, plus the chunks the route loads; sizes of the precompressed files the server sends.');
  lines.push('');
  lines.push('| route | files | gzip | brotli |');
  lines.push('|---|---:|---:|---:|');
  lines.push(`| entry (every route) | ${result.entry.files} | ${kb(result.entry.gzipBytes)} | ${kb(result.entry.brotliBytes)} |`);
  for (const route of result.routes) lines.push(`| ${route.route} | ${route.files} | ${kb(route.gzipBytes)} | ${kb(route.brotliBytes)} |`);
  lines.push('');
  if (login) {
    lines.push(
      `Before the login page is interactive: ${kb(login.gzipBytes)} gzip (target ≤ ${kb(WEB_TARGETS.loginScriptGzipBytes)}: ${verdict(login.gzipBytes <= WEB_TARGETS.loginScriptGzipBytes)}); ` +
        `measured in the browser, ${kb(result.loginTransferredJsBytes)} of JavaScript had arrived (brotli, as sent) when the form became usable, chunks fetched while waiting for the session check included.`,
    );
    lines.push('');
  }
  const t = result.timings;
  lines.push('### Timings');
  lines.push('');
  lines.push('| measure | runs | median | p95 | min | max | target |');
  lines.push('|---|---:|---:|---:|---:|---:|---|');
  const row = (name: string, x: Timing, target = '') =>
    lines.push(`| ${name} | ${x.runs} | ${ms(x.medianMs)} | ${ms(x.p95Ms)} | ${ms(x.minMs)} | ${ms(x.maxMs)} | ${target} |`);
  row('login page interactive, cold cache (navigation start → form usable)', t.loginInteractiveCold);
  row('login page interactive, warm cache (reload)', t.loginInteractiveWarm);
  row('login → ticket list (click Enter → first row)', t.loginToTicketList);
  row('open a ticket (click a row → newest message on screen)', t.openTicket, `≤ ${WEB_TARGETS.openTicketMs} ms: ${verdict(t.openTicket.p95Ms <= WEB_TARGETS.openTicketMs)} (p95)`);
  row('Accept → chat (click Accept → composer enabled)', t.acceptToChat, `≤ ${WEB_TARGETS.acceptToChatMs} ms: ${verdict(t.acceptToChat.p95Ms <= WEB_TARGETS.acceptToChatMs)} (p95)`);
  lines.push('');
  return lines.join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  runWebBench({ log: (line) => console.error(line) })
    .then((result) => {
      console.log(webBenchMarkdown(result));
    })
    .catch((err: unknown) => {
      console.error(err);
      process.exit(1);
    });
}
