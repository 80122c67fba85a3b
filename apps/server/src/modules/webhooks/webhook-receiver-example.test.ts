import { spawn, type ChildProcess } from 'node:child_process';
import net, { type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { WebhookDeliveryDto, WebhookDto } from '@wadesk/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../test/session-helpers.js';
import { useTestApp } from '../../test/test-app.js';

/** The receiver of docs/api.md, run as a reader runs it (plain node, the secret in the environment), against the desk. */
const EXAMPLE = fileURLToPath(new URL('../../../../../examples/webhook-receiver.mjs', import.meta.url));
const SECRET = 'example-secret-0123456789';

const t = useTestApp({ admin: true, config: { mediaFetchAllowPrivate: true } });
let receiver: ChildProcess;
let url = '';
let stdout = '';

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  const port = await freePort();
  receiver = spawn(process.execPath, [EXAMPLE], { env: { ...process.env, WEBHOOK_SECRET: SECRET, PORT: String(port) } });
  receiver.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  let stderr = '';
  receiver.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  await eventually(async () => stderr.includes('listening'), 10_000, 'the receiver listening');
  url = `http://127.0.0.1:${port}/`;
});
afterAll(() => {
  receiver?.kill();
});

const printed = () =>
  stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { id: string; event: string; data: Record<string, any> });

describe('examples/webhook-receiver.mjs', () => {
  it("accepts the desk's signed deliveries, prints each event once, and refuses a forged one", async () => {
    const hook = await t.call<WebhookDto>('POST', '/api/webhooks', { token: t.admin, body: { url, events: ['contact.created'], secret: SECRET } });
    expect(hook.status).toBe(201);

    const test = await t.call<WebhookDeliveryDto>('POST', `/api/webhooks/${hook.body.id}/test`, { token: t.admin });
    expect(test.body).toMatchObject({ status: 'delivered', responseCode: 204 });

    const contact = await t.call<{ id: number }>('POST', '/api/contacts', { token: t.admin, body: { name: 'Carla Receiver', number: '5511987650777' } });
    await eventually(async () => printed().some((e) => e.event === 'contact.created'), 10_000, 'contact.created printed');
    const created = printed().find((e) => e.event === 'contact.created')!;
    expect(created.data.contact).toMatchObject({ id: contact.body.id, name: 'Carla Receiver' });

    // Sent again (same event id): answered 204, not printed a second time.
    const log = await t.call<{ deliveries: WebhookDeliveryDto[] }>('GET', `/api/webhooks/${hook.body.id}/deliveries`, { token: t.admin });
    const delivered = log.body.deliveries.find((d) => d.event === 'contact.created')!;
    await t.call('POST', `/api/webhooks/${hook.body.id}/deliveries/${delivered.id}/redeliver`, { token: t.admin });
    await eventually(
      async () => {
        const again = await t.call<{ deliveries: WebhookDeliveryDto[] }>('GET', `/api/webhooks/${hook.body.id}/deliveries`, { token: t.admin });
        return again.body.deliveries.filter((d) => d.eventId === delivered.eventId && d.status === 'delivered').length === 2;
      },
      10_000,
      'redelivered',
    );
    expect(printed().map((e) => e.event)).toEqual(['webhook.test', 'contact.created']);

    // A forged delivery (another secret) and a stale one are refused.
    const body = JSON.stringify({ id: 'x', event: 'contact.created', createdAt: new Date().toISOString(), data: {} });
    const now = Math.floor(Date.now() / 1000);
    const forged = await fetch(url, { method: 'POST', body, headers: { 'x-desk-timestamp': String(now), 'x-desk-signature': 'sha256=' + '0'.repeat(64) } });
    expect(forged.status).toBe(401);
    const { webhookSignature } = await import('./webhook-sender.js');
    const stale = await fetch(url, { method: 'POST', body, headers: { 'x-desk-timestamp': String(now - 3600), 'x-desk-signature': webhookSignature(SECRET, now - 3600, body) } });
    expect(stale.status).toBe(401);
    const good = await fetch(url, { method: 'POST', body, headers: { 'x-desk-timestamp': String(now), 'x-desk-signature': webhookSignature(SECRET, now, body) } });
    expect(good.status).toBe(204);
  });
});
