import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import base from './playwright.config';

/**
 * The user guide's screenshots (e2e/guide/guide-shots.spec.ts), on the e2e server (playwright.config.ts: a fresh
 * embedded database, the simulator, the admin). GUIDE_LANG (en, pt) is the language of the browser and of the seeded
 * data; scripts/docs-shots.mjs runs it once per language.
 */
const lang = process.env.GUIDE_LANG === 'pt' ? 'pt' : 'en';

export default defineConfig({
  ...base,
  testDir: './guide',
  outputDir: path.join(os.tmpdir(), `wadesk-guide-results-${lang}`),
  retries: 0,
  use: {
    ...base.use,
    trace: 'off',
    screenshot: 'off',
    locale: lang === 'pt' ? 'pt-BR' : 'en-US',
  },
  projects: [{ name: lang, use: { ...devices['Desktop Chrome'], channel: undefined, viewport: { width: 1280, height: 800 } } }],
});
