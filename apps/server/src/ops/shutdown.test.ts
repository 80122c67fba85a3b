import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUrl, runStatement } from '../test/throwaway-database.js';

/**
 * Issue 17: the real server process (src/main.ts) on SIGTERM lets a request in flight finish, stops accepting new
 * connections, and exits 0. Embedded database in a temp DATA_DIR, or a throwaway database when DATABASE_URL is set.
 */
const serverDir = fileURLToPath(new URL('../..', import.meta.url));
const ADMIN = { email: 'admin@shutdown.local', password: 'shutdown-pass-1' };

let dataDir = '';
let dbName: string | null = null;
let child: ChildProcess | undefined;
const logLines: { msg?: string; reqId?: string }[] = [];
const waiters: { test: (line: { msg?: string; reqId?: string }) => boolean; resolve: () => void }[] = [];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once the server logged a line that passes `test` (or already has). */
function logged(test: (line: { msg?: string; reqId?: string }) => boolean, what: string, ms = 60_000): Promise<void> {
  if (logLines.some(test)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server never logged: ${what}`)), ms);
    waiters.push({ test, resolve: () => (clearTimeout(timer), resolve()) });
  });
}

function exited(proc: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (proc.exitCode !== null) return resolve(proc.exitCode);
    proc.once('exit', (code) => resolve(code));
  });
}

let port = 0;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'wadesk-shutdown-'));
  port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    SIMULATOR: 'on',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: 'trace', // 'incoming request' (trace) tells when the server has the request
    WEB_DIST: '/nonexistent',
    SHUTDOWN_TIMEOUT_MS: '20000',
    METRICS_ENABLED: 'false',
  };
  const baseUrl = process.env.DATABASE_URL;
  if (baseUrl) {
    dbName = `wadesk_shutdown_${randomBytes(6).toString('hex')}`;
    await runStatement(baseUrl, `create database ${dbName}`);
    env.DATABASE_URL = databaseUrl(baseUrl, dbName);
  } else {
    delete env.DATABASE_URL;
  }
  child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: serverDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let buffered = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const text of lines) {
      let line: { msg?: string; reqId?: string };
      try {
        line = JSON.parse(text) as typeof line;
      } catch {
        continue;
      }
      logLines.push(line);
      for (const waiter of waiters.filter((w) => w.test(line))) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  });
  child.stderr!.on('data', (chunk: Buffer) => process.stderr.write(chunk));
  await logged((l) => l.msg?.startsWith('serving on') ?? false, 'serving on');
}, 90_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    child.kill('SIGKILL');
    await exited(child);
  }
  await rm(dataDir, { recursive: true, force: true });
  if (dbName && process.env.DATABASE_URL) await runStatement(process.env.DATABASE_URL, `drop database if exists ${dbName} with (force)`);
});

describe('SIGTERM', () => {
  it('lets a request in flight finish, refuses new connections, then exits 0', async () => {
    const body = JSON.stringify(ADMIN);
    const half = Math.floor(body.length / 2);
    // A login whose body arrives in two parts: the server has the request (its headers, half the body) when SIGTERM comes.
    const request = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/api/auth/login',
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-request-id': 'in-flight-at-sigterm' },
    });
    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      request.once('response', (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString('utf8')));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      request.once('error', reject);
    });
    request.write(body.slice(0, half));
    await logged((l) => l.reqId === 'in-flight-at-sigterm' && l.msg === 'incoming request', 'the login request arrived');

    const exit = exited(child!);
    child!.kill('SIGTERM');
    await logged((l) => l.msg === 'SIGTERM: shutting down', 'SIGTERM: shutting down');

    // No new work: a new connection is refused once the listener is closed (503 if it slipped in just before).
    const probe = await fetch(`http://127.0.0.1:${port}/api/health`).then((r) => r.status, () => 'refused');
    expect(['refused', 503]).toContain(probe);

    request.end(body.slice(half));
    const answer = await response;
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ token: expect.any(String) });
    expect(await exit).toBe(0);
    expect(logLines.some((l) => l.msg === 'shut down')).toBe(true);
  }, 60_000);
});
