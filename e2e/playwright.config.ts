import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 8181);
// A fresh embedded database for every run.
// Data folders of earlier runs (older than two hours) are removed; this run's goes when a later run starts.
for (const name of readdirSync(os.tmpdir())) {
  const dir = path.join(os.tmpdir(), name);
  if (name.startsWith('wadesk-e2e-') && Date.now() - statSync(dir).mtimeMs > 2 * 3600 * 1000) {
    rmSync(dir, { recursive: true, force: true });
  }
}
process.env.E2E_DATA_DIR ??= path.join(os.tmpdir(), `wadesk-e2e-${process.pid}-${Date.now()}`);
const dataDir = process.env.E2E_DATA_DIR;
const root = path.resolve(import.meta.dirname, '..');

export const ADMIN = { email: 'admin@e2e.local', password: 'admin-e2e-pass' };

/** An Etc zone of a whole-hour offset from UTC (Etc/GMT-N is UTC+N: POSIX signs); offsets run from -12 to +14. */
function etcZone(offset: number): string {
  return offset === 0 ? 'Etc/UTC' : offset > 0 ? `Etc/GMT-${offset}` : `Etc/GMT+${-offset}`;
}

/** The UTC offset, in hours, at which the local time is about 13:00 now. */
function middayOffset(now = new Date()): number {
  const offset = (13 - now.getUTCHours() + 24) % 24;
  return offset > 14 ? offset - 24 : offset;
}

/**
 * The browser's time zone for this run (E2E_TZ), chosen so that its local time is about 13:00 now: the dashboard charts
 * today's tickets in the 08:00–19:00 slots of the viewer's time zone, and the tests must pass at any hour (CI runs at
 * night). The server runs 12 hours away (E2E_SERVER_TZ, about 01:00 there), so a test that passes proves the viewer's
 * day is the one counted, not the server's (issue 32 §5). Chosen once, when the run starts, and handed to the workers
 * (they load this file again, maybe an hour later, and inherit the environment).
 */
if (!process.env.E2E_TZ) {
  const offset = middayOffset();
  process.env.E2E_TZ = etcZone(offset);
  process.env.E2E_SERVER_TZ ??= etcZone(offset - 12 >= -12 ? offset - 12 : offset + 12);
}
process.env.E2E_SERVER_TZ ??= process.env.E2E_TZ;

/**
 * Debian's chromium-headless-shell (the old headless mode, what Playwright itself runs headless) when installed, else
 * the full chromium: on this 2-core machine the shell ran attendant-daily.spec.ts in 108 s instead of 136 s. E2E_CHROMIUM
 * names another binary.
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
const chromiumPath = process.env.E2E_CHROMIUM ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');

export default defineConfig({
  testDir: './tests',
  outputDir: path.join(root, 'test-results'),
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  use: {
    baseURL: `http://localhost:${port}`,
    // A trace records every action's snapshots and a screencast: tickets.spec.ts took 72 s with it, 44 s without. In CI
    // the first try runs without one and its retry records it; a run on a desk keeps the trace of what failed.
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
    screenshot: 'only-on-failure',
    locale: 'en-US',
    timezoneId: process.env.E2E_TZ,
    launchOptions: {
      executablePath: chromiumPath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: {
    // E2E_SERVER_ENTRY: another build of the server (e.g. apps/server/dist-mine/main.js, built with --outDir).
    command: `node ${process.env.E2E_SERVER_ENTRY ?? 'apps/server/dist/main.js'}`,
    cwd: root,
    url: `http://localhost:${port}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'pipe',
    env: {
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      SIMULATOR: 'on',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'warn',
      SIGNUP_LIMIT_PER_HOUR: '1000',
      // Group actions start after a random 1–2 s here (5–15 s in production): still a delay, not a long wait.
      GROUP_ACTION_DELAY_MS: '1000-2000',
      GROUP_ACTION_PAUSE_MS: '0-300',
      // Issue 16: the providers' APIs answered by a fake on the next port (outreach.spec.ts starts it); 1 s pauses.
      VONAGE_REST_URL: `http://127.0.0.1:${port + 1}`,
      VONAGE_API_URL: `http://127.0.0.1:${port + 1}`,
      INSTAGRAM_GRAPH_URL: `http://127.0.0.1:${port + 1}/v21.0`,
      OUTREACH_PAUSE_MS: '1000',
      INSTAGRAM_PAUSE_MS: '1000-1000',
      TZ: process.env.E2E_SERVER_TZ,
      // Cloud API connections (issue 18) call the fake Graph server cloud-api.spec.ts starts on the next port.
      WHATSAPP_GRAPH_URL: `http://127.0.0.1:${port + 1}/v21.0`,
      // Outgoing webhooks (issue 37 §3): webhooks.spec.ts's receiver listens on loopback, which the URL rule refuses
      // otherwise (the refusal itself is an API test).
      MEDIA_FETCH_PRIVATE: 'allow',
      ...(process.env.E2E_WEB_DIST ? { WEB_DIST: process.env.E2E_WEB_DIST } : {}),
    },
  },
});
