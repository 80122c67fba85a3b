#!/usr/bin/env node
// Fault test (issue 37 §3, decision 0045): each event reaches a webhook at least once, even when the server process
// is killed (SIGKILL) right after the change commits.
//
// Starts the real server with a webhook to a loopback receiver (this script's) listening to `message.created`, sends
// bursts of inbound messages with unique bodies, kills the server mid-burst, restarts it and checks, each round and at
// the end: every acknowledged message (201, or 200 for one already stored) reaches the receiver (0 lost), each message
// under one event id (a receiver de-duplicates on it), and nothing is told that was never stored. Before the outbox
// (migration 0021) the events a process had heard but not yet recorded died with it. Embedded PGlite always; also
// PostgreSQL (a throwaway database) when DATABASE_URL is set. Loopback only, bounded in time.
//
//   [DATABASE_URL=postgres://...] node scripts/faults/webhook-crash.mjs [--json=result.json] [--rounds=2] [--burst=120] [--wait=120000]
//   FAULTS_SERVER=src runs apps/server/src/main.ts through tsx instead of the build.
//
// Prints one line per check and "webhook-crash: N passed, N failed"; exits non-zero on failure.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FaultRun, freePort, ServerProcess, signIn, sleep, tryApi, withThrowawayDatabase } from './lib.mjs';

const faults = new FaultRun('webhook-crash');
const ROUNDS = Math.max(1, Math.min(10, Number(faults.args.rounds ?? 2)));
const BURST = Math.max(30, Math.min(500, Number(faults.args.burst ?? 120)));
const CONCURRENCY = 8;
const CONTACTS = 10;
/**
 * A restarted process records the events the killed one left in the outbox when it starts. A delivery the killed
 * process was sending stays leased for its time limit and 15 s (25 s), and holds its ticket's later ones behind it
 * until the webhooks' sweep (each minute) queues it again: up to about 85 s.
 */
const TOLD_WITHIN_MS = Math.max(10_000, Number(faults.args.wait ?? 120_000));
const ADMIN = { email: 'webhook-crash@test.local', password: 'webhook-crash-1' };
const { children, cleanups } = faults;
faults.results.figures.modes = {};

const acknowledged = (status) => status === 200 || status === 201;

/** The receiver: every `message.created` body it got, by message body, with the event ids seen for it. */
async function startReceiver() {
  const told = new Map();
  let deliveries = 0;
  const server = http.createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      deliveries += 1;
      try {
        const event = JSON.parse(raw);
        if (event.event === 'message.created' && !event.data.message.fromMe) {
          const ids = told.get(event.data.message.body) ?? new Set();
          ids.add(event.id);
          told.set(event.data.message.body, ids);
        }
      } catch {
        // not ours
      }
      res.writeHead(200).end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => server.close());
  return { url: `http://127.0.0.1:${server.address().port}/hook`, told, deliveries: () => deliveries, close: () => new Promise((r) => server.close(r)) };
}

async function runMode(mode, databaseUrl) {
  const receiver = await startReceiver();
  const dataDir = mkdtempSync(path.join(tmpdir(), `wadesk-webhook-crash-${mode}-`));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const server = new ServerProcess(
    'server',
    {
      PORT: String(await freePort()),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl ?? '',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      SIMULATOR: 'on',
      MEDIA_FETCH_PRIVATE: 'allow',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      NODE_ID: undefined,
    },
    { children, cleanups },
  );
  const tag = `[${mode}]`;
  server.start();
  await server.waitReady();
  let token = await signIn(server, ADMIN);
  const created = await tryApi(server, token, 'POST', '/api/whatsapp', { name: 'Webhook crash', channel: 'simulator' });
  if (created.status !== 201) throw new Error(`creating the connection: ${created.status} ${JSON.stringify(created.body)}`);
  const whatsappId = created.body.id;
  const scanned = await tryApi(server, token, 'POST', `/api/simulator/${whatsappId}/scan`);
  if (scanned.body?.status !== 'CONNECTED') throw new Error(`pairing: ${scanned.status} ${JSON.stringify(scanned.body)}`);
  const hook = await tryApi(server, token, 'POST', '/api/webhooks', { url: receiver.url, events: ['message.created'] });
  if (hook.status !== 201) throw new Error(`creating the webhook: ${hook.status} ${JSON.stringify(hook.body)}`);

  const ackedBodies = new Set();
  const sentBodies = new Set();
  let n = 0;
  const figures = [];
  for (let round = 1; round <= ROUNDS; round += 1) {
    const burst = Array.from({ length: BURST }, () => {
      const i = n++;
      const body = `webhook-crash ${round}-${i}-${randomBytes(3).toString('hex')}`;
      return { id: `WC${round}-${i}-${randomBytes(3).toString('hex')}`, from: `55119860${String(i % CONTACTS).padStart(5, '0')}`, name: `Crash ${i % CONTACTS}`, body };
    });
    const killAfter = Math.floor(BURST * (0.3 + Math.random() * 0.4));
    let acked = 0;
    let killed = null;
    let next = 0;
    const unanswered = [];
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < burst.length) {
          const msg = burst[next++];
          if (killed) {
            unanswered.push(msg);
            continue;
          }
          sentBodies.add(msg.body);
          const { status } = await tryApi(server, token, 'POST', `/api/simulator/${whatsappId}/inbound`, msg);
          if (acknowledged(status)) {
            ackedBodies.add(msg.body);
            acked += 1;
          } else unanswered.push(msg);
          // Right after an answer: the events of the messages just stored are being recorded, others are in flight.
          if (acked >= killAfter && !killed) killed = server.kill9();
        }
      }),
    );
    await killed;
    const toldBeforeRestart = [...ackedBodies].filter((b) => receiver.told.has(b)).length;

    server.start();
    await server.waitReady();
    token = await signIn(server, ADMIN);
    // What got no answer is sent again (stored once: the network id decides), as a network redelivers.
    for (const msg of unanswered) {
      for (let attempt = 0; attempt < 10; attempt += 1) {
        sentBodies.add(msg.body);
        const { status } = await tryApi(server, token, 'POST', `/api/simulator/${whatsappId}/inbound`, msg);
        if (acknowledged(status)) {
          ackedBodies.add(msg.body);
          break;
        }
        await sleep(300);
      }
    }
    const since = Date.now();
    while (Date.now() - since < TOLD_WITHIN_MS && [...ackedBodies].some((b) => !receiver.told.has(b))) await sleep(250);
    const missing = [...ackedBodies].filter((b) => !receiver.told.has(b));
    const toldIn = Date.now() - since;
    figures.push({ round, acknowledged: ackedBodies.size, toldBeforeRestart, missing: missing.length, toldInMs: toldIn });
    faults.check(
      `${tag} round ${round}: every acknowledged message told after kill -9 and restart`,
      missing.length === 0,
      `${ackedBodies.size} acknowledged so far, ${toldBeforeRestart} told before the restart, ${missing.length} missing after ${toldIn} ms` +
        (missing.length ? ` (${missing.slice(0, 3).join(', ')})` : ''),
    );
  }
  await sleep(1500);
  const twice = [...receiver.told].filter(([, ids]) => ids.size > 1);
  faults.check(`${tag}: each message told under one event id`, twice.length === 0, `${receiver.told.size} messages told, ${twice.length} under more than one id`);
  const unknown = [...receiver.told.keys()].filter((b) => !sentBodies.has(b));
  faults.check(`${tag}: nothing told that was never sent`, unknown.length === 0, `${unknown.length} unknown`);
  faults.results.figures.modes[mode] = { rounds: figures, deliveries: receiver.deliveries() };
  await server.stop();
  await receiver.close();
}

faults.start(async () => {
  await runMode('embedded');
  if (process.env.DATABASE_URL) await withThrowawayDatabase(process.env.DATABASE_URL, 'wadesk_webhook_crash', (url) => runMode('postgres', url));
}, (ROUNDS * (TOLD_WITHIN_MS + 60_000) + 60_000) * 2);
