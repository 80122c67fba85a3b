import type { LabelDto, LabelRefDto } from '@wadesk/contracts';
import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import { rowsOf, type Executor } from '../../db/client.js';
import { intArrayParam } from '../../db/prepared.js';
import { contactLabels, labels, ticketLabels } from '../../db/schema.js';

export interface LabelWrite {
  name?: string;
  color?: string;
}

type LabelRow = typeof labels.$inferSelect;

function toLabelDto(row: LabelRow, ticketCount: number, contactCount: number): LabelDto {
  return {
    id: row.id,
    name: row.name,
    color: row.color,
    ticketCount,
    contactCount,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The only file that queries labels and the tickets' and contacts' labels (issue 36 §2). */
export class LabelsRepository {
  constructor(private readonly db: Executor) {}

  /** Every label by name, with how many tickets and contacts carry it (counted by the (label, …) indexes). */
  async list(): Promise<LabelDto[]> {
    const rows = await this.db
      .select({
        label: labels,
        tickets: sql<number>`(select count(*)::int from ${ticketLabels} where ${ticketLabels.labelId} = ${labels.id})`,
        contacts: sql<number>`(select count(*)::int from ${contactLabels} where ${contactLabels.labelId} = ${labels.id})`,
      })
      .from(labels)
      .orderBy(asc(sql`lower(${labels.name})`), asc(labels.id));
    return rows.map((r) => toLabelDto(r.label, Number(r.tickets), Number(r.contacts)));
  }

  async findDto(id: number): Promise<LabelDto | null> {
    const [row] = await this.db
      .select({
        label: labels,
        tickets: sql<number>`(select count(*)::int from ${ticketLabels} where ${ticketLabels.labelId} = ${labels.id})`,
        contacts: sql<number>`(select count(*)::int from ${contactLabels} where ${contactLabels.labelId} = ${labels.id})`,
      })
      .from(labels)
      .where(eq(labels.id, id));
    return row ? toLabelDto(row.label, Number(row.tickets), Number(row.contacts)) : null;
  }

  /** Names compare ignoring case, as the unique index `labels_name_unique` on lower(name) does. */
  async nameTaken(name: string, exceptId?: number): Promise<boolean> {
    const byName = eq(sql`lower(${labels.name})`, name.toLowerCase());
    const [row] = await this.db
      .select({ id: labels.id })
      .from(labels)
      .where(exceptId ? and(byName, ne(labels.id, exceptId)) : byName)
      .limit(1);
    return !!row;
  }

  async insert(data: Required<LabelWrite>): Promise<number> {
    const [row] = await this.db.insert(labels).values(data).returning({ id: labels.id });
    return row!.id;
  }

  async update(id: number, data: LabelWrite): Promise<boolean> {
    const rows = await this.db
      .update(labels)
      .set({ ...data, updatedAt: new Date() })
      .where(eq(labels.id, id))
      .returning({ id: labels.id });
    return rows.length > 0;
  }

  /** Deletes the label; the tickets and contacts carrying it lose it (foreign keys cascade). False when absent. */
  async delete(id: number): Promise<boolean> {
    const rows = await this.db.delete(labels).where(eq(labels.id, id)).returning({ id: labels.id });
    return rows.length > 0;
  }

  /** Of these ids, those that are no label. */
  async unknownIds(ids: readonly number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const found = await this.db.select({ id: labels.id }).from(labels).where(inArray(labels.id, [...ids]));
    const known = new Set(found.map((r) => r.id));
    return ids.filter((id) => !known.has(id));
  }

  /** The ticket's labels become exactly these (in a transaction's handle: the two statements go together). */
  async replaceTicketLabels(ticketId: number, labelIds: readonly number[]): Promise<void> {
    await this.db.execute(sql`
      delete from ticket_labels where ticket_id = ${ticketId} and not (label_id = any(${intArrayParam(labelIds)}::int[]))`);
    if (labelIds.length === 0) return;
    await this.db.execute(sql`
      insert into ticket_labels (ticket_id, label_id)
      select ${ticketId}, l.id from labels l where l.id = any(${intArrayParam(labelIds)}::int[])
      on conflict do nothing`);
  }

  /** The contact's labels become exactly these. */
  async replaceContactLabels(contactId: number, labelIds: readonly number[]): Promise<void> {
    await this.db.execute(sql`
      delete from contact_labels where contact_id = ${contactId} and not (label_id = any(${intArrayParam(labelIds)}::int[]))`);
    if (labelIds.length === 0) return;
    await this.db.execute(sql`
      insert into contact_labels (contact_id, label_id)
      select ${contactId}, l.id from labels l where l.id = any(${intArrayParam(labelIds)}::int[])
      on conflict do nothing`);
  }

  /** The labels of these contacts, by contact, each list by name. */
  async ofContacts(contactIds: readonly number[]): Promise<Map<number, LabelRefDto[]>> {
    const result = new Map<number, LabelRefDto[]>();
    if (contactIds.length === 0) return result;
    const rows = rowsOf<{ contact_id: number; id: number; name: string; color: string }>(
      await this.db.execute(sql`
        select cl.contact_id, l.id, l.name, l.color from contact_labels cl join labels l on l.id = cl.label_id
        where cl.contact_id = any(${intArrayParam(contactIds)}::int[])
        order by lower(l.name), l.id`),
    );
    for (const row of rows) {
      const list = result.get(Number(row.contact_id)) ?? [];
      list.push({ id: Number(row.id), name: row.name, color: row.color });
      result.set(Number(row.contact_id), list);
    }
    return result;
  }
}
