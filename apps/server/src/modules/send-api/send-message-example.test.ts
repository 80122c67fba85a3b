import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { connectedSimulator, outbox } from '../../test/desk-factories.js';
import { useTestApp } from '../../test/test-app.js';

/** The example of docs/api.md, run as a reader runs it: plain node, the desk's URL and API token in the environment. */
const EXAMPLE = fileURLToPath(new URL('../../../../../examples/send-message.mjs', import.meta.url));

const t = useTestApp({ admin: true });
let apiToken = '';
let connectionId = 0;

beforeAll(async () => {
  connectionId = (await connectedSimulator(t, { name: 'Example' })).id;
  const settings = await t.call<{ key: string; value: string }[]>('GET', '/api/settings', { token: t.admin });
  apiToken = settings.body.find((s) => s.key === 'userApiToken')!.value;
});

async function runExample(args: string[], token = apiToken): Promise<{ code: number; stdout: string; stderr: string }> {
  const url = await t.listen();
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [EXAMPLE, ...args],
      { env: { ...process.env, WADESK_URL: url, WADESK_API_TOKEN: token }, timeout: 30_000 },
      (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr }),
    );
  });
}

describe('examples/send-message.mjs', () => {
  it('sends a message with the send API, waits for its job and says it was sent (exit 0)', async () => {
    const run = await runExample(['--connection', String(connectionId), '5511987650101', 'Seu pedido saiu para entrega']);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^Queued: job [0-9a-f-]{36} \(send \d+\)\nSent to 5511987650101\.\n$/);
    expect(run.code).toBe(0);
    const sent = (await outbox(t, connectionId)).filter((e) => e.to === '5511987650101');
    expect(sent.map((e) => e.body)).toEqual(['Seu pedido saiu para entrega']);
  });

  it("says why a message was not sent, from the job's outcome (exit 1)", async () => {
    const run = await runExample(['5511987650000', 'Olá']);
    expect(run.stderr).toContain('Not sent: job completed, failed: This number is not on WhatsApp');
    expect(run.code).toBe(1);
  });

  it("prints the desk's error for a refused call and sends nothing (exit 1)", async () => {
    const run = await runExample(['5511987650102', 'Olá'], 'not-the-token');
    expect(run.stderr).toContain('Refused: 401 ERR_INVALID_API_TOKEN');
    expect(run.stdout).toBe('');
    expect(run.code).toBe(1);
    expect((await outbox(t, connectionId)).filter((e) => e.to === '5511987650102')).toEqual([]);
  });
});
