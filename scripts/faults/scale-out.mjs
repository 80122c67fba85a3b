#!/usr/bin/env node
// Scale-out test (issue 17): THREE server processes on one PostgreSQL database, with simulator connections
// spread between them. Inbound traffic goes to every process (each for the connections it runs), an attendant
// sends texts through every process (a text for a connection another process runs is routed to its owner),
// and a campaign (bulk send) runs on a connection of the process that is then killed with SIGKILL mid-traffic.
// An attendant's Socket.IO client sits on a process that survives. Checks, with figures:
//   - the connections spread between the processes (at most ceil(connections / processes) each);
//   - the killed process's connections are served by another within 30 s (an inbound message accepted);
//   - every acknowledged inbound message and every accepted outbound text stored exactly once, each outbound
//     sent (acked, no error) and handed to the network once;
//   - the attendant's socket received the `appMessage` create event of every one of them;
//   - the campaign finished, each recipient exactly once (none sent again after the takeover).
// Its own throwaway PostgreSQL database (created and dropped); loopback only; bounded in time. Skipped, with a
// line saying so, without DATABASE_URL (several processes need PostgreSQL: the embedded database is one process).
//
//   DATABASE_URL=postgres://... node scripts/faults/scale-out.mjs [--json=result.json] [--inbound=30] [--outbound=36]
//   FAULTS_SERVER=src runs apps/server/src/main.ts through tsx instead of the build.
//
// Prints one line per check and "scale-out: N passed, N failed"; exits non-zero on failure.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { api, freePort, parseArgs, root, ServerProcess, sleep, tryApi } from './lib.mjs';

const require = createRequire(path.join(root, 'apps/server/package.json'));
const args = parseArgs();
const PROCESSES = 3;
const CONNECTIONS = 6;
/** Inbound messages per connection. */
const INBOUND_PER_CONNECTION = Math.min(200, Math.max(10, Number(args.inbound ?? 30)));
const OUTBOUND = Math.min(300, Math.max(12, Number(args.outbound ?? 36)));
const CAMPAIGN_RECIPIENTS = 12;
const CONTACTS_PER_CONNECTION = 4;
const CONCURRENCY = 6;
const TAKEOVER_WITHIN_MS = 30_000;
// A routed text the killed process held is retried once its job expires (60 s) and pg-boss's maintenance (every 30 s,
// job-queue.ts) has failed it: settling may take up to 90 s and some.
const SETTLE_MS = 120_000;
const TOTAL_BUDGET_MS = 4 * 60_000;
const ADMIN = { email: 'scale@test.local', password: 'scale-pass-1' };
const ATTENDANT = { name: 'Scale attendant', email: 'attendant@scale.local', password: 'attendant-pass-1', profile: 'user' };

const results = { passed: 0, failed: 0, figures: {} };
const children = new Set();
const cleanups = [];

function check(name, ok, detail = '') {
  if (ok) results.passed += 1;
  else results.failed += 1;
  console.log(`${ok ? 'ok  ' : 'FAIL'} scale-out: ${name}${detail ? ` — ${detail}` : ''}`);
  return ok;
}

async function login(server, who) {
  const res = await api(server, null, 'POST', '/api/auth/login', { email: who.email, password: who.password });
  if (res.status !== 200) throw new Error(`login of ${who.email} on ${server.name} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.token;
}

const acknowledged = (status) => status === 200 || status === 201;
const contactNumber = (connection, n) => `55119860${String(1000 + connection * 100 + (n % CONTACTS_PER_CONNECTION)).padStart(5, '0')}`;

/** Which process (node id) holds each connection's advisory lock (decision 0008). */
async function owners(pgClient) {
  const res = await pgClient.query(
    `select l.objid::int as id, a.application_name as app
       from pg_locks l join pg_stat_activity a on a.pid = l.pid
      where l.locktype = 'advisory' and l.granted and l.classid::bigint = $1 and l.objsubid = 2
        and l.database = (select oid from pg_database where datname = current_database())`,
    [0x77616473],
  );
  return new Map(res.rows.map((r) => [r.id, r.app.replace(/^wadesk-leases /, '')]));
}

async function run(databaseUrl) {
  const { default: pg } = await import('pg');
  const { io: socketClient } = require('socket.io-client');
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  cleanups.push(() => db.end().catch(() => undefined));

  const servers = [];
  for (let i = 1; i <= PROCESSES; i += 1) {
    const dataDir = mkdtempSync(path.join(tmpdir(), `wadesk-scale-p${i}-`));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
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
          LOG_LEVEL: process.env.SCALE_LOG_LEVEL ?? 'warn',
          NODE_ENV: 'production',
        },
        { children, cleanups, logFilter: (line) => !process.env.SCALE_LOG_GREP || line.includes(process.env.SCALE_LOG_GREP) },
      ),
    );
  }
  const byNode = new Map(servers.map((s) => [s.name, s]));
  // The first one migrates the database; the two others start together once it is up.
  const t0 = Date.now();
  servers[0].start();
  await servers[0].waitReady(90_000);
  servers[1].start();
  servers[2].start();
  await Promise.all([servers[1].waitReady(90_000), servers[2].waitReady(90_000)]);
  results.figures.startupMs = Date.now() - t0;

  const adminTokens = new Map();
  for (const s of servers) adminTokens.set(s.name, await login(s, ADMIN));
  const created = await api(servers[0], adminTokens.get('p1'), 'POST', '/api/users', ATTENDANT);
  if (created.status !== 201 && created.status !== 200) throw new Error(`creating the attendant: ${created.status} ${JSON.stringify(created.body)}`);
  const attendantTokens = new Map();
  for (const s of servers) attendantTokens.set(s.name, await login(s, ATTENDANT));

  // Six connections, two created and paired through each process (a new connection starts where it was made).
  const connections = [];
  for (let c = 0; c < CONNECTIONS; c += 1) {
    const s = servers[c % PROCESSES];
    const token = adminTokens.get(s.name);
    const made = await api(s, token, 'POST', '/api/whatsapp', { name: `Scale ${c + 1}`, channel: 'simulator' });
    if (made.status !== 201) throw new Error(`creating connection ${c + 1}: ${made.status} ${JSON.stringify(made.body)}`);
    const scanned = await api(s, token, 'POST', `/api/simulator/${made.body.id}/scan`);
    if (scanned.status !== 200 || scanned.body.status !== 'CONNECTED') throw new Error(`pairing ${c + 1} on ${s.name}: ${scanned.status} ${JSON.stringify(scanned.body)}`);
    connections.push({ id: made.body.id, index: c });
  }
  const before = await owners(db);
  const perNode = Object.fromEntries(servers.map((s) => [s.name, connections.filter((c) => before.get(c.id) === s.name).length]));
  results.figures.connectionsPerProcess = perNode;
  check(
    'the connections are spread between the processes',
    connections.every((c) => before.has(c.id)) && Object.values(perNode).every((n) => n <= Math.ceil(CONNECTIONS / PROCESSES)),
    `${Object.entries(perNode).map(([k, v]) => `${k} runs ${v}`).join(', ')} of ${CONNECTIONS}`,
  );

  const victim = servers[2];
  const survivors = servers.slice(0, 2);
  const victimConnections = connections.filter((c) => before.get(c.id) === victim.name);

  // The attendant's socket, on a process that survives: every appMessage create it gets, by message body.
  const socketBodies = new Map();
  const socket = socketClient(survivors[0].base, {
    path: '/socket.io',
    transports: ['websocket'],
    auth: { token: attendantTokens.get(survivors[0].name) },
    reconnection: false,
  });
  cleanups.push(() => socket.close());
  socket.on('appMessage', (e) => {
    if (e.action !== 'create') return;
    socketBodies.set(e.message.body, (socketBodies.get(e.message.body) ?? 0) + 1);
  });
  await new Promise((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });

  // One first inbound message per contact, so the tickets exist for the attendant's texts.
  const inbound = new Map(); // body → the answers it got
  const inFlightAtKill = new Set(); // bodies posted to the victim as it died (no answer)
  const record = (body, status) => inbound.set(body, [...(inbound.get(body) ?? []), status]);
  /** Delivers to the connection's owner; a connection of the killed process goes to whichever survivor runs it now. */
  const deliver = async (connection, msg) => {
    const owner = byNode.get(before.get(connection.id));
    const tried = owner && !owner.dead ? [owner] : survivors;
    for (const s of tried) {
      const res = await tryApi(s, adminTokens.get(s.name), 'POST', `/api/simulator/${connection.id}/inbound`, msg);
      if (acknowledged(res.status)) return res.status;
      // No answer at all from the process being killed: the message may be stored, its answer lost with it.
      if (res.status === 0 && s === victim) inFlightAtKill.add(msg.body);
    }
    return 0;
  };
  const inboundMessage = (connection, n) => {
    const id = `S${connection.index}-${n}-${randomBytes(3).toString('hex')}`;
    return { id, from: contactNumber(connection.index, n), name: `Scale contact ${connection.index}-${n % CONTACTS_PER_CONNECTION}`, body: `scale-in ${id}` };
  };
  for (const connection of connections) {
    for (let n = 0; n < CONTACTS_PER_CONNECTION; n += 1) {
      const msg = inboundMessage(connection, n);
      record(msg.body, await deliver(connection, msg));
    }
  }
  const ticketRows = await db.query(
    `select t.id, t.whatsapp_id as "whatsappId" from tickets t where t.whatsapp_id = any($1::int[]) order by t.id`,
    [connections.map((c) => c.id)],
  );
  const tickets = ticketRows.rows;

  // The campaign: on a connection of the process about to die, created through another process.
  const campaignConnection = victimConnections[0] ?? connections[0];
  const recipients = Array.from({ length: CAMPAIGN_RECIPIENTS }, (_, i) => `55119870${String(1000 + i).padStart(5, '0')}`);
  const campaign = await api(survivors[1], adminTokens.get(survivors[1].name), 'POST', '/api/campaigns', {
    whatsappId: campaignConnection.id,
    kind: 'text',
    numbers: recipients.join('\n'),
    message: 'bulk scale campaign',
    minInterval: 0,
    maxInterval: 0,
  });
  if (campaign.status !== 201) throw new Error(`creating the campaign: ${campaign.status} ${JSON.stringify(campaign.body)}`);

  // Traffic: inbound to every process, the attendant's texts through every process; the kill mid-way.
  const inboundPlan = [];
  for (let n = CONTACTS_PER_CONNECTION; n < INBOUND_PER_CONNECTION; n += 1) for (const c of connections) inboundPlan.push([c, n]);
  const outbound = new Map(); // body → { status, via, ticket }
  let outboundNext = 0;
  const killAt = Math.floor(inboundPlan.length * 0.4);
  let inboundDone = 0;
  let killedAt = null;
  let killing = null;
  const takeover = new Map(); // connection id → ms after the kill of the first inbound accepted elsewhere
  const sendOne = async () => {
    const i = outboundNext++;
    if (i >= OUTBOUND) return;
    const live = servers.filter((s) => !s.dead);
    const via = live[i % live.length];
    const ticket = tickets[i % tickets.length];
    const body = `scale-out ${i} ${randomBytes(3).toString('hex')}`;
    const res = await tryApi(via, attendantTokens.get(via.name), 'POST', `/api/messages/${ticket.id}`, { body });
    outbound.set(body, { status: res.status, via: via.name, ticket: ticket.id, error: res.status === 201 ? null : res.body?.error ?? res.body });
  };
  let planNext = 0;
  const workers = Array.from({ length: CONCURRENCY }, async () => {
    while (planNext < inboundPlan.length) {
      const [connection, n] = inboundPlan[planNext++];
      const msg = inboundMessage(connection, n);
      let status = await deliver(connection, msg);
      // A connection of the killed process: retried until a survivor runs it (that is the takeover).
      while (!acknowledged(status) && killedAt !== null && Date.now() - killedAt < TAKEOVER_WITHIN_MS + 15_000) {
        await sleep(250);
        status = await deliver(connection, msg);
      }
      if (acknowledged(status) && killedAt !== null && victimConnections.includes(connection) && !takeover.has(connection.id)) {
        takeover.set(connection.id, Date.now() - killedAt);
      }
      record(msg.body, status);
      inboundDone += 1;
      if (inboundDone % Math.ceil(inboundPlan.length / OUTBOUND) === 0) await sendOne();
      if (inboundDone >= killAt && !killing) {
        killing = victim.kill9().then(() => {
          killedAt ??= Date.now();
        });
        killedAt = Date.now();
      }
    }
  });
  await Promise.all(workers);
  await killing;
  while (outboundNext < OUTBOUND) await sendOne();
  results.figures.killedProcess = victim.name;
  results.figures.victimConnections = victimConnections.map((c) => c.id);

  // Takeover: each of the victim's connections accepted an inbound message on a survivor within 30 s.
  const after = await owners(db);
  const takeoverMs = victimConnections.map((c) => takeover.get(c.id) ?? Infinity);
  results.figures.takeoverMs = Object.fromEntries(victimConnections.map((c, i) => [c.id, takeoverMs[i] === Infinity ? null : takeoverMs[i]]));
  results.figures.connectionsAfter = Object.fromEntries(survivors.map((s) => [s.name, connections.filter((c) => after.get(c.id) === s.name).length]));
  check(
    `the killed process's connections are served elsewhere within ${TAKEOVER_WITHIN_MS / 1000} s`,
    victimConnections.length > 0 && takeoverMs.every((ms) => ms <= TAKEOVER_WITHIN_MS) && connections.every((c) => survivors.some((s) => s.name === after.get(c.id))),
    `${victimConnections.length} connections of ${victim.name}: first inbound accepted elsewhere after ${takeoverMs.map((ms) => (ms === Infinity ? 'never' : `${ms} ms`)).join(', ')}; ` +
      `now ${Object.entries(results.figures.connectionsAfter).map(([k, v]) => `${k} runs ${v}`).join(', ')}`,
  );

  // Settle: the campaign done, every accepted outbound text sent (routed jobs run by the owners).
  const acceptedOut = [...outbound].filter(([, o]) => o.status === 201).map(([body]) => body);
  const settleUntil = Date.now() + SETTLE_MS;
  let campaignNow = null;
  let outRows = [];
  for (;;) {
    campaignNow = (await api(survivors[0], adminTokens.get(survivors[0].name), 'GET', `/api/campaigns/${campaign.body.id}`)).body;
    outRows = (await db.query(`select body, ack, send_error as "sendError" from messages where from_me and body like 'scale-out %'`)).rows;
    const pending = outRows.filter((r) => r.ack < 1 && !r.sendError && outbound.get(r.body)?.status === 201).length;
    const eventsMissing = [...inbound].filter(([, l]) => l.some(acknowledged)).some(([b]) => !socketBodies.has(b)) || acceptedOut.some((b) => !socketBodies.has(b));
    if ((campaignNow?.status === 'done' && pending === 0 && !eventsMissing) || Date.now() > settleUntil) break;
    await sleep(500);
  }

  // Inbound: every acknowledged message stored exactly once.
  const inRows = (await db.query(`select body from messages where not from_me and body like 'scale-in %'`)).rows;
  const inCounts = new Map();
  for (const r of inRows) inCounts.set(r.body, (inCounts.get(r.body) ?? 0) + 1);
  const ackedIn = [...inbound].filter(([, l]) => l.some(acknowledged)).map(([b]) => b);
  const lostIn = ackedIn.filter((b) => !inCounts.has(b));
  const dupIn = [...inCounts].filter(([, n]) => n > 1);
  results.figures.inbound = { sent: inbound.size, acknowledged: ackedIn.length, stored: inRows.length, lost: lostIn.length, duplicated: dupIn.length };
  check(
    'every acknowledged inbound message stored exactly once',
    ackedIn.length === inbound.size && lostIn.length === 0 && dupIn.length === 0,
    `${inbound.size} sent to ${PROCESSES} processes, ${ackedIn.length} acknowledged, ${inRows.length} stored, ${lostIn.length} lost, ${dupIn.length} duplicated`,
  );

  // Outbound: every accepted text stored once and sent once (ack ≥ 1, no error); none refused.
  // A text posted to the process at the moment it was killed gets no answer: not resent (the attendant sees it or not).
  const unanswered = [...outbound].filter(([, o]) => o.status === 0 && o.via === victim.name).map(([body]) => body);
  const unansweredSet = new Set(unanswered);
  const outCounts = new Map();
  for (const r of outRows) outCounts.set(r.body, (outCounts.get(r.body) ?? 0) + 1);
  const dupOut = [...outCounts].filter(([, n]) => n > 1);
  // A text the killed process sent itself (it ran the connection) was answered 201 once the network took it; its
  // simulated phone, acks and all, died with it: counted as sent, apart.
  const ownerOf = (body) => before.get(tickets.find((t) => t.id === outbound.get(body)?.ticket)?.whatsappId);
  const sentByVictim = outRows.filter((r) => r.ack < 1 && !r.sendError && outbound.get(r.body)?.status === 201 && outbound.get(r.body)?.via === victim.name && ownerOf(r.body) === victim.name);
  const sentByVictimSet = new Set(sentByVictim.map((r) => r.body));
  const notSent = outRows.filter((r) => (r.ack < 1 || r.sendError) && !unansweredSet.has(r.body) && !sentByVictimSet.has(r.body));
  const refused = [...outbound].filter(([, o]) => o.status !== 201 && !(o.status === 0 && o.via === victim.name));
  const routed = [...outbound].filter(([, o]) => {
    const ticket = tickets.find((t) => t.id === o.ticket);
    return o.status === 201 && before.get(ticket.whatsappId) !== o.via;
  }).length;
  // Handed to the network: the simulated phones of the survivors, each text at most once. A phone's outbox is shared
  // through the database, so every survivor may list the same send: a send is counted by its id, once.
  const handed = new Map();
  const seenSends = new Set();
  for (const s of survivors) {
    for (const c of connections) {
      const box = await tryApi(s, adminTokens.get(s.name), 'GET', `/api/simulator/${c.id}/outbox`);
      if (!Array.isArray(box.body)) continue;
      for (const e of box.body) {
        if (typeof e.body !== 'string' || !e.body.startsWith('scale-out ') || seenSends.has(e.id)) continue;
        seenSends.add(e.id);
        handed.set(e.body, (handed.get(e.body) ?? 0) + 1);
      }
    }
  }
  const handedTwice = [...handed].filter(([, n]) => n > 1);
  results.figures.outbound = {
    sent: outbound.size,
    accepted: acceptedOut.length,
    unansweredAtKill: unanswered.length,
    routedToAnotherProcess: routed,
    stored: outRows.length,
    duplicated: dupOut.length,
    notSent: notSent.length,
    sentByKilledProcessUnacked: sentByVictim.length,
    handedTwice: handedTwice.length,
  };
  check(
    "every attendant's text accepted (through every process, routed to the owner when needed)",
    refused.length === 0,
    `${outbound.size} sent, ${acceptedOut.length} accepted (201), ${routed} of them through a process that did not run the connection, ` +
      `${unanswered.length} unanswered (posted to ${victim.name} as it was killed)` +
      (refused.length ? `; refused: ${refused.slice(0, 3).map(([b, o]) => `${b} via ${o.via}: ${o.status} ${JSON.stringify(o.error)}`).join('; ')}` : ''),
  );
  check(
    'every outbound text stored exactly once and sent once',
    acceptedOut.every((b) => outCounts.get(b) === 1) && unanswered.every((b) => (outCounts.get(b) ?? 0) <= 1) && dupOut.length === 0 && notSent.length === 0 && handedTwice.length === 0,
    `${outRows.length} stored, ${dupOut.length} duplicated, ${notSent.length} accepted but not sent (ack 0 or error)` +
      `${notSent.length ? ` (${notSent.slice(0, 3).map((r) => `${r.body} ${JSON.stringify(outbound.get(r.body))} run by ${ownerOf(r.body)}`).join('; ')})` : ''}, ` +
      `${sentByVictim.length} sent directly by ${victim.name} before it died (its acks died with it), ${handedTwice.length} handed to the network twice; ` +
      `of the ${unanswered.length} unanswered, ${outRows.filter((r) => unansweredSet.has(r.body)).length} stored, ${outRows.filter((r) => unansweredSet.has(r.body) && r.ack >= 1).length} sent` +
      (handedTwice.length ? ` (${handedTwice.slice(0, 2).map(([b]) => `${b} ${JSON.stringify(outbound.get(b))} owner before ${before.get(tickets.find((t) => t.id === outbound.get(b)?.ticket)?.whatsappId)}`).join('; ')})` : ''),
  );

  // The attendant's socket (on a survivor): an appMessage create for every stored message, each once.
  // A message the victim stored in its last moment, answering nothing, may take its event with it: counted apart.
  const expected = [...ackedIn, ...acceptedOut].filter((b) => !inFlightAtKill.has(b));
  const lastMoment = ackedIn.filter((b) => inFlightAtKill.has(b));
  const lastMomentEvents = lastMoment.filter((b) => socketBodies.has(b)).length;
  const missed = expected.filter((b) => !socketBodies.has(b));
  const twice = expected.filter((b) => (socketBodies.get(b) ?? 0) > 1);
  const viaOthers = ackedIn.filter((b) => {
    const conn = connections.find((c) => b.startsWith(`scale-in S${c.index}-`));
    return conn && before.get(conn.id) !== survivors[0].name;
  }).length;
  results.figures.socket = { lastMomentOfVictim: lastMoment.length, lastMomentEventsReceived: lastMomentEvents, expected: expected.length, received: expected.length - missed.length, missed: missed.length, twice: twice.length, inboundThroughOtherProcesses: viaOthers };
  check(
    `the attendant's socket on ${survivors[0].name} received every message's event, once`,
    missed.length === 0 && twice.length === 0,
    `${expected.length} messages (${viaOthers} inbound arrived through other processes), ${missed.length} events missed, ${twice.length} received twice; ` +
      `${lastMoment.length} more posted to ${victim.name} as it was killed (no answer, resent: stored once), ${lastMomentEvents} of their events received` +
      (missed.length ? ` (missed: ${missed.slice(0, 3).map((b) => `${b} ${JSON.stringify(inbound.get(b) ?? outbound.get(b))}`).join('; ')})` : ''),
  );

  // The campaign: done, each recipient once; none sent again by the new owner after the takeover.
  const recipientRows = (
    await db.query(`select number, status, sent_at as "sentAt" from campaign_recipients where campaign_id = $1`, [campaign.body.id])
  ).rows;
  const handedCampaign = new Map();
  for (const s of survivors) {
    const box = await tryApi(s, adminTokens.get(s.name), 'GET', `/api/simulator/${campaignConnection.id}/outbox`);
    if (!Array.isArray(box.body)) continue;
    for (const e of box.body) {
      if (e.body !== 'bulk scale campaign' || seenSends.has(e.id)) continue;
      seenSends.add(e.id);
      handedCampaign.set(e.to, (handedCampaign.get(e.to) ?? 0) + 1);
    }
  }
  const sentAfterKill = recipientRows.filter((r) => r.status === 'sent' && r.sentAt && new Date(r.sentAt).getTime() >= killedAt).length;
  // The phone's outbox is shared through the database: it lists the sends of the killed process too (those it
  // stored before it died). Each recipient at most once; each recipient sent after the kill (by a survivor) in it.
  const survivorsSent = [...handedCampaign.values()].reduce((a, b) => a + b, 0);
  const handedNumbers = new Set([...handedCampaign.keys()].map((to) => String(to).split('@')[0].replace(/\D/g, '')));
  const sentAfterKillMissing = recipientRows.filter(
    (r) => r.status === 'sent' && r.sentAt && new Date(r.sentAt).getTime() >= killedAt && !handedNumbers.has(String(r.number).replace(/\D/g, '')),
  ).length;
  const reached = recipientRows.filter((r) => r.status === 'sent' || r.status === 'unknown').length;
  results.figures.campaign = {
    status: campaignNow?.status,
    recipients: recipientRows.length,
    sent: recipientRows.filter((r) => r.status === 'sent').length,
    unknown: recipientRows.filter((r) => r.status === 'unknown').length,
    failed: recipientRows.filter((r) => r.status === 'failed').length,
    sentAfterKill,
    handedBySurvivors: survivorsSent,
  };
  check(
    'the campaign running during the kill finished with each recipient exactly once',
    campaignNow?.status === 'done' &&
      recipientRows.length === CAMPAIGN_RECIPIENTS &&
      reached === CAMPAIGN_RECIPIENTS &&
      new Set(recipientRows.map((r) => r.number)).size === CAMPAIGN_RECIPIENTS &&
      [...handedCampaign.values()].every((n) => n === 1) &&
      sentAfterKillMissing === 0 &&
      survivorsSent >= sentAfterKill,
    `status ${campaignNow?.status}, ${recipientRows.length} recipients: ${results.figures.campaign.sent} sent, ${results.figures.campaign.unknown} unknown (in flight at the kill), ` +
      `${results.figures.campaign.failed} failed; ${sentAfterKill} sent after the kill (${sentAfterKillMissing} of them missing from the phone), ${survivorsSent} in the phone's outbox, none twice`,
  );

  if (campaignNow?.status !== 'done') {
    const row = (await db.query(`select status, chain, next_send_at, last_error from campaigns where id = $1`, [campaign.body.id])).rows[0];
    const jobs = (await db.query(`select state, data, started_on, created_on, start_after from pgboss.job where name = 'campaign.step' and state not in ('completed')`)).rows;
    console.log(`scale-out: campaign ${JSON.stringify(row)} jobs ${JSON.stringify(jobs)} owner now ${after.get(campaignConnection.id)}`);
    const outcomes = (await db.query(`select output->>'outcome' as o, count(*)::int n, min(started_on) a, max(completed_on) b, avg(extract(epoch from (started_on - start_after)))::float lag from pgboss.job where name = 'campaign.step' group by 1`)).rows;
    console.log(`scale-out: step outcomes ${JSON.stringify(outcomes)}; killed at ${new Date(killedAt).toISOString()}`);
    const sends = (await db.query(`select min(sent_at) a, max(sent_at) b from campaign_recipients where campaign_id = $1`, [campaign.body.id])).rows;
    console.log(`scale-out: sends ${JSON.stringify(sends)}`);
    for (const s of survivors) console.log(`${s.name} log:\n${s.log.slice(-15).join('\n')}`);
  }
  socket.close();
  await Promise.all(survivors.map((s) => s.stop()));
}

async function withPostgresDatabase(baseUrl, fn) {
  const { default: pg } = await import('pg');
  const name = `wadesk_scale_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  try {
    await fn(url.toString());
  } finally {
    killChildren();
    for (const clean of cleanups.splice(0)) await Promise.resolve().then(clean).catch(() => undefined);
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
  if (!process.env.DATABASE_URL) {
    console.log('scale-out: skipped — several processes need PostgreSQL (set DATABASE_URL); the embedded database runs one process');
    results.skipped = true;
    finish(0);
    return;
  }
  const budget = setTimeout(() => {
    check('finished within the time budget', false, `${TOTAL_BUDGET_MS / 1000} s`);
    finish(1);
  }, TOTAL_BUDGET_MS);
  budget.unref();
  const started = Date.now();
  try {
    await withPostgresDatabase(process.env.DATABASE_URL, run);
  } catch (err) {
    check('run', false, err instanceof Error ? err.message : String(err));
  }
  results.figures.durationMs = Date.now() - started;
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
  console.log(`scale-out: ${results.passed} passed, ${results.failed} failed`);
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
