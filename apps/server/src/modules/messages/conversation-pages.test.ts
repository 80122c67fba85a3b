import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateDatabase, rowsOf, type DatabaseHandle } from '../../db/client.js';
import { openTestDatabase } from '../../test/test-database.js';
import { MessagesRepository } from './messages.repository.js';

// A conversation's pages (a ticket and the contact's earlier ones) read each ticket's newest messages through its own
// index and merge them (issue 35 item 2): every page must be the conversation's messages newest first, each once,
// however the tickets' messages interleave in time.
let handle: DatabaseHandle;

beforeAll(async () => {
  handle = await openTestDatabase();
  await migrateDatabase(handle);
  // Three tickets of one contact, 30 + 25 + 7 messages whose times interleave (ticket 1's every 3 minutes, ticket 2's
  // every 2 from the same start, ticket 3's a burst at the end), with ties in time broken by id.
  await handle.db.execute(sql`
    insert into whatsapps (name) values ('Loja');
    insert into contacts (id, name, number) values (1, 'Ana', '5511900000001');
    insert into tickets (id, status, contact_id, whatsapp_id) values (1, 'closed', 1, 1), (2, 'closed', 1, 1), (3, 'open', 1, 1);
    insert into messages (channel_message_id, whatsapp_id, ticket_id, contact_id, body, created_at)
      select 't1-' || g, 1, 1, 1, 'um ' || g, timestamptz '2026-05-01 10:00Z' + interval '3 minutes' * g from generate_series(1, 30) g;
    insert into messages (channel_message_id, whatsapp_id, ticket_id, contact_id, body, created_at)
      select 't2-' || g, 1, 2, 1, 'dois ' || g, timestamptz '2026-05-01 10:00Z' + interval '2 minutes' * g from generate_series(1, 25) g;
    insert into messages (channel_message_id, whatsapp_id, ticket_id, contact_id, body, created_at)
      select 't3-' || g, 1, 3, 1, 'três ' || g, timestamptz '2026-05-01 11:30Z' + interval '1 minute' * (g / 2) from generate_series(1, 7) g;`);
});

afterAll(async () => {
  await handle?.close();
});

describe('a conversation read page by page', () => {
  it('gives every message of its tickets once, newest first across the tickets, on every page', async () => {
    const repo = new MessagesRepository(handle.db);
    const expected = rowsOf<{ id: number }>(await handle.db.execute(sql`select id from messages order by created_at desc, id desc`)).map((r) => Number(r.id));
    expect(expected).toHaveLength(62);
    const seen: number[] = [];
    for (let page = 1; page <= 4; page++) {
      const { messages, count } = await repo.readPage(3, page, 20, [2, 1]);
      expect(count).toBe(62);
      // A page is shown oldest first; the pages go back in time.
      seen.push(...messages.map((m) => m.id).reverse());
    }
    expect(seen).toEqual(expected);
  });
});
