import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { connectedSimulator, createQueue } from '../../test/desk-factories.js';
import { useTestApp } from '../../test/test-app.js';
import { CONNECTION_MEMO_MS, ConnectionMemo } from './connection-memo.js';

const t = useTestApp({ admin: true });

describe('the connection as inbound and the queue menu read it (issue 35 item 6)', () => {
  it('is read once a second; a change saved in this process applies at once, one made elsewhere within the second', async () => {
    const [a, b, c] = [await createQueue(t, 'Memo A'), await createQueue(t, 'Memo B'), await createQueue(t, 'Memo C')];
    const connection = await connectedSimulator(t, { queueIds: [a, b], greetingMessage: 'Olá' });
    let now = 1_000_000;
    const memo = new ConnectionMemo(t.app.database.db, t.app.services.events, () => now);
    const queueIds = async () => (await memo.find(connection.id))!.queues.map((q) => q.id);
    expect(await queueIds()).toEqual([a, b]);

    // Through the app (this process): forgotten at once.
    const saved = await t.call('PUT', `/api/whatsapp/${connection.id}`, { token: t.admin, body: { queueIds: [a, b, c] } });
    expect(saved.status).toBe(200);
    expect(await queueIds()).toEqual([a, b, c]);

    // Behind the app's back (as another process would): the kept one until the second is over.
    await t.app.database.db.execute(sql`delete from whatsapp_queues where whatsapp_id = ${connection.id} and queue_id = ${c}`);
    now += CONNECTION_MEMO_MS - 1;
    expect(await queueIds()).toEqual([a, b, c]);
    now += 1;
    expect(await queueIds()).toEqual([a, b]);
  });
});
