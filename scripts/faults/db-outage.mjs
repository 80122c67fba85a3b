#!/usr/bin/env node
// Fault test (issue 31, item 1): the process survives a database outage in the middle of a bulk send, a group action
// and inbound traffic, and everything finishes once the database is back.
//
// Starts the real server on PostgreSQL reached through a loopback TCP proxy (this script's), pairs a simulator
// connection, and then, ROUNDS times: starts a campaign (bulk send) and a group action (a private message to every
// participant of a group), sends inbound messages at about 10 a second, cuts every database connection for 10 s
// (what a PostgreSQL restart or failover looks like) and restores it. Checks, each round:
//   - the process never exits;
//   - /api/health answers 200 within 5 s of the database's return;
//   - the campaign finishes with every recipient handed to the network exactly once and recorded `sent`;
//   - the group action finishes with every participant messaged exactly once;
//   - every acknowledged inbound message is stored (resending what got no answer stores nothing twice).
// Its own throwaway database (created and dropped); loopback only; bounded in time. Skipped, with a line saying
// so, without DATABASE_URL (the embedded database cannot go away).
//
//   DATABASE_URL=postgres://... node scripts/faults/db-outage.mjs [--json=result.json] [--rounds=5] [--cut=10000]
//   FAULTS_SERVER=src runs apps/server/src/main.ts through tsx instead of the build.
//
// Prints one line per check and "db-outage: N passed, N failed"; exits non-zero on failure.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { api, FaultRun, freePort, root, ServerProcess, signIn, sleep, TcpProxy, tryApi, withThrowawayDatabase } from './lib.mjs';

const require = createRequire(path.join(root, 'apps/server/package.json'));
const faults = new FaultRun('db-outage');
const ROUNDS = Math.max(1, Math.min(10, Number(faults.args.rounds ?? 5)));
const CUT_MS = Math.max(1000, Math.min(30_000, Number(faults.args.cut ?? 10_000)));
const HEALTHY_WITHIN_MS = 5000;
const RECIPIENTS = 12;
const PARTICIPANTS = 6;
const INBOUND_PER_SECOND = 10;
const SETTLE_MS = 90_000;
const TOTAL_BUDGET_MS = ROUNDS * (CUT_MS + SETTLE_MS) + 60_000;
const ADMIN = { email: 'outage@test.local', password: 'outage-pass-1' };
const { children, cleanups, results } = faults;
results.figures.rounds = [];
const check = (label, ok, detail) => faults.check(label, ok, detail);

const acknowledged = (status) => status === 200 || status === 201;

const login = (server) => signIn(server, ADMIN);

async function run(databaseUrl, pgClient) {
  const target = new URL(databaseUrl);
  const proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
  const proxyPort = await proxy.start();
  cleanups.push(() => void proxy.cut());
  const proxied = new URL(databaseUrl);
  proxied.host = `127.0.0.1:${proxyPort}`;

  const unhandled = [];
  const dataDir = mkdtempSync(path.join(tmpdir(), 'wadesk-db-outage-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const port = await freePort();
  const server = new ServerProcess(
    'server',
    {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: proxied.toString(),
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      SIMULATOR: 'on',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      GROUP_ACTION_DELAY_MS: '0-500',
      GROUP_ACTION_PAUSE_MS: '0-200',
    },
    {
      children,
      cleanups,
      logFilter: (line) => {
        if (line.includes('unhandled promise rejection')) unhandled.push(line.slice(0, 2000));
        return !line.includes('"level":30') && !line.includes('"msg":"database unavailable"');
      },
    },
  );
  server.start();
  await server.waitReady();
  let token = await login(server);
  const created = await api(server, token, 'POST', '/api/whatsapp', { name: 'Outage test', channel: 'simulator' });
  if (created.status !== 201) throw new Error(`creating the connection: ${created.status} ${JSON.stringify(created.body)}`);
  const whatsappId = created.body.id;
  const scanned = await api(server, token, 'POST', `/api/simulator/${whatsappId}/scan`);
  if (scanned.status !== 200 || scanned.body.status !== 'CONNECTED') throw new Error(`pairing: ${scanned.status} ${JSON.stringify(scanned.body)}`);

  let exitedAt = null;
  let stopping = false;
  server.child.once('exit', (code, signal) => {
    if (stopping) return;
    exitedAt = Date.now();
    console.log(`db-outage: the server exited (${code ?? signal}); its last log lines:\n${server.log.slice(-25).join('\n')}`);
  });

  for (let round = 1; round <= ROUNDS; round += 1) {
    const tag = `round ${round}`;
    const figures = { round };
    results.figures.rounds.push(figures);
    if (exitedAt) {
      check(`${tag}: the process is alive`, false, 'it exited in an earlier round');
      continue;
    }
    const runId = randomBytes(3).toString('hex');
    // A bulk send whose pauses (0–1 s before and after each send) spread it across the outage.
    const recipients = Array.from({ length: RECIPIENTS }, (_, i) => `5511977${String(round * 100 + i).padStart(6, '0')}`);
    const campaignBody = `outage bulk ${runId}`;
    const campaign = await api(server, token, 'POST', '/api/campaigns', {
      whatsappId,
      kind: 'text',
      numbers: recipients.join('\n'),
      message: campaignBody,
      minInterval: 0,
      maxInterval: 1,
    });
    if (campaign.status !== 201) throw new Error(`creating the campaign: ${campaign.status} ${JSON.stringify(campaign.body)}`);
    // A group action: a private message to every participant of a group of the simulated phone, 0–1 s apart.
    const participants = Array.from({ length: PARTICIPANTS }, (_, i) => `5511966${String(round * 100 + i).padStart(6, '0')}`);
    const group = await api(server, token, 'POST', `/api/simulator/${whatsappId}/groups`, { subject: `Outage group ${runId}`, participants });
    if (group.status !== 201) throw new Error(`creating the group: ${group.status} ${JSON.stringify(group.body)}`);
    const groupBody = `outage group ${runId}`;
    const action = await api(server, token, 'POST', '/api/groups/actions', {
      whatsappId,
      action: 'privateMessage',
      message: groupBody,
      minInterval: 0,
      maxInterval: 1,
    });
    if (action.status !== 201 && action.status !== 200) throw new Error(`starting the group action: ${action.status} ${JSON.stringify(action.body)}`);
    const actionId = action.body.groupAction?.id;

    // Inbound at ~10 a second for the whole round, each with its own id; what got no 2xx is sent again later.
    const answers = new Map();
    let inboundOn = true;
    let sent = 0;
    const inbound = (async () => {
      while (inboundOn) {
        const id = `O${round}-${sent}-${runId}`;
        sent += 1;
        const msg = { id, from: `5511988${String(sent % 7).padStart(6, '0')}`, name: `Outage contact ${sent % 7}`, body: `outage-in ${id}` };
        void tryApi(server, token, 'POST', `/api/simulator/${whatsappId}/inbound`, msg).then((res) => answers.set(id, { msg, status: res.status }));
        await sleep(1000 / INBOUND_PER_SECOND);
      }
    })();

    await sleep(1500 + Math.random() * 1500);
    await proxy.cut();
    const cutAt = Date.now();
    await sleep(CUT_MS);
    await proxy.restore();
    const restoredAt = Date.now();
    let healthyIn = Infinity;
    while (Date.now() - restoredAt < 30_000 && !exitedAt) {
      const res = await tryApi(server, null, 'GET', '/api/health');
      if (res.status === 200) {
        healthyIn = Date.now() - restoredAt;
        break;
      }
      await sleep(100);
    }
    figures.healthyInMs = healthyIn === Infinity ? null : healthyIn;
    check(`${tag}: the process lived through a ${CUT_MS / 1000} s outage`, !exitedAt, exitedAt ? `exited ${exitedAt - cutAt} ms after the cut` : 'alive');
    if (exitedAt) {
      inboundOn = false;
      await inbound;
      continue;
    }
    check(`${tag}: /api/health is 200 within ${HEALTHY_WITHIN_MS / 1000} s of the database's return`, healthyIn <= HEALTHY_WITHIN_MS, `${figures.healthyInMs ?? 'never'} ms`);
    await sleep(2000);
    inboundOn = false;
    await inbound;
    await sleep(500);
    token = await login(server);

    // Resend the inbound messages that got no 2xx answer (during the outage: 503) until each is acknowledged.
    const unanswered = [...answers.values()].filter((a) => !acknowledged(a.status));
    let resendFailed = 0;
    for (const a of unanswered) {
      let status = 0;
      for (let attempt = 0; attempt < 10 && !acknowledged(status); attempt += 1) {
        status = (await tryApi(server, token, 'POST', `/api/simulator/${whatsappId}/inbound`, a.msg)).status;
        if (!acknowledged(status)) await sleep(300);
      }
      a.resent = status;
      if (!acknowledged(status)) resendFailed += 1;
    }

    // Settle: the campaign and the group action done.
    const settleUntil = Date.now() + SETTLE_MS;
    let campaignNow = null;
    let actionNow = null;
    while (Date.now() < settleUntil && !exitedAt) {
      campaignNow = (await tryApi(server, token, 'GET', `/api/campaigns/${campaign.body.id}`)).body;
      actionNow = (await tryApi(server, token, 'GET', `/api/groups/actions/${actionId}`)).body;
      if (campaignNow?.status === 'done' && actionNow?.status === 'done') break;
      await sleep(500);
    }
    const outbox = (await tryApi(server, token, 'GET', `/api/simulator/${whatsappId}/outbox`)).body ?? [];
    const handed = (body) => {
      const counts = new Map();
      for (const e of outbox) if (e.body === body) counts.set(e.to, (counts.get(e.to) ?? 0) + 1);
      return counts;
    };
    const toNumber = (to) => String(to).replace(/\D/g, '');
    const campaignCounts = new Map([...handed(campaignBody)].map(([to, n]) => [toNumber(to), n]));
    const rows = (await pgClient.query(`select number, status from campaign_recipients where campaign_id = $1`, [campaign.body.id])).rows;
    const statusCount = (status) => rows.filter((r) => r.status === status).length;
    figures.campaign = { status: campaignNow?.status, sent: statusCount('sent'), unknown: statusCount('unknown'), failed: statusCount('failed') };
    const onceEach = recipients.every((n) => campaignCounts.get(n) === 1);
    check(
      `${tag}: the bulk send finished with every recipient sent exactly once`,
      campaignNow?.status === 'done' && onceEach && figures.campaign.sent === RECIPIENTS,
      `status ${campaignNow?.status}; ${RECIPIENTS} recipients: handed to the network ${recipients.map((n) => campaignCounts.get(n) ?? 0).join('/')} times; ` +
        `recorded ${figures.campaign.sent} sent, ${figures.campaign.unknown} unknown, ${figures.campaign.failed} failed`,
    );
    const groupCounts = new Map([...handed(groupBody)].map(([to, n]) => [toNumber(to), n]));
    figures.groupAction = { status: actionNow?.status, handed: participants.map((n) => groupCounts.get(n) ?? 0) };
    check(
      `${tag}: the group action finished with every participant messaged exactly once`,
      actionNow?.status === 'done' && participants.every((n) => groupCounts.get(n) === 1),
      `status ${actionNow?.status}; ${PARTICIPANTS} participants messaged ${figures.groupAction.handed.join('/')} times`,
    );

    const ackedIds = [...answers].filter(([, a]) => acknowledged(a.status) || acknowledged(a.resent)).map(([id]) => id);
    const stored = (
      await pgClient.query(`select body, count(*)::int as n from messages where not from_me and body like $1 group by body`, [`outage-in O${round}-%`])
    ).rows;
    const storedCount = new Map(stored.map((r) => [r.body, r.n]));
    const lost = ackedIds.filter((id) => !storedCount.has(`outage-in ${id}`));
    const twice = stored.filter((r) => r.n > 1).length;
    figures.inbound = { sent: answers.size, acknowledgedFirstTime: [...answers.values()].filter((a) => acknowledged(a.status)).length, resent: unanswered.length, lost: lost.length, twice };
    check(
      `${tag}: no acknowledged inbound message lost, none stored twice`,
      lost.length === 0 && twice === 0 && resendFailed === 0,
      `${answers.size} sent, ${figures.inbound.acknowledgedFirstTime} acknowledged at once, ${unanswered.length} resent after the outage ` +
        `(${resendFailed} still refused), ${lost.length} lost, ${twice} stored twice`,
    );
  }
  check('the process is alive at the end', !exitedAt && server.child.exitCode === null);
  // A rejection nobody handled is logged and kept past (decision 0027), but it is still a bug: none may happen here.
  check('no unhandled promise rejection was logged', unhandled.length === 0, unhandled.length ? unhandled.slice(0, 3).join('\n') : '0');
  stopping = true;
  await server.stop();
}

faults.start(async () => {
  if (!process.env.DATABASE_URL) {
    faults.skip('no DATABASE_URL: the embedded database cannot go away');
    return;
  }
  await withThrowawayDatabase(process.env.DATABASE_URL, 'wadesk_outage', async (url) => {
    const { default: pg } = await import(require.resolve('pg'));
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await run(url, client);
    } finally {
      await client.end().catch(() => undefined);
    }
  });
}, TOTAL_BUDGET_MS);
