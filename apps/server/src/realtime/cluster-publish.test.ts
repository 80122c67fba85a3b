import { describe, expect, it } from 'vitest';
import { connectedSimulator, phoneNumbers } from '../test/desk-factories.js';
import { useTestApp } from '../test/test-app.js';

const onPostgres = Boolean(process.env.DATABASE_URL);

// Events cross processes only on PostgreSQL (the adapter's NOTIFY); the embedded database runs one process.
describe.skipIf(!onPostgres)('events published to the other processes before the answer (issue 17)', () => {
  const t = useTestApp({});

  it('an acknowledged inbound message has its events out already: a process killed right after its 201 loses none', async () => {
    const connection = await connectedSimulator(t, { name: 'Published first' });
    const admin = await t.adminToken();
    const next = phoneNumbers(83_000, 1);
    for (let i = 0; i < 5; i += 1) {
      const before = t.app.publishes.ended;
      const res = await t.call('POST', `/api/simulator/${connection.id}/inbound`, { token: admin, body: { from: next(), body: `published ${i}` } });
      expect(res.status).toBe(201);
      // Published (the new ticket and its message, at least) and nothing still on its way when the answer came.
      expect(t.app.publishes.ended).toBeGreaterThan(before);
      expect(t.app.publishes.size).toBe(0);
    }
  });

  it('a read is not held for them', async () => {
    const admin = await t.adminToken();
    let release!: () => void;
    const slow = new Promise<void>((resolve) => (release = resolve));
    void t.app.publishes.track(slow);
    try {
      const read = await Promise.race([
        t.call('GET', '/api/tickets?status=open', { token: admin }).then((res) => res.status),
        new Promise((resolve) => setTimeout(() => resolve('held'), 2000)),
      ]);
      expect(read).toBe(200);
      // A change is held until the publication ends.
      let answered = false;
      const change = t.call('PUT', '/api/settings/userCreation', { token: admin, body: { value: 'enabled' } }).then((res) => {
        answered = true;
        return res.status;
      });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(answered).toBe(false);
      release();
      expect(await change).toBe(200);
      // A publication that does not end (a database that stopped answering) holds an answer only so long.
      let unstick!: () => void;
      void t.app.publishes.track(new Promise<void>((resolve) => (unstick = resolve)));
      const started = Date.now();
      await t.app.publishes.settled(300);
      unstick();
      expect(Date.now() - started).toBeGreaterThanOrEqual(290);
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      release();
    }
  });
});
