/**
 * The server as the benchmarks see it: the built app (`node apps/server/dist/main.js`, as `npm start` runs it) in
 * its own process on a loopback port, so the load generator does not share its event loop and its memory is its
 * own. Resident memory is sampled from /proc while it runs.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { databaseUrl } from '../../apps/server/src/test/throwaway-database.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** A database of DATABASE_URL's PostgreSQL server (default the local one), by name. */
export function postgresUrl(database: string): string {
  return databaseUrl(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres', database);
}

/** The value at quantile `q` (0–1) of ascending `sorted`, by nearest rank; 0 when empty. */
export function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/** Where the benchmarks' database is: a PostgreSQL URL (of the seeded database) or a PGlite DATA_DIR. */
export type BenchDatabase = { kind: 'postgres'; url: string } | { kind: 'pglite'; dataDir: string };

export interface ServerProcess {
  baseUrl: string;
  pid: number;
  /** The highest resident memory seen since the last reset (MB), sampled every 100 ms and from VmHWM. */
  peakRssMb(): number;
  resetPeak(): void;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

function statusField(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

async function waitForHealth(baseUrl: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${log()}`);
    try {
      const res = await fetch(`${baseUrl}/api/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`the server did not answer /api/health within 120 s:\n${log()}`);
}

export interface StartOptions {
  database: BenchDatabase;
  /** The built server's entry (default apps/server/dist/main.js). */
  entry?: string;
  simulator?: boolean;
  env?: Record<string, string>;
  /** Node flags before the entry (e.g. --cpu-prof). */
  nodeArgs?: string[];
}

export async function startServer(options: StartOptions): Promise<ServerProcess> {
  const port = await freePort();
  const entry = path.resolve(ROOT, options.entry ?? 'apps/server/dist/main.js');
  const db = options.database;
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), entry], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: db.kind === 'postgres' ? db.url : '',
      DATA_DIR: db.kind === 'pglite' ? db.dataDir : path.join(ROOT, 'data', 'bench-server'),
      JWT_SECRET: 'bench-jwt-secret-not-for-production',
      JWT_REFRESH_SECRET: 'bench-refresh-secret-not-for-production',
      SIMULATOR: options.simulator ? 'on' : 'off',
      MEDIA_FETCH_ALLOW_PRIVATE: 'false',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      // The data set stays as seeded however long after the seed a run starts: no open ticket closed for being idle.
      AUTO_CLOSE_CRON: 'off',
      ...options.env,
    },
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-8000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForHealth(baseUrl, child, () => output);
  const pid = child.pid!;
  let peak = 0;
  const sampler = setInterval(() => {
    peak = Math.max(peak, statusField(pid, 'VmRSS'));
  }, 100);
  sampler.unref();
  return {
    baseUrl,
    pid,
    peakRssMb: () => Math.max(peak, statusField(pid, 'VmRSS')),
    resetPeak: () => {
      peak = statusField(pid, 'VmRSS');
    },
    stop: async () => {
      clearInterval(sampler);
      // Gone already, by its own exit or by a signal (whose exit leaves exitCode null): no 'exit' will come again.
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Signs in and gives the access token. */
export async function signIn(baseUrl: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (!res.ok) throw new Error(`sign-in of ${email} failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

/** The machine, as the benchmark reports say it. */
export function machineLine(): string {
  const cpus = readFileSync('/proc/cpuinfo', 'utf8').match(/^model name\s*:\s*(.+)$/m)?.[1] ?? 'unknown CPU';
  const cores = readFileSync('/proc/cpuinfo', 'utf8').match(/^processor\s*:/gm)?.length ?? 0;
  const memKb = Number(readFileSync('/proc/meminfo', 'utf8').match(/^MemTotal:\s+(\d+)/m)?.[1] ?? 0);
  return `${cores} cores (${cpus}), ${Math.round(memKb / 1024 / 1024)} GB RAM, Node ${process.version}`;
}
