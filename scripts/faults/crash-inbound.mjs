#!/usr/bin/env node
// Fault test: inbound messages survive kill -9.
//
// Starts the real server (node apps/server/dist/main.js, after `npm run build`) on loopback with its own
// DATA_DIR and PORT, pairs a simulator connection, sends bursts of inbound messages with unique ids, kills the
// server with SIGKILL mid-burst, restarts it, resends every message whose request got no 2xx answer, and
// checks: every acknowledged message (201, or 200 duplicate) is stored exactly once (0 lost, 0 duplicated),
// and the connection takes an inbound message (201) within 5 s of the restart. Embedded PGlite always; also
// PostgreSQL (a throwaway database) when DATABASE_URL is set.
//
//   node scripts/faults/crash-inbound.mjs [--json=result.json] [--rounds=3] [--burst=150]
//   FAULTS_SERVER=src runs apps/server/src/main.ts through tsx instead of the build.
//
// Prints one line per check and "faults: N passed, N failed"; exits non-zero on failure.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { api, freePort, parseArgs, ServerProcess, sleep } from './lib.mjs';

const args = parseArgs();
const ROUNDS = Math.max(3, Number(args.rounds ?? 3));
const BURST = Math.min(1000, Math.max(30, Number(args.burst ?? 150)));
const CONCURRENCY = 6;
const CONTACTS = 8;
const USABLE_WITHIN_MS = 5000;
const TOTAL_BUDGET_MS = 4 * 60_000;
const ADMIN = { email: 'faults@test.local', password: 'faults-pass-1' };

const results = { passed: 0, failed: 0 };
const children = new Set();
const cleanups = [];

function check(name, ok, detail = '') {
  if (ok) results.passed += 1;
  else results.failed += 1;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? ` — ${detail}` : ''}`);
  return ok;
}

async function login(server) {
  const res = await api(server, null, 'POST', '/api/auth/login', ADMIN);
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.token;
}

/** One inbound message of the test: its id is also its body, so the stored messages can be counted by body. */
function message(id, n) {
  return { id, from: `55119870${String(n % CONTACTS).padStart(5, '0')}`, name: `Fault contact ${n % CONTACTS}`, body: `fault-message ${id}` };
}

/** POSTs one inbound message; answers the HTTP status, or 0 when the request got no answer. */
async function deliver(server, token, whatsappId, msg) {
  try {
    const res = await api(server, token, 'POST', `/api/simulator/${whatsappId}/inbound`, msg);
    return res.status;
  } catch {
    return 0;
  }
}

const acknowledged = (status) => status === 200 || status === 201;

/** Every inbound message body stored for the connection, read through the API (tickets, then their messages). */
async function storedBodies(server, token) {
  const bodies = [];
  const tickets = [];
  for (let page = 1; page < 100; page += 1) {
    const res = await api(server, token, 'GET', `/api/tickets?showAll=true&pageNumber=${page}`);
    if (res.status !== 200) throw new Error(`GET /api/tickets: ${res.status}`);
    tickets.push(...res.body.tickets);
    if (!res.body.hasMore) break;
  }
  for (const ticket of tickets) {
    for (let page = 1; page < 1000; page += 1) {
      const res = await api(server, token, 'GET', `/api/messages/${ticket.id}?pageNumber=${page}`);
      if (res.status !== 200) throw new Error(`GET /api/messages/${ticket.id}: ${res.status}`);
      for (const m of res.body.messages) if (!m.fromMe) bodies.push(m.body);
      if (!res.body.hasMore) break;
    }
  }
  return bodies;
}

async function runMode(mode, databaseUrl) {
  const dataDir = mkdtempSync(path.join(tmpdir(), `wadesk-faults-${mode}-`));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const port = await freePort();
  const server = new ServerProcess(
    'server',
    {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl ?? '',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    SIMULATOR: 'on',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      NODE_ID: undefined, // each start its own node id, as after a real restart
    },
    { children, cleanups },
  );
  const tag = `faults[${mode}]`;
  server.start();
  await server.waitReady();
  let token = await login(server);
  const created = await api(server, token, 'POST', '/api/whatsapp', { name: 'Fault test', channel: 'simulator' });
  if (created.status !== 201) throw new Error(`creating the connection: ${created.status} ${JSON.stringify(created.body)}`);
  const whatsappId = created.body.id;
  const scanned = await api(server, token, 'POST', `/api/simulator/${whatsappId}/scan`);
  if (scanned.status !== 200 || scanned.body.status !== 'CONNECTED') throw new Error(`pairing: ${scanned.status} ${JSON.stringify(scanned.body)}`);

  /** id → the answers it got, in order. */
  const answers = new Map();
  const record = (id, status) => answers.set(id, [...(answers.get(id) ?? []), status]);
  let n = 0;

  for (let round = 1; round <= ROUNDS; round += 1) {
    const burst = Array.from({ length: BURST }, (_, i) => message(`F${round}-${i}-${randomBytes(3).toString('hex')}`, n++));
    const killAfter = Math.floor(BURST * (0.25 + Math.random() * 0.35));
    let acked = 0;
    let killed = null;
    let next = 0;
    const workers = Array.from({ length: CONCURRENCY }, async () => {
      while (next < burst.length) {
        const msg = burst[next++];
        const status = await deliver(server, token, whatsappId, msg);
        record(msg.id, status);
        if (acknowledged(status)) acked += 1;
        if (acked >= killAfter && !killed) killed = server.kill9(); // mid-burst: other requests are in flight
        if (status === 0 && killed) break;
      }
    });
    await Promise.all(workers);
    await killed;
    const unanswered = burst.filter((m) => !acknowledged(answers.get(m.id)?.at(-1)));

    server.start();
    const readyAt = await server.waitReady();
    const startedIn = readyAt - server.startedAt;
    token = await login(server);
    // Usable again: the first inbound accepted with 201 after the server answers.
    let usableIn = Infinity;
    for (let probe = 0; Date.now() - readyAt < USABLE_WITHIN_MS + 2000; probe += 1) {
      const msg = message(`P${round}-${probe}-${randomBytes(3).toString('hex')}`, n++);
      const status = await deliver(server, token, whatsappId, msg);
      record(msg.id, status);
      if (status === 201) {
        usableIn = Date.now() - readyAt;
        break;
      }
      await sleep(100);
    }
    check(
      `${tag} round ${round}: connection takes an inbound message within ${USABLE_WITHIN_MS / 1000} s of the restart`,
      usableIn <= USABLE_WITHIN_MS,
      `201 after ${usableIn === Infinity ? 'never' : `${usableIn} ms`} (server up ${startedIn} ms after spawn)`,
    );
    const status = await api(server, token, 'GET', `/api/whatsapp/${whatsappId}`);
    check(`${tag} round ${round}: the connection shows CONNECTED`, status.body?.status === 'CONNECTED', `status ${status.body?.status}`);

    // Resend whatever got no 2xx answer.
    let resentDuplicates = 0;
    let stillFailing = 0;
    for (const msg of unanswered) {
      let got = 0;
      for (let attempt = 0; attempt < 5 && !acknowledged(got); attempt += 1) {
        got = await deliver(server, token, whatsappId, msg);
        record(msg.id, got);
        if (!acknowledged(got)) await sleep(200);
      }
      if (got === 200) resentDuplicates += 1;
      if (!acknowledged(got)) stillFailing += 1;
    }
    check(
      `${tag} round ${round}: every resend acknowledged`,
      stillFailing === 0,
      `${BURST} sent, ${BURST - unanswered.length} acknowledged before kill -9 after ${killAfter}, ${unanswered.length} resent ` +
        `(${resentDuplicates} already stored), ${stillFailing} not acknowledged`,
    );
  }

  const bodies = await storedBodies(server, token);
  const counts = new Map();
  for (const body of bodies) counts.set(body, (counts.get(body) ?? 0) + 1);
  const ackedIds = [...answers].filter(([, list]) => list.some(acknowledged)).map(([id]) => id);
  const lost = ackedIds.filter((id) => !counts.has(`fault-message ${id}`));
  const duplicated = [...counts].filter(([, c]) => c > 1).map(([b]) => b);
  const wrongly201 = [...answers].filter(([, list]) => list.filter((s) => s === 201).length > 1).map(([id]) => id);
  check(`${tag}: no acknowledged message lost`, lost.length === 0, `${ackedIds.length} acknowledged, ${lost.length} lost${lost.length ? ` (${lost.slice(0, 5).join(', ')})` : ''}`);
  check(`${tag}: no message stored twice`, duplicated.length === 0, `${bodies.length} stored, ${duplicated.length} duplicated`);
  check(`${tag}: a resend of a stored message is answered duplicate, not stored again`, wrongly201.length === 0, `${wrongly201.length} ids answered 201 twice`);
  check(`${tag}: nothing stored that was never sent`, bodies.every((b) => answers.has(b.replace(/^fault-message /, ''))), `${bodies.length} stored bodies`);
  await server.stop();
}

async function withPostgresDatabase(baseUrl, fn) {
  const { default: pg } = await import('pg');
  const name = `wadesk_faults_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  try {
    await fn(url.toString());
  } finally {
    const drop = new pg.Client({ connectionString: baseUrl });
    await drop.connect();
    await drop.query(`drop database if exists ${name} with (force)`).catch(() => undefined);
    await drop.end();
  }
}

function killChildren() {
  for (const child of children) child.kill('SIGKILL');
}

async function main() {
  const budget = setTimeout(() => {
    check('faults: finished within the time budget', false, `${TOTAL_BUDGET_MS / 1000} s`);
    finish(1);
  }, TOTAL_BUDGET_MS);
  budget.unref();
  const modes = [['embedded', undefined]];
  if (process.env.DATABASE_URL) modes.push(['postgres', process.env.DATABASE_URL]);
  for (const [mode, url] of modes) {
    try {
      if (url) await withPostgresDatabase(url, (dbUrl) => runMode(mode, dbUrl));
      else await runMode(mode);
    } catch (err) {
      check(`faults[${mode}]: run`, false, err instanceof Error ? err.message : String(err));
      killChildren();
    }
  }
  clearTimeout(budget);
  finish(results.failed > 0 ? 1 : 0);
}

function finish(code) {
  killChildren();
  for (const clean of cleanups) {
    try {
      clean();
    } catch {
      // best effort
    }
  }
  const line = `faults: ${results.passed} passed, ${results.failed} failed`;
  console.log(line);
  if (args.json) writeFileSync(args.json, JSON.stringify(results));
  process.exit(code || (results.failed > 0 ? 1 : 0));
}

process.on('SIGINT', () => finish(1));
process.on('SIGTERM', () => finish(1));
main().catch((err) => {
  console.error(err);
  results.failed += 1;
  finish(1);
});
