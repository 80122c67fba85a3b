#!/usr/bin/env node
// Runs every test of the project and ends with one line: "N passed, N failed, N skipped".
// Steps: Chromium (Debian's, installed with apt-get when missing), build, lint, type-check,
// vitest (unit + integration), the server's vitest again on Node 24, the image's install steps and the proxy's body
// limit, fault tests (kill -9 mid-burst, ...), the quick benchmark, Playwright (end-to-end in Chromium).
// `node scripts/test.mjs --only=node24,image` runs only the named steps (names: STEPS below); without it, all.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, '.test-output');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

const STEPS = ['chromium', 'build', 'lint', 'typecheck', 'vitest', 'node24', 'image', 'faults', 'bench', 'e2e'];
const onlyArg = process.argv.find((arg) => arg.startsWith('--only='));
const only = onlyArg ? onlyArg.slice('--only='.length).split(',').filter(Boolean) : STEPS;
const unknown = only.filter((name) => !STEPS.includes(name));
if (unknown.length > 0) {
  console.error(`Unknown step(s) ${unknown.join(', ')}: the steps are ${STEPS.join(', ')}`);
  process.exit(2);
}
const wanted = (name) => only.includes(name);

const totals = { passed: 0, failed: 0, skipped: 0 };
const summary = [];
/** The failing tests by name, printed just above the last line so that the tail of a CI log says which failed. */
const failures = [];

/** Each command's wall time, printed with the summary: CI must end within 90 minutes, so a slow step shows. */
const timings = [];

function run(cmd, args, options = {}) {
  console.log(`\n▶ ${cmd} ${args.join(' ')}`);
  const started = Date.now();
  const result = spawnSync(cmd, args, { cwd: options.cwd ?? root, stdio: 'inherit', env: { ...process.env, ...options.env } });
  timings.push(`${((Date.now() - started) / 60_000).toFixed(1).padStart(5)} min  ${cmd} ${args.slice(0, 3).join(' ')}`);
  return result.status === 0;
}

/** A step that is one test: it passes or fails as a whole. */
function step(name, ok) {
  if (ok) totals.passed += 1;
  else totals.failed += 1;
  summary.push(`${ok ? 'ok  ' : 'FAIL'} ${name}`);
  return ok;
}

/**
 * Debian's chromium (the recording and guide tests launch it) and chromium-headless-shell (the end-to-end tests' browser:
 * lighter on this 2-core machine), installed with apt-get when missing. Without the shell (a release that lacks the
 * package) the end-to-end tests run in chromium (e2e/playwright.config.ts), slower.
 */
function ensureChromium() {
  const chromium = '/usr/bin/chromium';
  const shell = '/usr/bin/chromium-headless-shell';
  if (existsSync(chromium) && existsSync(shell)) return true;
  console.log('Installing Debian chromium and chromium-headless-shell with apt-get...');
  const sudo = process.getuid && process.getuid() === 0 ? [] : ['sudo'];
  const env = { DEBIAN_FRONTEND: 'noninteractive' };
  const apt = (args) => (sudo.length ? run('sudo', ['apt-get', ...args], { env }) : run('apt-get', args, { env }));
  if (!apt(['update'])) return false;
  if (!existsSync(chromium) && !apt(['install', '-y', '--no-install-recommends', 'chromium', 'fonts-liberation'])) return false;
  if (!existsSync(shell) && !apt(['install', '-y', '--no-install-recommends', 'chromium-headless-shell'])) {
    console.log('chromium-headless-shell could not be installed: the end-to-end tests run in chromium');
  }
  return existsSync(chromium);
}

function firstLine(text) {
  // eslint-disable-next-line no-control-regex
  const plain = String(text ?? '').replace(/\u001b\[[0-9;]*m/g, '');
  return plain.split('\n').find((line) => line.trim() !== '')?.trim().slice(0, 300) ?? '';
}

function collectPlaywrightFailures(suites, titles) {
  for (const suite of suites) {
    const path_ = suite.title ? [...titles, suite.title] : titles;
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status !== 'unexpected') continue;
        const error = test.results?.at(-1)?.error?.message;
        failures.push(`playwright ${[...path_, spec.title].join(' › ')}: ${firstLine(error)}`);
      }
    }
    collectPlaywrightFailures(suite.suites ?? [], path_);
  }
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/** Adds a vitest JSON report to the totals; `label` names the run in the summary and in the failures' lines. */
function countVitest(label, ok, json) {
  const vitest = readJson(json);
  if (!vitest) return step(`${label} run`, false);
  totals.passed += vitest.numPassedTests;
  totals.failed += vitest.numFailedTests;
  totals.skipped += (vitest.numPendingTests ?? 0) + (vitest.numTodoTests ?? 0);
  summary.push(`${label}: ${vitest.numPassedTests} passed, ${vitest.numFailedTests} failed`);
  for (const file of vitest.testResults ?? []) {
    const where = path.relative(root, file.name);
    for (const test of file.assertionResults ?? []) {
      if (test.status === 'failed') failures.push(`${label} ${where} › ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
    }
    if (file.status === 'failed' && !(file.assertionResults ?? []).some((test) => test.status === 'failed')) {
      failures.push(`${label} ${where}: ${firstLine(file.message)}`);
    }
  }
  if (!ok && vitest.numFailedTests === 0) step(`${label} run (suite errors)`, false);
  return ok;
}

/** The Node major of .nvmrc (the runtime the project ships: the Docker image's, CI's second run). */
function shippedNodeMajor() {
  return readFileSync(path.join(root, '.nvmrc'), 'utf8').trim().replace(/^v/, '').split('.')[0];
}

/** A file as a fresh clone has it (the commit under test); the working tree's copy outside a git checkout. */
function committedFile(file) {
  const shown = spawnSync('git', ['show', `HEAD:${file}`], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return shown.status === 0 ? shown.stdout : readFileSync(path.join(root, file), 'utf8');
}

/**
 * The Dockerfile's install steps as the image runs them, without Docker: its `npm ci` commands, with the npm that
 * package.json's packageManager names (the image installs that one) on the Node of .nvmrc (the image's), in an empty
 * directory holding only the manifests the Dockerfile copies, as committed. `npm ci` refuses a lockfile out of step
 * with a package.json, so a drift fails here instead of in `docker build`. Dry (`--dry-run --ignore-scripts`): the
 * lockfile check without the download.
 */
function imageInstallSteps() {
  const dockerfile = readFileSync(path.join(root, 'Dockerfile'), 'utf8').replace(/\\\n\s*/g, ' ').split('\n');
  const manifests = dockerfile
    .filter((line) => /^COPY\s/.test(line) && !line.includes('--from'))
    .flatMap((line) => line.trim().split(/\s+/).slice(1, -1))
    .filter((file) => /(^|\/)package(-lock)?\.json$/.test(file));
  const installs = dockerfile
    .filter((line) => /^RUN\s/.test(line))
    .flatMap((line) => line.replace(/^RUN\s+/, '').split('&&').map((command) => command.trim()))
    .filter((command) => command.startsWith('npm ci'));
  if (!manifests.includes('package-lock.json') || installs.length === 0) {
    console.log('The Dockerfile copies no package-lock.json or runs no `npm ci`: nothing to check');
    return false;
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'wadesk-image-install-'));
  try {
    for (const file of manifests) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), committedFile(file));
    }
    const npm = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).packageManager;
    if (!/^npm@\d/.test(npm ?? '')) {
      console.log(`package.json's packageManager is ${npm}, not npm@<version>`);
      return false;
    }
    const node = `node@${shippedNodeMajor()}`;
    return installs.every((command) => {
      const args = ['-y', '-p', node, '-p', npm, ...command.split(/\s+/), '--dry-run', '--ignore-scripts'];
      console.log(`\n▶ npx ${args.join(' ')}   (in ${dir})`);
      // A dry run lists every package it would add: only its last line, and npm's errors, go to the log.
      const result = spawnSync('npx', args, { cwd: dir, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
      const added = (result.stdout ?? '').trim().split('\n').at(-1);
      if (added) console.log(added);
      if (result.stderr) process.stderr.write(result.stderr);
      return result.status === 0;
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * deploy/nginx.conf's client_max_body_size lets through the app's largest upload (UPLOAD_LIMITS.requestBytes, read
 * from the server's source with tsx) and at most 8 MB more (its form fields and part headers): the app, not nginx,
 * refuses a request too large, in its own words.
 */
function proxyBodyLimit() {
  const conf = readFileSync(path.join(root, 'deploy/nginx.conf'), 'utf8');
  const match = /^\s*client_max_body_size\s+(\d+)m;/m.exec(conf);
  const read = spawnSync(
    'npx',
    ['tsx', '-e', "import('./apps/server/src/storage/upload-spool.ts').then((m) => console.log(m.UPLOAD_LIMITS.requestBytes))"],
    { cwd: root, encoding: 'utf8' },
  );
  const appBytes = Number(read.stdout.trim());
  if (!match || read.status !== 0 || !(appBytes > 0)) {
    console.log(`client_max_body_size <n>m in deploy/nginx.conf: ${match ? 'found' : 'missing'}; UPLOAD_LIMITS: ${read.stderr || read.stdout}`);
    return false;
  }
  const proxyBytes = Number(match[1]) * 1024 * 1024;
  console.log(`nginx client_max_body_size ${match[1]}m; the app's UPLOAD_LIMITS.requestBytes ${appBytes / (1024 * 1024)} MB`);
  return proxyBytes >= appBytes && proxyBytes <= appBytes + 8 * 1024 * 1024;
}

const chromium = wanted('chromium') || wanted('e2e') ? step('chromium available', ensureChromium()) : false;
// Without the build step (--only), the steps that need it use the build already there.
const built = wanted('build') ? step('build', run('npm', ['run', 'build'])) : existsSync(path.join(root, 'apps/server/dist/main.js'));
if (wanted('lint')) step('lint (eslint)', run('npx', ['eslint', '.', '--max-warnings=1000']));
if (wanted('typecheck')) step('type-check (tsc)', run('npm', ['run', 'typecheck']));

// Unit and integration tests (PostgreSQL when DATABASE_URL is set, embedded PGlite otherwise).
if (wanted('vitest')) {
  const vitestJson = path.join(out, 'vitest.json');
  const vitestOk = run('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`]);
  countVitest('vitest', vitestOk, vitestJson);
}

// The server's unit and integration tests (and the contracts they share) a second time, on the Node of .nvmrc, the
// runtime the image ships (the npm registry's `node` package gives its binary); the run above is on this machine's
// Node, 20 here, which engines still allow. The same database choice as above.
if (wanted('node24')) {
  const major = shippedNodeMajor();
  const label = `vitest on Node ${major}`;
  const json = path.join(out, `vitest-node${major}.json`);
  const ok = run('npx', [
    '-y', '-p', `node@${major}`, 'node', 'node_modules/vitest/vitest.mjs', 'run', 'apps/server/', 'packages/contracts/',
    '--reporter=dot', '--reporter=json', `--outputFile.json=${json}`,
  ]);
  countVitest(label, ok, json);
}

if (wanted('image')) {
  step(`image install steps (npm ci as the Dockerfile runs it, Node ${shippedNodeMajor()})`, imageInstallSteps());
  step('proxy body limit = the app\'s upload limit', proxyBodyLimit());
}

// Fault tests: the built server killed with SIGKILL mid-burst loses no acknowledged inbound message; three
// processes on one PostgreSQL, one killed mid-traffic (scale-out, issue 17: skipped without DATABASE_URL); PostgreSQL cut
// for 10 s, five times, under a bulk send, a group action and inbound traffic (db-outage, issue 31: the same); a bulk send
// and a group action resume within 10 s of a restart after kill -9 (crash-resume, issue 31: embedded and PostgreSQL);
// three processes assign 200 concurrent tickets automatically, none twice, nobody over their limit (auto-assign, issue
// 36 §4: skipped without DATABASE_URL); every message a webhook listens to is told after kill -9 right after its
// change committed (webhook-crash, issue 37 §3: embedded and PostgreSQL).
if (!wanted('faults')) {
  // not asked for (--only)
} else if (built) {
  for (const [name, script] of [
    ['faults', 'crash-inbound.mjs'],
    ['crash-resume', 'crash-resume.mjs'],
    ['scale-out', 'scale-out.mjs'],
    ['db-outage', 'db-outage.mjs'],
    ['auto-assign', 'auto-assign.mjs'],
    ['webhook-crash', 'webhook-crash.mjs'],
  ]) {
    const json = path.join(out, `${name}.json`);
    const ok = run('node', [`scripts/faults/${script}`, `--json=${json}`]);
    const result = readJson(json);
    if (result) {
      totals.passed += result.passed;
      totals.failed += result.failed;
      summary.push(`${name}: ${result.skipped ? 'skipped (no DATABASE_URL)' : `${result.passed} passed, ${result.failed} failed`}`);
      if (!ok && result.failed === 0) step(`${name} run (errors)`, false);
    } else {
      step(`${name} run`, false);
    }
  }
} else {
  step('faults (not run: build missing)', false);
}

// The quick benchmark (issue 35 item 4): every API request with a target, at a tenth of the data on PostgreSQL, 5 s
// each at 16 connections, its targets loosened (bench/run.ts QUICK_SLACK); each target is one test.
if (!wanted('bench')) {
  // not asked for (--only)
} else if (!process.env.DATABASE_URL) {
  summary.push('bench --quick: skipped (no DATABASE_URL)');
} else if (built) {
  const json = path.join(out, 'bench.json');
  const ok = run('npm', ['run', 'bench', '--', '--quick', `--json=${json}`]);
  const result = readJson(json);
  if (result) {
    totals.passed += result.passed;
    totals.failed += result.failed;
    summary.push(`bench --quick: ${result.passed} targets met, ${result.failed} missed`);
    for (const line of result.missed ?? []) failures.push(`bench: ${line}`);
    if (!ok && result.failed === 0) step('bench run (errors)', false);
  } else {
    step('bench run', false);
  }
} else {
  step('bench (not run: build missing)', false);
}

// End-to-end tests in Chromium against the built app.
if (!wanted('e2e')) {
  // not asked for (--only)
} else if (chromium && built) {
  const pwJson = path.join(out, 'playwright.json');
  const pwOk = run('npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts', '--reporter=list,json'], {
    env: { PLAYWRIGHT_JSON_OUTPUT_NAME: pwJson },
  });
  const pw = readJson(pwJson);
  if (pw?.stats) {
    const { expected = 0, unexpected = 0, flaky = 0, skipped = 0 } = pw.stats;
    totals.passed += expected + flaky;
    totals.failed += unexpected;
    totals.skipped += skipped;
    summary.push(`playwright: ${expected + flaky} passed, ${unexpected} failed, ${skipped} skipped`);
    collectPlaywrightFailures(pw.suites ?? [], []);
    if (!pwOk && unexpected === 0) step('playwright run (suite errors)', false);
  } else {
    step('playwright run', false);
  }
} else {
  step('playwright (not run: chromium or build missing)', false);
}

console.log('\nTime by command:\n' + timings.join('\n'));
console.log('\n' + summary.join('\n'));
if (failures.length > 0) console.log('\nFailed:\n' + failures.map((line) => `  ${line}`).join('\n'));
const line = `${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`;
// .ci/run repeats this file after npm's own lines: the failures' names, then the totals as the very last line.
const failedLines = failures.length > 0 ? ['Failed:', ...failures.map((failure) => `  ${failure}`)] : [];
writeFileSync(path.join(out, 'summary.txt'), [...failedLines, line].join('\n') + '\n');
console.log(line);
process.exit(totals.failed > 0 ? 1 : 0);
