// What the fault scripts (crash-inbound.mjs, scale-out.mjs) share: a pause, a free loopback port, and the command
// that starts a server process (the build, or its sources through tsx with FAULTS_SERVER=src).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export async function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Development mode (FAULTS_SERVER=src): the server's sources through tsx, with @wadesk/contracts from its sources too.
 * The hooks' folder is removed by the cleanup pushed onto `cleanups`.
 */
function sourceHooks(cleanups) {
  const dir = mkdtempSync(path.join(tmpdir(), 'wadesk-faults-hooks-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const contracts = pathToFileURL(path.join(root, 'packages/contracts/src/index.ts')).href;
  const hooks = path.join(dir, 'hooks.mjs');
  writeFileSync(
    hooks,
    `export async function resolve(specifier, context, next) {\n` +
      `  return next(specifier === '@wadesk/contracts' ? ${JSON.stringify(contracts)} : specifier, context);\n}\n`,
  );
  const register = path.join(dir, 'register.mjs');
  writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
  return register;
}

let hooks = null;

/** Node's arguments for a server process: the build (FAULTS_SERVER_ENTRY, by default apps/server/dist/main.js) or its sources. */
export function serverCommand(cleanups) {
  if (process.env.FAULTS_SERVER === 'src') {
    hooks ??= sourceHooks(cleanups);
    return ['--import', 'tsx', '--import', pathToFileURL(hooks).href, path.join(root, 'apps/server/src/main.ts')];
  }
  return [path.join(root, process.env.FAULTS_SERVER_ENTRY ?? 'apps/server/dist/main.js')];
}
