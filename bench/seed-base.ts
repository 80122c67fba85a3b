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
