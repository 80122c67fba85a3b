import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const SUPERVISE = fileURLToPath(new URL('../../../../scripts/lib/supervise.mjs', import.meta.url));

/** A stand-in for the server: reports each signal it gets, and exits 0 a moment after the first SIGINT (a graceful stop). */
const FAKE_SERVER = `
let count = 0;
process.on('SIGINT', () => {
  count += 1;
  process.stdout.write('SIGINT ' + count + '\\n');
  if (count === 1) setTimeout(() => process.exit(0), 4000);
  else process.exit(1); // "SIGINT again: exiting without waiting"
});
setInterval(() => undefined, 1000);
process.stdout.write('ready\\n');
`;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'wadesk-start-'));
  await writeFile(path.join(dir, 'server.mjs'), FAKE_SERVER);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs `npm start`'s supervisor on the fake server, as the foreground job of a terminal (its own process group). */
function supervised() {
  const child = spawn(process.execPath, ['--input-type=module', '-e', `import { superviseServer } from ${JSON.stringify(SUPERVISE)}; superviseServer(process.argv[1]);`, path.join(dir, 'server.mjs')], {
    detached: true,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const ready = new Promise<void>((resolve) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (out.includes('ready')) resolve();
    });
  });
  const exit = new Promise<{ code: number | null; signal: string | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return { child, ready, exit, output: () => out };
}

// Issue 33 item 23: one Ctrl+C stops `npm start` cleanly; the start script must not pass a second SIGINT on.
describe('npm start: Ctrl+C', () => {
  it('gives the server one SIGINT for one Ctrl+C (the terminal’s and npm’s copies) and ends with its exit code 0', async () => {
    const run = supervised();
    await run.ready;
    process.kill(-run.child.pid!, 'SIGINT'); // the terminal: the whole foreground process group
    process.kill(run.child.pid!, 'SIGINT'); // npm passes its own copy on to the script
    expect(await run.exit).toEqual({ code: 0, signal: null });
    expect(run.output().match(/SIGINT \d/g)).toEqual(['SIGINT 1']);
  });

  it('passes a second Ctrl+C, a moment later, on: the server then stops at once', async () => {
    const run = supervised();
    await run.ready;
    process.kill(-run.child.pid!, 'SIGINT');
    await new Promise((resolve) => setTimeout(resolve, 1100));
    // Before the graceful stop ends (4 s), a deliberate second Ctrl+C.
    process.kill(-run.child.pid!, 'SIGINT');
    expect(await run.exit).toEqual({ code: 1, signal: null });
    expect(run.output().match(/SIGINT \d/g)).toEqual(['SIGINT 1', 'SIGINT 2']);
  });
});
