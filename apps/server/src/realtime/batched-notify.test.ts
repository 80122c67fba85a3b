import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchedNotify } from './cluster-adapter.js';

const url = process.env.DATABASE_URL;

// The adapter's NOTIFYs of one turn in one statement (issue 11): every one delivered, in order, repeats included.
describe.skipIf(!url)('the adapter NOTIFYs sent several a statement', () => {
  let pool: pg.Pool;
  let listener: pg.Client;
  const received: string[] = [];

  beforeAll(async () => {
    pool = new pg.Pool({ connectionString: url, max: 4 });
    listener = new pg.Client({ connectionString: url });
    await listener.connect();
    listener.on('notification', (msg) => received.push(`${msg.channel}:${msg.payload}`));
    await listener.query('LISTEN "batched-notify-test#a"');
    await listener.query('LISTEN "batched-notify-test#b"');
  });

  afterAll(async () => {
    await listener.end();
    await pool.end();
  });

  it('delivers every event in the order published, a repeat of the same payload too, in fewer statements', async () => {
    const notify = batchedNotify(pool);
    const sent: string[] = [];
    const publishing: Promise<unknown>[] = [];
    for (let i = 0; i < 100; i += 1) {
      const channel = `batched-notify-test#${i % 3 === 0 ? 'b' : 'a'}`;
      const payload = JSON.stringify({ n: i % 50 === 7 ? 7 : i, text: 'olá "x"' });
      sent.push(`${channel}:${payload}`);
      publishing.push(notify.add({ channel, payload }));
      if (i === 7) {
        sent.push(`${channel}:${payload}`); // the same event twice at once: both must arrive
        publishing.push(notify.add({ channel, payload }));
      }
    }
    await Promise.all(publishing);
    const deadline = Date.now() + 5000;
    while (received.length < sent.length && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(received).toEqual(sent);
    // 101 events, at most 64 a statement, the repeats in statements of their own.
    expect(notify.batches).toBeGreaterThanOrEqual(2);
    expect(notify.batches).toBeLessThanOrEqual(5);
  });
});
