#!/usr/bin/env node
// Fault test (issue 31, item 2): a bulk send and a group action resume within 10 s of the restarted process being
// ready after a kill -9 of the only process.
//
// Starts the real server with the simulator's network answering each number check and text in 0.6–1 s
// (SIMULATOR_LATENCY_MS) and no pauses between sends, so a step is under way whenever the process is killed. Then,
// ROUNDS times: starts a campaign and a group action (a private message to every participant), waits until both have
// sent something, kills the server with SIGKILL, restarts it on the same data, and measures the time from its first
// 200 on /api/health to the next recipient and participant reached. Checks, each round: both resume within 10 s; both
// finish, every recipient and participant reached once at most (the one in flight at the kill is `unknown`, never sent
// again). Embedded PGlite always; also PostgreSQL (a throwaway database) when DATABASE_URL is set.
//
//   node scripts/faults/crash-resume.mjs [--json=result.json] [--rounds=2]
//   FAULTS_SERVER=src runs apps/server/src/main.ts through tsx instead of the build.
//
// Prints one line per check and "crash-resume: N passed, N failed"; exits non-zero on failure.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { api, FaultRun, freePort, ServerProcess, signIn, sleep, tryApi, withThrowawayDatabase } from './lib.mjs';

const run = new FaultRun('crash-resume');
const ROUNDS = Math.max(1, Math.min(5, Number(run.args.rounds ?? 2)));
const RESUME_WITHIN_MS = 10_000;
const RECIPIENTS = 10;
const PARTICIPANTS = 8;
const SETTLE_MS = 60_000;
const TOTAL_BUDGET_MS = 6 * 60_000;
const ADMIN = { email: 'resume@test.local', password: 'resume-pass-1' };
const { children, cleanups, results } = run;
const check = (label, ok, detail) => run.check(label, ok, detail);

const login = (server) => signIn(server, ADMIN);

const reachedOf = (c) => (c ? c.sent + c.failed + c.unknown : 0);
const doneOf = (a) => (a ? a.done + a.failed + a.unknown : 0);

async function runMode(mode, databaseUrl) {
  const dataDir = mkdtempSync(path.join(tmpdir(), `wadesk-crash-resume-${mode}-`));
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
      SIMULATOR_LATENCY_MS: '600-1000',
      GROUP_ACTION_DELAY_MS: '0-0',
      GROUP_ACTION_PAUSE_MS: '0-0',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      NODE_ID: undefined, // each start its own node id, as after a real restart
    },
    { children, cleanups },
  );
  const tag = `[${mode}]`;
  server.start();
  await server.waitReady();
  let token = await login(server);
  const created = await api(server, token, 'POST', '/api/whatsapp', { name: 'Resume test', channel: 'simulator' });
  if (created.status !== 201) throw new Error(`creating the connection: ${created.status} ${JSON.stringify(created.body)}`);
  const whatsappId = created.body.id;
  const scanned = await api(server, token, 'POST', `/api/simulator/${whatsappId}/scan`);
  if (scanned.status !== 200 || scanned.body.status !== 'CONNECTED') throw new Error(`pairing: ${scanned.status} ${JSON.stringify(scanned.body)}`);
  results.figures[mode] = [];

  for (let round = 1; round <= ROUNDS; round += 1) {
    const runId = randomBytes(3).toString('hex');
    const recipients = Array.from({ length: RECIPIENTS }, (_, i) => `5511955${String(round * 100 + i).padStart(6, '0')}`);
    const campaign = await api(server, token, 'POST', '/api/campaigns', {
      whatsappId,
      kind: 'text',
      numbers: recipients.join('\n'),
      message: `resume bulk ${runId}`,
      minInterval: 0,
      maxInterval: 0,
    });
    if (campaign.status !== 201) throw new Error(`creating the campaign: ${campaign.status} ${JSON.stringify(campaign.body)}`);
    // The group lives on the simulated phone, which a restart forgets: made anew each round.
    const participants = Array.from({ length: PARTICIPANTS }, (_, i) => `5511944${String(round * 100 + i).padStart(6, '0')}`);
    const group = await api(server, token, 'POST', `/api/simulator/${whatsappId}/groups`, { subject: `Resume group ${runId}`, participants });
    if (group.status !== 201) throw new Error(`creating the group: ${group.status} ${JSON.stringify(group.body)}`);
    const action = await api(server, token, 'POST', '/api/groups/actions', { whatsappId, action: 'privateMessage', message: `resume group ${runId}`, minInterval: 0, maxInterval: 0 });
    if (action.status !== 201 && action.status !== 200) throw new Error(`starting the group action: ${action.status} ${JSON.stringify(action.body)}`);
    const actionId = action.body.groupAction.id;

    // Both under way: something sent by each; then the kill, with a step of each in flight (the network's latency).
    const startedUntil = Date.now() + 30_000;
    let before = { campaign: 0, action: 0 };
    while (Date.now() < startedUntil) {
      const c = (await tryApi(server, token, 'GET', `/api/campaigns/${campaign.body.id}`)).body;
      const a = (await tryApi(server, token, 'GET', `/api/groups/actions/${actionId}`)).body;
      before = { campaign: reachedOf(c), action: doneOf(a) };
      if (before.campaign >= 2 && before.action >= 1) break;
      await sleep(100);
    }
    await sleep(300 + Math.random() * 400);
    await server.kill9();
    const killedAt = Date.now();
    server.start();
    const readyAt = await server.waitReady();
    token = await login(server);
    // The group's participants are the simulated phone's: the restarted phone needs the group again to message them.
    await tryApi(server, token, 'POST', `/api/simulator/${whatsappId}/groups`, { subject: `Resume group ${runId}`, participants });

    const first = { campaign: null, action: null };
    const base = {};
    {
      const c = (await tryApi(server, token, 'GET', `/api/campaigns/${campaign.body.id}`)).body;
      const a = (await tryApi(server, token, 'GET', `/api/groups/actions/${actionId}`)).body;
      base.campaign = reachedOf(c);
      base.action = doneOf(a);
    }
    const settleUntil = Date.now() + SETTLE_MS;
    let c = null;
    let a = null;
    while (Date.now() < settleUntil) {
      c = (await tryApi(server, token, 'GET', `/api/campaigns/${campaign.body.id}`)).body;
      a = (await tryApi(server, token, 'GET', `/api/groups/actions/${actionId}`)).body;
      // Resumed: a recipient (participant) reached past the one the kill left unknown.
      if (first.campaign === null && c && c.sent > 0 && reachedOf(c) > base.campaign && c.status !== 'paused') first.campaign = Date.now() - readyAt;
      if (first.action === null && a && doneOf(a) > base.action) first.action = Date.now() - readyAt;
      if (c?.status === 'done' && a?.status === 'done') break;
      await sleep(100);
    }
    const figures = {
      round,
      restartMs: readyAt - killedAt,
      campaignResumedMs: first.campaign,
      groupActionResumedMs: first.action,
      campaign: c && { status: c.status, sent: c.sent, unknown: c.unknown, failed: c.failed },
      groupAction: a && { status: a.status, done: a.done, unknown: a.unknown, failed: a.failed },
    };
    results.figures[mode].push(figures);
    check(
      `${tag} round ${round}: the bulk send resumed within ${RESUME_WITHIN_MS / 1000} s of the restarted process being ready`,
      first.campaign !== null && first.campaign <= RESUME_WITHIN_MS,
      `next recipient reached ${first.campaign ?? 'never'} ms after ready (restart took ${figures.restartMs} ms)`,
    );
    check(
      `${tag} round ${round}: the group action resumed within ${RESUME_WITHIN_MS / 1000} s of the restarted process being ready`,
      first.action !== null && first.action <= RESUME_WITHIN_MS,
      `next participant reached ${first.action ?? 'never'} ms after ready`,
    );
    check(
      `${tag} round ${round}: both finished, at most the one in flight at the kill unknown (never sent again)`,
      c?.status === 'done' && c.sent + c.unknown + c.failed === RECIPIENTS && c.unknown <= 1 && a?.status === 'done' && a.unknown <= 1,
      `bulk send ${JSON.stringify(figures.campaign)}; group action ${JSON.stringify(figures.groupAction)}`,
    );
  }
  await server.stop();
}

run.start(async () => {
  const modes = [['embedded', (fn) => fn(undefined)]];
  if (process.env.DATABASE_URL) modes.push(['postgres', (fn) => withThrowawayDatabase(process.env.DATABASE_URL, 'wadesk_resume', fn)]);
  for (const [mode, onDatabase] of modes) {
    try {
      await onDatabase((url) => runMode(mode, url));
    } catch (err) {
      check(`[${mode}] run`, false, err instanceof Error ? err.message : String(err));
      run.killChildren();
    }
  }
}, TOTAL_BUDGET_MS);
