import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateDatabase, rowsOf, type DatabaseHandle } from '../../db/client.js';
import { openTestDatabase } from '../../test/test-database.js';
import { openThrowawayDatabase } from '../../test/throwaway-database.js';
import { TicketsRepository, type TicketListFilter, type TicketPage } from './tickets.repository.js';

// The lists' counts are sums of counts the database maintains (decision 0024): triggers on tickets write every
// change, a fold moves the changes into ticket_counts. Random writes of every kind (one row and many, cascades from
// contacts, queues and users, a rolled-back transaction), folded at random moments; after each round, every list's
// count must be what counting the tickets themselves gives (the dashboard's counts by status too).
let handle: DatabaseHandle;
const QUEUES = [1, 2, 3];
const USERS = [1, 2, 3];
const CONTACTS = 80;

/** A small deterministic generator (mulberry32): the same writes on every run. */
function random(seed: number) {
  let a = seed;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T,>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  return { next, pick };
}

interface Row {
  status: string;
  is_group: boolean;
  queue_id: number | null;
  user_id: number | null;
}

/** The count the list must give, from the tickets themselves, by the list's own rules. */
function expectedCount(rows: Row[], filter: TicketListFilter): number {
  return rows.filter((t) => {
    if (filter.status && t.status !== filter.status) return false;
    if (filter.isGroup !== undefined && t.is_group !== filter.isGroup) return false;
    if (filter.queueIds && !(t.queue_id === null || filter.queueIds.includes(t.queue_id))) return false;
    if (filter.visibleTo) {
      const { userId, queueIds } = filter.visibleTo;
      if (!(t.user_id === userId || t.queue_id === null || queueIds.includes(t.queue_id))) return false;
    }
    if (filter.mineOrPendingOf !== undefined && !(t.user_id === filter.mineOrPendingOf || t.status === 'pending')) return false;
    return true;
  }).length;
}

const FILTERS: TicketListFilter[] = [];
for (const status of [undefined, 'open', 'pending', 'closed'] as const) {
  for (const isGroup of [undefined, false, true]) {
    FILTERS.push({ status, isGroup });
    FILTERS.push({ status, isGroup, queueIds: [2] });
    FILTERS.push({ status, isGroup, visibleTo: { userId: 2, queueIds: [1, 3] }, mineOrPendingOf: 2 });
    FILTERS.push({ status, isGroup, visibleTo: { userId: 3, queueIds: [] } });
  }
}

async function checkCounts(repo: TicketsRepository, round: string): Promise<void> {
  const rows = rowsOf<Row>(await handle.db.execute(sql`select status, is_group, queue_id, user_id from tickets`));
  for (const filter of FILTERS) {
    expect((JSON.parse(await repo.listJson(filter, 1, 40)) as TicketPage).count, `${round}: ${JSON.stringify(filter)}`).toBe(expectedCount(rows, filter));
    // The dashboard's counters: every status at once.
    if (!filter.status) {
      const byStatus = { open: 0, pending: 0, closed: 0 };
      for (const status of ['open', 'pending', 'closed'] as const) byStatus[status] = expectedCount(rows, { ...filter, status });
      expect(await repo.countByStatus(filter), `${round}, by status: ${JSON.stringify(filter)}`).toEqual(byStatus);
    }
  }
}

beforeAll(async () => {
  const baseUrl = process.env.DATABASE_URL;
  handle = baseUrl ? await openThrowawayDatabase(baseUrl, 'wadesk_test', 4) : await openTestDatabase();
  await migrateDatabase(handle);
  await handle.db.execute(sql`
    insert into whatsapps (name) values ('Loja'), ('Filial');
    insert into queues (name, color) values ('Vendas', '#0a0'), ('Suporte', '#00a'), ('Financeiro', '#a00');
    insert into users (name, email, password_hash) values ('Ana', 'ana@test.local', 'x'), ('Bia', 'bia@test.local', 'x'), ('Caio', 'caio@test.local', 'x');
    insert into contacts (name, number) select 'Cliente ' || i, '5511' || (900000000 + i) from generate_series(1, ${sql.raw(String(CONTACTS))}) i;`);
});

afterAll(async () => {
  await handle?.close();
});

describe('ticket counts kept by the database', () => {
  it('gives every list the count of its tickets through random writes, cascades and folds', async () => {
    const repo = new TicketsRepository(handle.db);
    const { next, pick } = random(20261126);
    const statuses = ['open', 'pending', 'closed'];
    const queueOrNone = [...QUEUES, null];
    const userOrNone = [...USERS, null];
    const value = (v: number | null) => (v === null ? sql`null` : sql`${v}`);
    const ticketId = async () =>
      rowsOf<{ id: number }>(await handle.db.execute(sql`select id from tickets order by random() limit 1`))[0]?.id ?? 0;
    const newTicket = () =>
      sql`(${pick(statuses)}, ${next() < 0.2}, ${value(pick(queueOrNone))}, ${value(pick(userOrNone))}, ${1 + Math.floor(next() * CONTACTS)}, ${pick([1, 2])})`;
    let folds = 0;
    for (let round = 1; round <= 12; round += 1) {
      for (let step = 0; step < 25; step += 1) {
        const kind = next();
        try {
          if (kind < 0.3) {
            // One ticket, or several in one statement (closed ones: the one-active-per-contact rule allows any number).
            const rows = next() < 0.5 ? [newTicket()] : Array.from({ length: 5 }, () => sql`('closed', ${next() < 0.2}, ${value(pick(queueOrNone))}, ${value(pick(userOrNone))}, ${1 + Math.floor(next() * CONTACTS)}, 1)`);
            await handle.db.execute(sql`insert into tickets (status, is_group, queue_id, user_id, contact_id, whatsapp_id) values ${sql.join(rows, sql`, `)}`);
          } else if (kind < 0.55) {
            const column = pick(['status', 'is_group', 'queue_id', 'user_id'] as const);
            const set = {
              status: sql`status = ${pick(statuses)}`,
              is_group: sql`is_group = not is_group`,
              queue_id: sql`queue_id = ${value(pick(queueOrNone))}`,
              user_id: sql`user_id = ${value(pick(userOrNone))}`,
            }[column];
            await handle.db.execute(sql`update tickets set ${set} where id = ${await ticketId()}`);
          } else if (kind < 0.62) {
            // Many rows in one statement, some of them unchanged.
            await handle.db.execute(sql`update tickets set status = 'closed', user_id = null where queue_id = ${pick(QUEUES)}`);
          } else if (kind < 0.7) {
            // A new message's update: counts nothing.
            await handle.db.execute(sql`update tickets set last_message = 'oi', unread_messages = unread_messages + 1 where id = ${await ticketId()}`);
          } else if (kind < 0.78) {
            await handle.db.execute(sql`delete from tickets where id = ${await ticketId()}`);
          } else if (kind < 0.82) {
            // A contact's tickets go with it (on delete cascade); the contact comes back for later steps.
            const contact = 1 + Math.floor(next() * CONTACTS);
            await handle.db.execute(sql`delete from contacts where id = ${contact}`);
            await handle.db.execute(sql`insert into contacts (id, name, number) values (${contact}, 'De volta', ${`5511${900000000 + contact}`})`);
          } else if (kind < 0.85) {
            // A queue's or a user's tickets lose it (on delete set null); the row comes back under the same id.
            if (next() < 0.5) {
              const queue = pick(QUEUES);
              await handle.db.execute(sql`delete from queues where id = ${queue}`);
              await handle.db.execute(sql`insert into queues (id, name, color) values (${queue}, ${`Fila ${queue}`}, ${`#00${queue}`})`);
            } else {
              const user = pick(USERS);
              await handle.db.execute(sql`delete from users where id = ${user}`);
              await handle.db.execute(sql`insert into users (id, name, email, password_hash) values (${user}, 'De volta', ${`user${user}@test.local`}, 'x')`);
            }
          } else if (kind < 0.9) {
            // Changes of a transaction that rolls back count nothing.
            await handle.db
              .transaction(async (tx) => {
                await tx.execute(sql`insert into tickets (status, is_group, queue_id, user_id, contact_id, whatsapp_id) values ('closed', false, null, null, 1, 1)`);
                await tx.execute(sql`update tickets set status = 'closed' where status = 'open'`);
                throw new Error('rollback');
              })
              .catch(() => undefined);
          } else {
            folds += (await repo.foldCounts()) > 0 ? 1 : 0;
          }
        } catch (err) {
          // A second active ticket of a contact on a connection, or a name taken: that write is refused, nothing else.
          if (!/unique|duplicate/i.test(String((err as { cause?: unknown }).cause ?? err))) throw err;
        }
      }
      await checkCounts(repo, `round ${round}`);
    }
    expect(folds).toBeGreaterThan(3);
    await repo.foldCounts();
    await checkCounts(repo, 'after the last fold');
    const changes = rowsOf<{ n: number }>(await handle.db.execute(sql`select count(*)::int as n from ticket_count_changes`));
    expect(changes[0]!.n).toBe(0);
  });

  it.runIf(process.env.DATABASE_URL)('stays exact with writes and folds running at once on several connections', async () => {
    const repo = new TicketsRepository(handle.db);
    const writes = Array.from({ length: 40 }, (_, i) =>
      handle.db.execute(
        i % 2
          ? sql`insert into tickets (status, queue_id, contact_id, whatsapp_id) values ('closed', ${1 + (i % 3)}, ${1 + (i % CONTACTS)}, 2)`
          : sql`update tickets set user_id = ${1 + (i % 3)} where id in (select id from tickets order by id limit 3)`,
      ),
    );
    const folds = Array.from({ length: 8 }, () => repo.foldCounts());
    await Promise.all([...writes, ...folds]);
    await checkCounts(repo, 'concurrent');
    await repo.foldCounts();
    await checkCounts(repo, 'concurrent, folded');
  });
});
