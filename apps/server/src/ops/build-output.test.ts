import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const read = (file: string) => readFileSync(`${root}${file}`, 'utf8');
/** The web app's own Vite (a dependency of apps/web only). */
interface ViteConfig {
  logLevel?: string;
  build?: { reportCompressedSize?: boolean };
  plugins?: unknown[];
}
interface Vite {
  loadConfigFromFile(env: { command: 'build' | 'serve'; mode: string }, file: string, root: string): Promise<{ config: ViteConfig } | null>;
}
const vite = async (): Promise<Vite> => import(pathToFileURL(createRequire(`${root}apps/web/package.json`).resolve('vite')).href) as Promise<Vite>;

// Issue 33 item 26: the build and the install print nothing a newcomer would take for a step they must do.
describe('build and install output', () => {
  it('the web build reports one summary line, not a line per file with its gzip size', async () => {
    const { loadConfigFromFile } = await vite();
    const loaded = await loadConfigFromFile({ command: 'build', mode: 'production' }, `${root}apps/web/vite.config.ts`, `${root}apps/web`);
    const config = loaded!.config;
    expect(config.logLevel).toBe('warn');
    expect(config.build?.reportCompressedSize).toBe(false);
    const names = (config.plugins ?? []).flat().map((p) => (p && typeof p === 'object' && 'name' in p ? p.name : ''));
    expect(names).toContain('wadesk-build-summary');
    const dev = await loadConfigFromFile({ command: 'serve', mode: 'development' }, `${root}apps/web/vite.config.ts`, `${root}apps/web`);
    expect(dev!.config.logLevel).toBe('info');
  });

  it('npm install asks for no review of install scripts: every package with one is approved or denied in allowScripts', () => {
    const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, { hasInstallScript?: boolean; name?: string }> };
    const allow = (JSON.parse(read('package.json')) as { allowScripts?: Record<string, boolean> }).allowScripts ?? {};
    const withScripts = Object.entries(lock.packages)
      .filter(([, entry]) => entry.hasInstallScript)
      .map(([where, entry]) => entry.name ?? where.slice(where.lastIndexOf('node_modules/') + 'node_modules/'.length));
    expect(withScripts.length).toBeGreaterThan(0);
    for (const name of new Set(withScripts)) expect(Object.keys(allow), name).toContain(name);
  });

  it('npm install ends without "run `npm fund`" or "run `npm audit fix`"', () => {
    const npmrc = read('.npmrc');
    expect(npmrc).toMatch(/^fund=false$/m);
    expect(npmrc).toMatch(/^audit=false$/m);
  });
});
