#!/usr/bin/env node
/**
 * `npm start`: builds only when the sources changed since the last build, then runs the server.
 *
 * The build (contracts, web, server: about 50 s) runs on the first start and whenever a fingerprint of its
 * inputs differs from the one stored beside the build in apps/server/dist/.build-stamp, or an output is
 * missing. The fingerprint is a SHA-256 of the input files' paths and contents (not their mtimes, so a fresh
 * clone or a checkout that changes nothing builds nothing). The server then runs as
 * `node apps/server/dist/main.js`, with SIGINT, SIGTERM and SIGHUP passed through once (lib/supervise.mjs: one Ctrl+C
 * is one signal for the server) and its exit code returned.
 *
 *   node scripts/start.mjs            build if needed, then start
 *   node scripts/start.mjs --build    build if needed, do not start
 *   FORCE_BUILD=1 npm start           build even if nothing changed
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { superviseServer } from './lib/supervise.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const STAMP = 'apps/server/dist/.build-stamp';
const SERVER_ENTRY = 'apps/server/dist/main.js';

/** What the build reads: folders walked recursively, and single files. Tests are not built. */
const INPUT_DIRS = ['packages/contracts/src', 'apps/server/src', 'apps/server/drizzle', 'apps/web/src', 'apps/web/public'];
const INPUT_FILES = [
  'package.json',
  'package-lock.json',
  'tsconfig.base.json',
  'packages/contracts/package.json',
  'packages/contracts/tsconfig.json',
  'packages/contracts/tsconfig.build.json',
  'apps/server/package.json',
  'apps/server/tsconfig.json',
  'apps/server/tsconfig.build.json',
  'apps/web/package.json',
  'apps/web/tsconfig.json',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
];
/** What the build writes; any of them missing means "build". */
const OUTPUTS = ['packages/contracts/dist/index.js', 'apps/web/dist/index.html', SERVER_ENTRY];

const isTest = (name) => /\.test\.[cm]?[jt]sx?$/.test(name);

function walk(dir, files) {
  let entries;
  try {
    entries = readdirSync(path.join(root, dir), { withFileTypes: true });
  } catch {
    return; // an optional folder (e.g. public/) that does not exist
  }
  for (const entry of entries) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && rel !== 'apps/server/src/test') walk(rel, files);
    } else if (entry.isFile() && !isTest(entry.name)) {
      files.push(rel);
    }
  }
}

/** SHA-256 over every input's path and content, in a stable order. */
function fingerprint() {
  const files = [];
  for (const dir of INPUT_DIRS) walk(dir, files);
  for (const file of INPUT_FILES) if (existsSync(path.join(root, file))) files.push(file);
  files.sort();
  const hash = createHash('sha256');
  hash.update(`node ${process.versions.node.split('.')[0]}\n`);
  for (const file of files) {
    const content = readFileSync(path.join(root, file));
    hash.update(`${file}\0${content.length}\0`);
    hash.update(content);
  }
  return hash.digest('hex');
}

function readStamp() {
  try {
    return readFileSync(path.join(root, STAMP), 'utf8').trim();
  } catch {
    return '';
  }
}

function run(command, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code, signal) => (code === 0 ? resolve() : reject(new Error(`${args.join(' ')} failed (${signal ?? code})`))));
  });
}

/** `npm run build`, with the npm that runs us when there is one (npm start sets npm_execpath). */
function npmRunBuild() {
  const npmCli = process.env.npm_execpath;
  if (npmCli && /\.[cm]?js$/.test(npmCli)) return run(process.execPath, [npmCli, 'run', 'build']);
  return run(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build']);
}

async function buildIfNeeded() {
  const started = Date.now();
  const wanted = fingerprint();
  const missing = OUTPUTS.filter((file) => !existsSync(path.join(root, file)));
  const forced = !!process.env.FORCE_BUILD && process.env.FORCE_BUILD !== '0';
  if (!forced && missing.length === 0 && readStamp() === wanted) {
    console.log(`start: build is up to date (checked in ${Date.now() - started} ms)`);
    return;
  }
  const why = forced ? 'FORCE_BUILD is set' : missing.length > 0 ? `${missing.join(', ')} missing` : 'sources changed since the last build';
  console.log(`start: building (${why})...`);
  rmSync(path.join(root, STAMP), { force: true }); // an interrupted build is never taken for a good one
  await npmRunBuild();
  writeFileSync(path.join(root, STAMP), `${wanted}\n`);
  console.log(`start: built in ${Math.round((Date.now() - started) / 1000)} s`);
}

const buildOnly = process.argv.includes('--build');
if (buildOnly) process.argv.splice(process.argv.indexOf('--build'), 1);
try {
  await buildIfNeeded();
} catch (err) {
  console.error(`start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
if (!buildOnly) superviseServer(path.join(root, SERVER_ENTRY), process.argv.slice(2));
