import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateDatabase, rowsOf, type DatabaseHandle } from '../../db/client.js';
import { openTestDatabase } from '../../test/test-database.js';
import { MessagesRepository, type MessageWrite } from '../messages/messages.repository.js';
import { TicketsRepository } from './tickets.repository.js';

// A ticket's lastMessageAt is kept on the ticket (migration 0015), by the statements that store messages and by
// triggers on messages for every other write. Whatever writes messages (the live paths, several tickets in one
// statement, history older than the ticket's newest, a removed message, a moved one, a ticket or contact deleted),
// every ticket's kept time and DTO must be the newest of its messages.
let handle: DatabaseHandle;
const TICKETS = 12;

beforeAll(async () => {
  handle = await openTestDatabase();
  await migrateDatabase(handle);
  await handle.db.execute(sql`
    insert into whatsapps (name) values ('Loja');
    insert into contacts (name, number) select 'Cliente ' || i, '5511' || (900000000 + i) from generate_series(1, ${sql.raw(String(TICKETS))}) i;
    insert into tickets (status, contact_id, whatsapp_id) select 'closed', i, 1 from generate_series(1, ${sql.raw(String(TICKETS))}) i;`);
});

afterAll(async () => {
  await handle?.close();
});

async function checkTimes(round: string): Promise<void> {
  const rows = rowsOf<{ id: number; kept: string | null; newest: string | null }>(
    await handle.db.execute(sql`
      select t.id, to_json(t.last_message_at)::text as kept, to_json((select max(created_at) from messages m where m.ticket_id = t.id))::text as newest
      from tickets t order by t.id`),
  );
  for (const row of rows) expect(row.kept, `${round}: ticket ${row.id}`).toBe(row.newest);
  const dtos = await new TicketsRepository(handle.db).findDtos(rows.map((row) => row.id));
  for (const [i, dto] of dtos.entries()) {
    const newest = rows[i]!.newest;
    expect(dto.lastMessageAt, `${round}: DTO of ticket ${dto.id}`).toBe(newest === null ? null : new Date(JSON.parse(newest) as string).toISOString());
  }
}

describe("a ticket's newest message time, kept on the ticket", () => {
  it('is the newest of its messages after every kind of write', async () => {
    const messages = new MessagesRepository(handle.db);
    let seq = 0;
    let clock = Date.parse('2026-03-01T12:00:00.000Z');
    const message = (ticketId: number, at: Date): MessageWrite => ({
      channelMessageId: `m${++seq}`,
      whatsappId: 1,
      ticketId,
      contactId: ticketId,
      body: `mensagem ${seq}`,
      fromMe: seq % 3 === 0,
      read: false,
      mediaType: null,
      mediaUrl: null,
      ack: 0,
      quotedMsgId: null,
      participantName: null,
      senderKind: 'contact',
      createdAt: at,
    });
    const later = () => new Date((clock += 1000 + (seq % 7) * 13));
    const ticket = (i: number) => 1 + (i % TICKETS);

    await checkTimes('no messages');
    for (let round = 1; round <= 6; round += 1) {
      // The live paths: one message into its ticket, and several tickets' messages shared in one statement.
      // The ticket they answer (what the live events carry) has the new time already.
      const live = message(ticket(round), later());
      expect((await messages.insertIntoTicket(live, 'oi', true))?.ticket.lastMessageAt).toBe(live.createdAt!.toISOString());
      const shared = [1, 2, 3, 4].map((i) => message(ticket(round * 5 + i), later()));
      const stored = await Promise.all(shared.map((data) => messages.insertIntoTicketShared(data, 'oi', true)));
      expect(stored.map((answer) => answer?.ticket.lastMessageAt)).toEqual(shared.map((data) => data.createdAt!.toISOString()));
      // The first message of a new number: its contact, ticket and message in one statement.
      const { ticketId: _t, contactId: _c, ...first } = message(0, later());
      const chat = await messages.insertWithNewChat({ number: `55219${round}0000000`, name: `Novo ${round}`, isGroup: false }, { queueId: null }, first, 'olá', true);
      expect(chat?.ticket.lastMessageAt).toBe(first.createdAt!.toISOString());
      // A message stored apart from its ticket's update (a send), and a repeated network id (stored once).
      await messages.insertOnce(message(ticket(round + 3), later()));
      await messages.insertIntoTicket({ ...message(ticket(round + 4), later()), channelMessageId: 'm1' }, 'de novo', false);
      // History: many messages of many tickets in one statement, older than each ticket's newest and newer.
      const at = (offset: number) => new Date(clock + offset).toISOString();
      await handle.db.execute(sql`
        insert into messages (channel_message_id, whatsapp_id, ticket_id, contact_id, body, created_at)
        select 'h' || ${round} || '-' || i, 1, 1 + (i % ${TICKETS}), 1 + (i % ${TICKETS}), 'antiga', ${at(-86_400_000)}::timestamptz + i * interval '1 minute'
        from generate_series(1, 30) i`);
      await checkTimes(`round ${round}, inserts`);
      // The newest message of a ticket removed, another one moved to another ticket, one given an older time.
      const [newest] = rowsOf<{ id: number }>(await handle.db.execute(sql`select id from messages where ticket_id = ${ticket(round)} order by created_at desc limit 1`));
      await messages.remove(newest!.id);
      await handle.db.execute(sql`update messages set ticket_id = ${ticket(round + 1)} where id = (select id from messages where ticket_id = ${ticket(round + 2)} order by created_at desc limit 1)`);
      await handle.db.execute(sql`update messages set created_at = created_at - interval '2 days' where id = (select id from messages where ticket_id = ${ticket(round + 3)} order by created_at desc limit 1)`);
      // An ack changes neither.
      await handle.db.execute(sql`update messages set ack = 3 where ticket_id = ${ticket(round + 5)}`);
      await checkTimes(`round ${round}, removed and moved`);
    }
    // Every message of a ticket gone; a ticket and a contact deleted with their messages.
    await handle.db.execute(sql`delete from messages where ticket_id = ${ticket(7)}`);
    await handle.db.execute(sql`delete from tickets where id = ${ticket(8)}`);
    await handle.db.execute(sql`delete from contacts where id = ${ticket(9)}`);
    await checkTimes('deleted');
    const [kept] = rowsOf<{ n: number }>(await handle.db.execute(sql`select count(*)::int as n from tickets where last_message_at is not null`));
    expect(kept!.n).toBeGreaterThan(TICKETS / 2);
  });
});
