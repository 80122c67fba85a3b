import { afterEach, describe, expect, it } from 'vitest';
import { connectedSimulator, inbound, phoneNumbers, queryRows } from '../test/desk-factories.js';
import { createTestApp, type TestApp } from '../test/test-app.js';

/**
 * Issue 17: app.close() (what SIGTERM runs) lets a send in flight finish before it stops the connections, and
 * does not wait past its timeout for one that never ends.
 */
const nextNumber = phoneNumbers(72_000, 1);
let t: TestApp | undefined;

afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** Holds the connection's sends until `release()` is called. */
function gateSends(app: TestApp, whatsappId: number) {
  const driver = app.app.services.sessions.driver(whatsappId);
  const send = driver.sendText.bind(driver);
  let release = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  let entered = () => {};
  const started = new Promise<void>((resolve) => (entered = resolve));
  driver.sendText = async (...args) => {
    entered();
    await gate;
    return send(...args);
  };
  return { started, release };
}

describe('graceful close', () => {
  it('waits for a send in flight, which finishes and is stored, then stops', async () => {
    t = await createTestApp();
    const admin = await t.adminToken();
    const connection = await connectedSimulator(t);
    const ticket = await inbound(t, connection.id, { from: nextNumber(), body: 'are you there?' });
    const gate = gateSends(t, connection.id);
    const sending = t.call('POST', `/api/messages/${ticket.id}`, { token: admin, body: { body: 'answered during the shutdown' } });
    await gate.started;

    let closed = false;
    const closing = t.app.close({ timeoutMs: 20_000 }).then(() => (closed = true));
    // The close waits for the request: pg-boss stops fetching at once, the connection still runs the send.
    expect(t.app.services.jobs.running).toBe(false);
    await Promise.race([closing, new Promise((resolve) => setTimeout(resolve, 500))]);
    expect(closed).toBe(false);
    expect(t.app.services.sessions.status(connection.id)).toBe('CONNECTED');

    gate.release();
    const sent = await sending;
    expect(sent.status).toBeLessThan(300);
    await closing;
    const rows = await queryRows<{ body: string; ack: number }>(t, `select body, ack from messages where ticket_id = ${ticket.id} and from_me = true`);
    expect(rows.map((r) => r.body)).toEqual(['answered during the shutdown']);
  }, 30_000);

  it('gives up waiting after the timeout', async () => {
    t = await createTestApp();
    const admin = await t.adminToken();
    const connection = await connectedSimulator(t);
    const ticket = await inbound(t, connection.id, { from: nextNumber(), body: 'hello' });
    const gate = gateSends(t, connection.id);
    void t.call('POST', `/api/messages/${ticket.id}`, { token: admin, body: { body: 'never sent' } }).catch(() => undefined);
    await gate.started;
    const started = Date.now();
    await t.app.close({ timeoutMs: 200 });
    expect(Date.now() - started).toBeLessThan(10_000);
    gate.release();
  }, 30_000);
});
