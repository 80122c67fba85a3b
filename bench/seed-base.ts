import { sql } from 'drizzle-orm';
import type { Database } from '../apps/server/src/db/client.js';

/** What every benchmark starts from: one default connection (id 1), two queues (ids 1, 2) and `contacts` contacts (ids 1..n). */
export async function seedConnectionQueuesAndContacts(db: Database, contacts: number): Promise<void> {
  await db.execute(sql`insert into whatsapps (name, channel, status, is_default) values ('Bench', 'simulator', 'DISCONNECTED', true)`);
  await db.execute(sql`insert into queues (name, color) values ('Vendas', '#111111'), ('Suporte', '#222222')`);
  await db.execute(sql`
    insert into contacts (name, number)
    select 'Cliente ' || g, (5511900000000 + g)::text from generate_series(1, ${contacts}) g`);
}

/**
 * The small data set of the list and search benchmarks, on top of seedConnectionQueuesAndContacts(db, tickets):
 * one ticket per contact (statuses and queues alternating) and `perTicket` messages each, over a vocabulary with
 * common words and a rare one ('xylofone', about one message in a thousand).
 */
export async function seedTicketsAndMessages(db: Database, tickets: number, perTicket: number): Promise<void> {
  await db.execute(sql`
    insert into tickets (status, contact_id, whatsapp_id, queue_id, last_message, unread_messages, updated_at)
    select (array['open','pending','closed'])[1 + g % 3], g, 1, 1 + g % 2, 'mensagem ' || g, g % 4,
           now() - (g || ' seconds')::interval
    from generate_series(1, ${tickets}) g`);
  await db.execute(sql`
    insert into messages (channel_message_id, whatsapp_id, ticket_id, contact_id, body, from_me, created_at)
    select 'B' || t || '-' || m, 1, t, t,
           'mensagem ' || m || ' do ticket ' || t || ' sobre ' || (array['entrega','boleto','troca','pedido','garantia'])[1 + (t * m) % 5]
             || case when (t * 31 + m) % 997 = 0 then ' xylofone' else '' end,
           m % 2 = 0, now() - ((${perTicket} - m) || ' minutes')::interval
    from generate_series(1, ${tickets}) t, generate_series(1, ${perTicket}) m`);
}
