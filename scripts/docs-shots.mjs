#!/usr/bin/env node
// The user guide's screenshots (docs/guide/images/<lang>/*.png), taken from the real app by Playwright in Debian's
// Chromium (/usr/bin/chromium, as the e2e tests): e2e/guide/guide-shots.spec.ts, once per language, each run on a
// fresh embedded database with its data seeded through the API and the simulator.
//
//   npm run docs:shots            builds the app (npm run build), then English and Portuguese
//   npm run docs:shots -- pt      one language
//   E2E_SERVER_ENTRY=apps/server/dist-x/main.js E2E_WEB_DIST=/tmp/x-web npm run docs:shots
//                                 uses that build instead of building (E2E_PORT: another port than 8181)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const LANGUAGES = ['en', 'pt'];
const asked = process.argv.slice(2);
const unknown = asked.filter((lang) => !LANGUAGES.includes(lang));
if (unknown.length > 0) {
  console.error(`Unknown language(s) ${unknown.join(', ')}: the guide is written in ${LANGUAGES.join(', ')}`);
  process.exit(2);
}
const languages = asked.length > 0 ? asked : LANGUAGES;

function run(cmd, args, env = {}) {
  console.log(`\n▶ ${cmd} ${args.join(' ')}`);
  // A fresh database for each run: playwright.config.ts makes one when E2E_DATA_DIR is unset.
  const { E2E_DATA_DIR: _kept, ...inherited } = process.env;
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...inherited, ...env } });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (!existsSync('/usr/bin/chromium')) {
  console.error('Chromium is missing: apt-get install chromium (npm test installs it too).');
  process.exit(1);
}
if (!process.env.E2E_SERVER_ENTRY || !process.env.E2E_WEB_DIST) run('npm', ['run', 'build']);

for (const lang of languages) {
  const dir = path.join(root, 'docs/guide/images', lang);
  // Pictures of screens the spec no longer takes go too.
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  run('npx', ['playwright', 'test', '-c', 'e2e/guide.config.ts'], { GUIDE_LANG: lang, CI: 'true' });
}

const images = path.join(root, 'docs/guide/images');
let files = 0;
let bytes = 0;
for (const lang of readdirSync(images)) {
  for (const file of readdirSync(path.join(images, lang))) {
    files += 1;
    bytes += statSync(path.join(images, lang, file)).size;
  }
}
console.log(`\n${files} screenshots in docs/guide/images, ${(bytes / 1024 / 1024).toFixed(1)} MB`);
