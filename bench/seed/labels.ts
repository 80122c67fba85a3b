/**
 * Labels for the benchmark data set (issue 36 §2): eight labels on 30 % of the tickets and 20 % of the contacts,
 * chosen by set-based SQL from the ids alone (a hash, no random()), so a data set gets the same labels every time.
 *
 * Shape: a ticket is labelled when hash(id) % 10 < 3 (30 %); its label is drawn Zipf-like (the first label on about
 * 39 % of the labelled tickets, the last on ~3 %), and one labelled ticket in three also carries the next label of
 * the list. Contacts: hash(id) % 5 = 0 (20 %), one label each, drawn the same way.
 */
import { sql } from 'drizzle-orm';
import { rowsOf, type Database } from '../../apps/server/src/db/client.js';

/** The seeded labels, most used first, with their colours. */
export const SEED_LABELS: readonly (readonly [name: string, color: string])[] = [
  ['VIP', '#B80000'],
  ['Urgent', '#DB3E00'],
  ['Follow-up', '#1273DE'],
  ['Complaint', '#5300EB'],
  ['Wholesale', '#008B02'],
  ['Returns', '#FF9800'],
  ['Lead', '#00BCD4'],
  ['Spam', '#607D8B'],
];

export interface LabelSeedCounts {
  labels: number;
  labelledTickets: number;
  ticketLabels: number;
  contactLabels: number;
}

/**
 * Puts the labels on 30 % of the tickets and 20 % of the contacts already seeded (after `seedDataSet`). Answers what
 * it wrote. Run it once per data set (labels of the same name are refused by labels_name_unique).
 */
export async function seedLabels(db: Database, log: (line: string) => void = () => undefined): Promise<LabelSeedCounts> {
  const names = `{${SEED_LABELS.map(([name]) => `"${name}"`).join(',')}}`;
  const colors = `{${SEED_LABELS.map(([, color]) => `"${color}"`).join(',')}}`;
  await db.execute(sql`
    insert into labels (name, color)
    select n, c from unnest(${names}::text[], ${colors}::text[]) with ordinality as l(n, c, i) order by i`);
  // The labels' ids in order of SEED_LABELS, as an array (1-based) the statements below index.
  const ids = sql`(select array_agg(id order by id) from labels where name = any(${names}::text[]))`;
  const count = SEED_LABELS.length;
  // A well-mixed hash of an id (no table of randoms: the same ids get the same labels, at any scale).
  const hash = (column: string, salt: number) => sql.raw(`abs(hashint4(${column} + ${salt}))`);
  // Zipf-like index 1..count from a hash: floor(count * u^2.2) + 1 with u uniform in [0, 1).
  const zipf = (column: string, salt: number) =>
    sql`(1 + floor(${count} * power((${hash(column, salt)} % 10000) / 10000.0, 2.2)))::int`;
  await db.execute(sql`
    insert into ticket_labels (ticket_id, label_id)
    select t.id, (${ids})[${zipf('t.id', 11)}] from tickets t where ${hash('t.id', 7)} % 10 < 3
    on conflict do nothing`);
  // One labelled ticket in three has a second label: the next one in the list after its first.
  await db.execute(sql`
    insert into ticket_labels (ticket_id, label_id)
    select t.id, (${ids})[(${zipf('t.id', 11)} % ${count}) + 1] from tickets t
    where ${hash('t.id', 7)} % 10 < 3 and ${hash('t.id', 13)} % 3 = 0
    on conflict do nothing`);
  await db.execute(sql`
    insert into contact_labels (contact_id, label_id)
    select c.id, (${ids})[${zipf('c.id', 17)}] from contacts c where ${hash('c.id', 19)} % 5 = 0
    on conflict do nothing`);
  for (const table of ['labels', 'ticket_labels', 'contact_labels']) await db.execute(sql.raw(`analyze ${table}`));
  const [row] = rowsOf<LabelSeedCounts>(
    await db.execute(sql`select
      (select count(*) from labels)::int as labels,
      (select count(distinct ticket_id) from ticket_labels)::int as "labelledTickets",
      (select count(*) from ticket_labels)::int as "ticketLabels",
      (select count(*) from contact_labels)::int as "contactLabels"`),
  );
  log(`labels: ${row!.labels} labels, ${row!.labelledTickets} labelled tickets (${row!.ticketLabels} ticket labels), ${row!.contactLabels} labelled contacts`);
  return row!;
}
