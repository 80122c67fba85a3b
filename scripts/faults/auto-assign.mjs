#!/usr/bin/env node
// Automatic assignment with THREE server processes (issue 36 §4, decision 0040): real OS processes on one PostgreSQL
// database, a queue with autoAssign, one simulator connection made (and so run) by each process, 200 contacts writing
// at once, each through the process that runs its connection, while eight attendants (maxOpenTickets 10) connect their
// sockets to random processes and disconnect them. Checks, with figures:
//   - no ticket has two `assigned` events; each assigned ticket is open and held by the user its event names; each other
//     ticket is pending with nobody; nobody holds more open tickets than their limit;
//   - then, everyone connected and every limit raised to 25 (200 / 8): all 200 tickets assigned, once each, 25 each.
// The same as modules/queues/auto-assign-processes.test.ts, with separate OS processes. Its own throwaway database;
// loopback only; bounded in time. Skipped, with a line saying so, without DATABASE_URL.
//
//   DATABASE_URL=postgres://... node scripts/faults/auto-assign.mjs [--json=result.json] [--tickets=200]
//   FAULTS_SERVER=src runs apps/server/src/main.ts through tsx; FAULTS_SERVER_ENTRY another build.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { api, FaultRun, freePort, root, ServerProcess, signIn, sleep, withThrowawayDatabase } from './lib.mjs';

const require = createRequire(path.join(root, 'apps/server/package.json'));
const run = new FaultRun('auto-assign');
const PROCESSES = 3;
const ATTENDANTS = 8;
const TICKETS = Math.max(ATTENDANTS, Math.min(400, Number(run.args.tickets ?? 200)));
const FIRST_LIMIT = 10;
const SECOND_LIMIT = Math.ceil(TICKETS / ATTENDANTS);
const ADMIN = { email: 'assign@test.local', password: 'assign-pass-1' };

async function main(databaseUrl) {
  const { default: pg } = await import(require.resolve('pg'));
  const { io: socketClient } = require('socket.io-client');
  const db = new pg.Client({ connectionString: databaseUrl });
  db.on('error', () => undefined); // the throwaway database is dropped with force at the end
  await db.connect();
  run.cleanups.push(() => db.end().catch(() => undefined));

  const secrets = { jwt: randomBytes(24).toString('hex'), refresh: randomBytes(24).toString('hex') };
  const servers = [];
  for (let i = 1; i <= PROCESSES; i += 1) {
    const dataDir = mkdtempSync(path.join(tmpdir(), `wadesk-assign-p${i}-`));
    run.cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    servers.push(
      new ServerProcess(
        `p${i}`,
        {
          PORT: String(await freePort()),
          HOST: '127.0.0.1',
          DATA_DIR: dataDir,
          DATABASE_URL: databaseUrl,
          NODE_ID: `p${i}`,
          ADMIN_EMAIL: ADMIN.email,
          ADMIN_PASSWORD: ADMIN.password,
          SIMULATOR: 'on',
          LOG_LEVEL: 'warn',
          NODE_ENV: 'production',
          // One desk: the processes share their secrets, so a token of one is good on the others.
          JWT_SECRET: secrets.jwt,
          JWT_REFRESH_SECRET: secrets.refresh,
        },
        run,
      ),
    );
  }
  // The first one migrates the database; the two others start together once it is up.
  const t0 = Date.now();
  servers[0].start();
  await servers[0].waitReady(90_000);
  servers[1].start();
  servers[2].start();
  await Promise.all([servers[1].waitReady(90_000), servers[2].waitReady(90_000)]);
  run.results.figures.startupMs = Date.now() - t0;
  const admin = new Map();
  for (const s of servers) admin.set(s, await signIn(s, ADMIN));
  const [one] = servers;
  const call = async (s, method, url, body) => {
    const res = await api(s, admin.get(s), method, url, body);
    if (res.status >= 300) throw new Error(`${method} ${url} on ${s.name}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };

  const queue = await call(one, 'POST', '/api/queue', { name: 'Auto', color: '#1273DE', autoAssign: true });
  // One connection made and paired through each process: that process runs it.
  const connections = [];
  for (const [i, s] of servers.entries()) {
    const made = await call(s, 'POST', '/api/whatsapp', { name: `Auto ${i + 1}`, channel: 'simulator', queueIds: [queue.id] });
    for (let attempt = 0; ; attempt += 1) {
      const scanned = await api(s, admin.get(s), 'POST', `/api/simulator/${made.id}/scan`);
      if (scanned.status === 200 && scanned.body.status === 'CONNECTED') break;
      if (attempt > 40) throw new Error(`pairing ${made.id} on ${s.name}: ${scanned.status} ${JSON.stringify(scanned.body)}`);
      await sleep(250);
    }
    connections.push({ server: s, id: made.id });
  }

  const attendants = [];
  for (let i = 0; i < ATTENDANTS; i += 1) {
    const who = { name: `Attendant ${i + 1}`, email: `attendant${i + 1}@assign.local`, password: 'attendant-pass-1' };
    const user = await call(one, 'POST', '/api/users', { ...who, profile: 'user', queueIds: [queue.id], maxOpenTickets: FIRST_LIMIT });
    attendants.push({ id: user.id, token: await signIn(one, who) });
  }

  const online = new Map();
  const connecting = new Set();
  const sockets = new Set();
  run.cleanups.push(() => {
    for (const socket of sockets) socket.close();
  });
  const connect = async (who, s) => {
    connecting.add(who);
    const socket = socketClient(s.base, { path: '/socket.io', transports: ['websocket'], auth: { token: attendants[who].token }, reconnection: false });
    sockets.add(socket);
    try {
      await new Promise((resolve, reject) => {
        socket.once('connect', resolve);
        socket.once('connect_error', reject);
      });
    } finally {
      connecting.delete(who);
    }
    online.set(who, socket);
  };
  const disconnect = (who) => {
    online.get(who)?.close();
    online.delete(who);
  };
  const random = (n) => Math.floor(Math.random() * n);

  // 200 contacts at once, each through the process that runs its connection; attendants come and go meanwhile.
  const started = Date.now();
  const statuses = await (async () => {
    let churning = true;
    let churns = 0;
    const churn = Promise.all(
      Array.from({ length: 3 }, async () => {
        while (churning) {
          const who = random(ATTENDANTS);
          if (connecting.has(who)) await sleep(5);
          else if (online.has(who)) disconnect(who);
          else await connect(who, servers[random(PROCESSES)]);
          churns += 1;
          await sleep(50 + random(250));
        }
      }),
    );
    let slowest = 0;
    const answers = await Promise.all(
      Array.from({ length: TICKETS }, async (_, i) => {
        const { server, id } = connections[i % connections.length];
        const from = `55119880${String(10000 + i).padStart(5, '0')}`;
        const sent = Date.now();
        // A longer wait than api()'s 15 s: 200 at once on a loaded machine queue up; the slowest is a figure.
        const res = await fetch(`${server.base}/api/simulator/${id}/inbound`, {
          method: 'POST',
          headers: { authorization: `Bearer ${admin.get(server)}`, 'content-type': 'application/json' },
          body: JSON.stringify({ from, name: `Contact ${i + 1}`, body: `Olá ${i + 1}` }),
          signal: AbortSignal.timeout(90_000),
        });
        await res.text();
        slowest = Math.max(slowest, Date.now() - sent);
        return res.status;
      }),
    );
    run.results.figures.inboundMs = Date.now() - started;
    run.results.figures.slowestInboundMs = slowest;
    await sleep(1500);
    churning = false;
    await churn;
    run.results.figures.socketConnectsAndDisconnects = churns;
    return answers;
  })();
  run.check('every inbound message was acknowledged', statuses.every((s) => s === 201), `${statuses.filter((s) => s === 201).length}/${TICKETS}`);

  const facts = async () => {
    const tickets = (await db.query(`select id, status, user_id from tickets`)).rows;
    const assigned = (await db.query(`select ticket_id, (data->'toUser'->>'id')::int as to_user from ticket_events where kind = 'assigned'`)).rows;
    return { tickets, assigned };
  };
  /** Settled: nothing assigned for eight seconds (longer than a presence request that times out, and its retry). */
  const settled = async () => {
    let last = -1;
    for (let stable = 0; stable < 16; ) {
      const n = (await facts()).assigned.length;
      stable = n === last ? stable + 1 : 0;
      last = n;
      await sleep(500);
    }
    return facts();
  };
  const check = (label, f, limit) => {
    const perTicket = new Map();
    for (const a of f.assigned) perTicket.set(a.ticket_id, [...(perTicket.get(a.ticket_id) ?? []), a.to_user]);
    const twice = [...perTicket.values()].filter((users) => users.length > 1).length;
    const mismatched = f.tickets.filter((t) => {
      const to = perTicket.get(t.id);
      return to ? t.status !== 'open' || t.user_id !== to[0] : t.status !== 'pending' || t.user_id !== null;
    }).length;
    const openOf = new Map();
    for (const t of f.tickets) if (t.status === 'open') openOf.set(t.user_id, (openOf.get(t.user_id) ?? 0) + 1);
    const most = Math.max(0, ...openOf.values());
    run.check(`${label}: no ticket assigned twice`, twice === 0, `${f.assigned.length} assigned, ${twice} twice`);
    run.check(`${label}: each ticket where its assignment says`, mismatched === 0, `${mismatched} not`);
    run.check(`${label}: nobody over their limit`, most <= limit, `most open tickets of one attendant ${most}, limit ${limit}`);
    return openOf;
  };

  const during = await settled();
  run.check('every contact has one ticket', during.tickets.length === TICKETS, `${during.tickets.length}`);
  const openDuring = check('while attendants came and went', during, FIRST_LIMIT);
  run.results.figures.assignedWhileChurning = during.assigned.length;
  const full = [...online.keys()].every((who) => (openDuring.get(attendants[who].id) ?? 0) === FIRST_LIMIT);
  run.check('whoever is online at the end is at their limit', full, `${online.size} online`);

  // Everyone online, each on some process, and a higher limit: every ticket finds its attendant.
  for (let who = 0; who < ATTENDANTS; who += 1) if (!online.has(who)) await connect(who, servers[who % PROCESSES]);
  const raised = Date.now();
  for (const [i, a] of attendants.entries()) await call(servers[i % PROCESSES], 'PUT', `/api/users/${a.id}`, { maxOpenTickets: SECOND_LIMIT });
  let after = await facts();
  while (after.assigned.length < TICKETS && Date.now() - raised < 30_000) {
    await sleep(250);
    after = await facts();
  }
  run.results.figures.allAssignedMs = Date.now() - raised;
  run.check('all tickets assigned once capacity allows', after.assigned.length === TICKETS, `${after.assigned.length}/${TICKETS} in ${run.results.figures.allAssignedMs} ms`);
  const openAfter = check('after the limit rose', await settled(), SECOND_LIMIT);
  run.results.figures.openPerAttendant = [...openAfter.values()].sort((a, b) => a - b);
  run.results.figures.partialPresenceWarnings = servers.map((s) => s.log.filter((line) => line.includes('presence:')).length);
  console.log(`auto-assign figures: ${JSON.stringify(run.results.figures)}`);
}

if (!process.env.DATABASE_URL) run.skip('DATABASE_URL is not set: several processes need PostgreSQL');
else run.start(() => withThrowawayDatabase(process.env.DATABASE_URL, 'wadesk_faults_assign', main), 4 * 60_000);
