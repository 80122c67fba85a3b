import { whatsappNumberForms, type ContactDto, type ExtraInfoDto, type LabelRefDto } from '@wadesk/contracts';
import { and, asc, count, eq, inArray, like, ne, notInArray, or, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { containsPattern } from '../../db/like-pattern.js';
import { intArrayParam, prepared } from '../../db/prepared.js';
import { contactCustomFields, contacts } from '../../db/schema.js';
import { LabelsRepository } from '../labels/labels.repository.js';
import { toContactDto, toExtraInfoDto } from './contacts.mapper.js';

export interface ContactWrite {
  name: string;
  number: string;
  email: string;
}

export interface ExtraInfoWrite {
  id?: number;
  name: string;
  value: string;
}

/** Rows per INSERT (PostgreSQL allows 65535 parameters per statement). */
const INSERT_CHUNK = 500;

/** The only file that queries contacts and their extra info (custom fields). */
export class ContactsRepository {
  constructor(private readonly db: Executor) {}

  /**
   * Contacts whose name, number or e-mail contains `search` (already lowercased; '' for all), by name. Prepared
   * statements (one for a search, one for the whole list): planning the search's three trigram indexes took
   * longer than running them.
   */
  async list(search: string, page: number, pageSize: number): Promise<{ contacts: ContactDto[]; count: number }> {
    const paging = { limit: pageSize, offset: (page - 1) * pageSize };
    const rows = search
      ? await this.searchPage().execute({ pattern: containsPattern(search), ...paging })
      : await this.allPage().execute(paging);
    let total = rows[0]?.total ?? (page === 1 ? 0 : undefined);
    if (total === undefined) {
      // A page past the end has no row to carry the count.
      const [counted] = await this.db.select({ n: count() }).from(contacts).where(search ? this.matching(sql`${containsPattern(search)}`) : undefined);
      total = counted?.n ?? 0;
    }
    return { contacts: await this.withExtraInfo(rows.map((r) => r.contact)), count: total };
  }

  /**
   * Name (ignoring case and accents: 'joao' finds João, through the stored folded name), number or e-mail contains
   * the LIKE `pattern`, each through its trigram index. The name's pattern is folded once, in a subquery, not for every row checked.
   */
  private matching(pattern: SQL | Placeholder): SQL {
    return or(
      sql`${contacts.nameFolded} like (select f_unaccent(lower(${pattern})))`,
      like(contacts.number, pattern),
      like(sql`lower(${contacts.email})`, pattern),
    )!;
  }

  /**
   * A search's page. It sorts by `lower(name) || ''`, the same order through an expression no index has: the
   * matches come from the trigram indexes and are sorted (~1 ms), instead of a walk of the whole name index,
   * filtered row by row until a page is full (10–18 ms for a name of a few dozen contacts). The count is a window
   * over the matches, found once for the page and the count.
   */
  private searchPage() {
    return prepared(this.db, 'contacts.searchPage', (name) =>
      this.db
        .select({ contact: contacts, total: sql<number>`(count(*) over ())::int` })
        .from(contacts)
        .where(this.matching(sql.placeholder('pattern')))
        .orderBy(asc(sql`lower(${contacts.name}) || ''`), asc(contacts.id))
        .limit(sql.placeholder('limit'))
        .offset(sql.placeholder('offset'))
        .prepare(name),
    );
  }

  /** A page of every contact, by name through its index; the count rides along (an uncorrelated subquery, run once). */
  private allPage() {
    return prepared(this.db, 'contacts.allPage', (name) =>
      this.db
        .select({ contact: contacts, total: sql<number>`(select count(*)::int from ${contacts})` })
        .from(contacts)
        .orderBy(asc(sql`lower(${contacts.name})`), asc(contacts.id))
        .limit(sql.placeholder('limit'))
        .offset(sql.placeholder('offset'))
        .prepare(name),
    );
  }

  /** Every contact with its extra info, by name (CSV export). */
  async listAll(): Promise<ContactDto[]> {
    const rows = await this.db
      .select()
      .from(contacts)
      .orderBy(asc(sql`lower(${contacts.name})`), asc(contacts.id));
    const fields = await this.db.select().from(contactCustomFields).orderBy(asc(contactCustomFields.id));
    return attachExtraInfo(rows, fields, await new LabelsRepository(this.db).ofContacts(rows.map((r) => r.id)));
  }

  async findDto(id: number): Promise<ContactDto | null> {
    const [row] = await this.db.select().from(contacts).where(eq(contacts.id, id)).limit(1);
    if (!row) return null;
    const [dto] = await this.withExtraInfo([row]);
    return dto ?? null;
  }

  /** Whether a contact other than `exceptId` has this number, in any of its forms (issue 33 item 12). */
  async numberTaken(number: string, exceptId?: number): Promise<boolean> {
    const byNumber = inArray(contacts.number, whatsappNumberForms(number));
    const [row] = await this.db
      .select({ id: contacts.id })
      .from(contacts)
      .where(exceptId ? and(byNumber, ne(contacts.id, exceptId)) : byNumber)
      .limit(1);
    return !!row;
  }

  /** The contacts stored under any form of this phone number (with or without the Brazilian ninth digit), oldest first. */
  async findByNumberForms(number: string): Promise<ContactDto[]> {
    const forms = whatsappNumberForms(number);
    if (forms.length === 0) return [];
    const rows = await this.db.select().from(contacts).where(inArray(contacts.number, forms)).orderBy(asc(contacts.id));
    return this.withExtraInfo(rows);
  }

  async insert(data: ContactWrite): Promise<number> {
    const [row] = await this.db.insert(contacts).values(data).returning({ id: contacts.id });
    return row!.id;
  }

  /** Inserts the contacts whose number is new; gives the ones created. */
  async insertNew(data: ContactWrite[]): Promise<ContactDto[]> {
    const created: ContactDto[] = [];
    for (let start = 0; start < data.length; start += INSERT_CHUNK) {
      const rows = await this.db
        .insert(contacts)
        .values(data.slice(start, start + INSERT_CHUNK))
        .onConflictDoNothing({ target: contacts.number })
        .returning();
      created.push(...rows.map((row) => toContactDto(row, [], [])));
    }
    return created;
  }

  /** The numbers of the list that are already contacts. */
  async existingNumbers(numbers: readonly string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (let start = 0; start < numbers.length; start += INSERT_CHUNK) {
      const rows = await this.db
        .select({ number: contacts.number })
        .from(contacts)
        .where(inArray(contacts.number, numbers.slice(start, start + INSERT_CHUNK)));
      for (const row of rows) found.add(row.number);
    }
    return found;
  }

  /**
   * Inserts the contacts whose number is new, with their extra info; a number taken meanwhile (another import,
   * a message) is left out by the unique index. Gives the contacts created. Call inside a transaction.
   */
  async insertNewWithExtraInfo(data: (ContactWrite & { extraInfo: ExtraInfoWrite[] })[]): Promise<ContactDto[]> {
    if (data.length === 0) return [];
    const rows = await this.db
      .insert(contacts)
      .values(data.map(({ name, number, email }) => ({ name, number, email })))
      .onConflictDoNothing({ target: contacts.number })
      .returning();
    const extraByNumber = new Map(data.map((d) => [d.number, d.extraInfo]));
    const fields = rows.flatMap((row) =>
      (extraByNumber.get(row.number) ?? []).map((i) => ({ contactId: row.id, name: i.name, value: i.value })),
    );
    const inserted: (typeof contactCustomFields.$inferSelect)[] = [];
    for (let start = 0; start < fields.length; start += INSERT_CHUNK) {
      inserted.push(...(await this.db.insert(contactCustomFields).values(fields.slice(start, start + INSERT_CHUNK)).returning()));
    }
    return attachExtraInfo(rows, inserted, new Map());
  }

  /** Gives false when the contact does not exist. */
  async update(id: number, data: ContactWrite): Promise<boolean> {
    const rows = await this.db
      .update(contacts)
      .set({ ...data, updatedAt: new Date() })
      .where(eq(contacts.id, id))
      .returning({ id: contacts.id });
    return rows.length > 0;
  }

  /**
   * Makes the contact's extra info the given list: items whose id is one of the contact's are updated,
   * the others inserted, and the contact's items missing from the list deleted.
   */
  async replaceExtraInfo(contactId: number, items: ExtraInfoWrite[]): Promise<void> {
    const existing = await this.db
      .select({ id: contactCustomFields.id })
      .from(contactCustomFields)
      .where(eq(contactCustomFields.contactId, contactId));
    const existingIds = new Set(existing.map((r) => r.id));
    const kept = items.filter((i) => i.id !== undefined && existingIds.has(i.id));
    const keptIds = kept.map((i) => i.id!);
    await this.db
      .delete(contactCustomFields)
      .where(
        keptIds.length > 0
          ? and(eq(contactCustomFields.contactId, contactId), notInArray(contactCustomFields.id, keptIds))
          : eq(contactCustomFields.contactId, contactId),
      );
    for (const item of kept) {
      await this.db
        .update(contactCustomFields)
        .set({ name: item.name, value: item.value, updatedAt: new Date() })
        .where(and(eq(contactCustomFields.id, item.id!), eq(contactCustomFields.contactId, contactId)));
    }
    const added = items.filter((i) => !kept.includes(i));
    if (added.length > 0) {
      await this.db
        .insert(contactCustomFields)
        .values(added.map((i) => ({ contactId, name: i.name, value: i.value })));
    }
  }

  /** Deletes the contact; its tickets and messages go with it (FK cascade). Gives false when absent. */
  /** Deletes every contact (their tickets and messages go with them); answers the ids. */
  async deleteAll(): Promise<number[]> {
    const rows = await this.db.delete(contacts).returning({ id: contacts.id });
    return rows.map((r) => r.id);
  }

  async delete(id: number): Promise<boolean> {
    const rows = await this.db.delete(contacts).where(eq(contacts.id, id)).returning({ id: contacts.id });
    return rows.length > 0;
  }

  /** The contacts' extra info, by one prepared statement (every page of the contacts list ends with it). */
  private async withExtraInfo(rows: ContactRow[]): Promise<ContactDto[]> {
    if (rows.length === 0) return [];
    const ofContacts = prepared(this.db, 'contacts.extraInfoOf', (name) =>
      this.db
        .select()
        .from(contactCustomFields)
        .where(sql`${contactCustomFields.contactId} = any(${sql.placeholder('ids')}::int[])`)
        .orderBy(asc(contactCustomFields.id))
        .prepare(name),
    );
    const fields = await ofContacts.execute({ ids: intArrayParam(rows.map((r) => r.id)) });
    return attachExtraInfo(rows, fields, await new LabelsRepository(this.db).ofContacts(rows.map((r) => r.id)));
  }
}

type ContactRow = typeof contacts.$inferSelect;

function attachExtraInfo(
  rows: ContactRow[],
  fields: (typeof contactCustomFields.$inferSelect)[],
  labels: Map<number, LabelRefDto[]>,
): ContactDto[] {
  const byContact = new Map<number, ExtraInfoDto[]>();
  for (const field of fields) {
    const list = byContact.get(field.contactId) ?? [];
    list.push(toExtraInfoDto(field));
    byContact.set(field.contactId, list);
  }
  return rows.map((row) => toContactDto(row, byContact.get(row.id) ?? [], labels.get(row.id) ?? []));
}
