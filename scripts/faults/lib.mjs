// What the fault scripts share: a pause, a free loopback port, a server process (the build, or its sources through tsx
// with FAULTS_SERVER=src), an API call to it, a loopback TCP proxy to cut, a throwaway PostgreSQL database, and the
// run itself (its checks, its end).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import net, { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export async function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Development mode (FAULTS_SERVER=src): the server's sources through tsx, with @wadesk/contracts from its sources too.
 * The hooks' folder is removed by the cleanup pushed onto `cleanups`.
 */
function sourceHooks(cleanups) {
  const dir = mkdtempSync(path.join(tmpdir(), 'wadesk-faults-hooks-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const contracts = pathToFileURL(path.join(root, 'packages/contracts/src/index.ts')).href;
  const hooks = path.join(dir, 'hooks.mjs');
  writeFileSync(
    hooks,
    `export async function resolve(specifier, context, next) {\n` +
      `  return next(specifier === '@wadesk/contracts' ? ${JSON.stringify(contracts)} : specifier, context);\n}\n`,
  );
  const register = path.join(dir, 'register.mjs');
  writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
  return register;
}

let hooks = null;

/** Node's arguments for a server process: the build (FAULTS_SERVER_ENTRY, by default apps/server/dist/main.js) or its sources. */
export function serverCommand(cleanups) {
  if (process.env.FAULTS_SERVER === 'src') {
    hooks ??= sourceHooks(cleanups);
    return ['--import', 'tsx', '--import', pathToFileURL(hooks).href, path.join(root, 'apps/server/src/main.ts')];
  }
  return [path.join(root, process.env.FAULTS_SERVER_ENTRY ?? 'apps/server/dist/main.js')];
}

/**
 * One server process of a fault run: started, killed (SIGKILL) or stopped (SIGTERM), restarted on the same DATA_DIR /
 * database. `env` is added to this process's environment; a key given as undefined is removed from it (NODE_ID:
 * undefined gives each start its own node id, as after a real restart). Live children go in `children`, so the run
 * can kill them when it ends; `logFilter` keeps only the log lines it accepts (the last 200 are kept).
 */
export class ServerProcess {
  constructor(name, env, { children, cleanups, logFilter = () => true }) {
    this.name = name;
    this.env = env;
    this.children = children;
    this.cleanups = cleanups;
    this.logFilter = logFilter;
    this.child = null;
    this.log = [];
    this.base = `http://127.0.0.1:${env.PORT}`;
    this.dead = false;
    this.startedAt = null;
  }

  start() {
    const env = { ...process.env, ...this.env };
    for (const [key, value] of Object.entries(env)) if (value === undefined) delete env[key];
    const child = spawn(process.execPath, serverCommand(this.cleanups), { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const keep = (chunk) => {
      this.log.push(...chunk.toString().split('\n').filter((l) => l && this.logFilter(l)));
      if (this.log.length > 200) this.log.splice(0, this.log.length - 200);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    this.children.add(child);
    child.on('exit', () => this.children.delete(child));
    this.child = child;
    this.startedAt = Date.now();
    return child;
  }

  /** Resolves with the time /api/health first answered 200; throws when the process exits or the time runs out. */
  async waitReady(timeoutMs = 60_000) {
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
      if (this.child.exitCode !== null) throw new Error(`${this.name} exited with ${this.child.exitCode}:\n${this.log.slice(-30).join('\n')}`);
      try {
        const res = await fetch(`${this.base}/api/health`, { signal: AbortSignal.timeout(1000) });
        if (res.ok) return Date.now();
      } catch {
        // not listening yet
      }
      await sleep(50);
    }
    throw new Error(`${this.name} not ready within ${timeoutMs} ms:\n${this.log.slice(-30).join('\n')}`);
  }

  async kill9() {
    const child = this.child;
    this.dead = true;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  }

  async stop() {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
}

/** An API call to a server process: `{ status, body }` (body parsed as JSON when it is JSON); throws when unreachable. */
export async function api(server, token, method, url, body) {
  const res = await fetch(`${server.base}${url}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  let json;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = text;
  }
  return { status: res.status, body: json };
}

/**
 * A loopback TCP proxy in front of a server (PostgreSQL): `cut()` drops every connection and refuses new ones, as a
 * database restart or failover does; `restore()` listens again on the same port.
 */
export class TcpProxy {
  constructor(targetHost, targetPort) {
    this.targetHost = targetHost;
    this.targetPort = targetPort;
    this.server = null;
    this.sockets = new Set();
    this.port = 0;
  }

  async start(port = 0) {
    const server = net.createServer((client) => {
      const upstream = net.connect(this.targetPort, this.targetHost);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    this.port = server.address().port;
    return this.port;
  }

  async cut() {
    const server = this.server;
    this.server = null;
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    if (server) await new Promise((resolve) => server.close(() => resolve()));
  }

  async restore() {
    if (this.server) return;
    await this.start(this.port);
  }
}

/** Signs `who` in on `server` (tried for 10 s: a process just restarted may still answer 503); answers the access token. */
export async function signIn(server, who) {
  for (let attempt = 0; attempt < 40; attempt += 1) {
    const res = await tryApi(server, null, 'POST', '/api/auth/login', { email: who.email, password: who.password });
    if (res.status === 200) return res.body.token;
    await sleep(250);
  }
  throw new Error(`login of ${who.email} failed`);
}

/** `--key=value` arguments (a bare `--flag` is 'true'). */
export function parseArgs(argv = process.argv.slice(2)) {
  return Object.fromEntries(
    argv.map((a) => {
      const [k, v] = a.replace(/^--/, '').split('=');
      return [k, v ?? 'true'];
    }),
  );
}

/** An API call that answers `{ status: 0 }` instead of throwing when the request got no answer. */
export async function tryApi(server, token, method, url, body) {
  try {
    return await api(server, token, method, url, body);
  } catch {
    return { status: 0, body: undefined };
  }
}

/** Runs `fn(url)` on a new database of the PostgreSQL server at `baseUrl` (named `<prefix>_<random>`), dropped after. */
export async function withThrowawayDatabase(baseUrl, prefix, fn) {
  const { default: pg } = await import(createRequire(path.join(root, 'apps/server/package.json')).resolve('pg'));
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  try {
    return await fn(url.toString());
  } finally {
    const drop = new pg.Client({ connectionString: baseUrl });
    await drop.connect();
    await drop.query(`drop database if exists ${name} with (force)`).catch(() => undefined);
    await drop.end();
  }
}

/**
 * One fault script's run: its arguments, its checks (one line each, `ok` or `FAIL`) and figures, the server processes
 * and clean-ups to end, and its end: the line "<name>: N passed, N failed" and, with --json=file, the results there.
 */
export class FaultRun {
  constructor(name) {
    this.name = name;
    this.args = parseArgs();
    this.results = { passed: 0, failed: 0, figures: {} };
    this.children = new Set();
    this.cleanups = [];
    process.on('SIGINT', () => this.finish(1));
    process.on('SIGTERM', () => this.finish(1));
  }

  check(label, ok, detail = '') {
    if (ok) this.results.passed += 1;
    else this.results.failed += 1;
    console.log(`${ok ? 'ok  ' : 'FAIL'} ${this.name}: ${label}${detail ? ` — ${detail}` : ''}`);
    return ok;
  }

  killChildren() {
    for (const child of this.children) child.kill('SIGKILL');
  }

  /** Runs `main` within `budgetMs` (past it: one failed check, and the end); a throw is one failed check. */
  start(main, budgetMs) {
    const budget = setTimeout(() => {
      this.check('finished within the time budget', false, `${budgetMs / 1000} s`);
      this.finish(1);
    }, budgetMs);
    budget.unref();
    main()
      .catch((err) => this.check('run', false, err instanceof Error ? err.stack ?? err.message : String(err)))
      .finally(() => {
        clearTimeout(budget);
        this.finish();
      });
  }

  /** Skipped (no database to run on): said in one line, and in the JSON. */
  skip(reason) {
    console.log(`${this.name}: skipped (${reason})`);
    this.results.skipped = true;
    this.finish(0);
  }

  finish(code) {
    this.killChildren();
    for (const clean of this.cleanups) {
      try {
        clean();
      } catch {
        // best effort
      }
    }
    console.log(`${this.name}: ${this.results.passed} passed, ${this.results.failed} failed`);
    if (this.args.json) writeFileSync(this.args.json, JSON.stringify(this.results));
    process.exit(code || (this.results.failed > 0 ? 1 : 0));
  }
}
