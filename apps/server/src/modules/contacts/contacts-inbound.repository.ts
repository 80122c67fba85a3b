import { whatsappNumberForms } from '@wadesk/contracts';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { prepared } from '../../db/prepared.js';
import { contacts } from '../../db/schema.js';

export interface InboundContact {
  id: number;
  name: string;
  number: string;
  profilePicUrl: string;
  /** Created by this call. */
  created: boolean;
}

const columns = { id: contacts.id, name: contacts.name, number: contacts.number, profilePicUrl: contacts.profilePicUrl };

/**
 * A known contact keeps its name when a message comes with `name`: a name someone typed (or the network gave before)
 * is kept; only a name that is the number is replaced by a real one.
 */
export function keepsItsName(contact: { name: string; number: string }, name: string | undefined): boolean {
  return contact.name !== contact.number || contactNameFrom(name, contact.number) === contact.number;
}

/** The name a contact gets from a message: the name the network gives, else its number. */
export function contactNameFrom(name: string | undefined, number: string): string {
  return name?.trim().slice(0, 200) || number;
}

/** Contacts as the inbound pipeline sees them: found or created by number, race-free. */
export class ContactsInboundRepository {
  constructor(private readonly db: Executor) {}

  /**
   * Finds the contact with this number or creates it. A name the network gives replaces a name that was
   * only the number; a name someone typed is kept.
   */
  async findOrCreateByNumber(number: string, name: string | undefined, isGroup: boolean): Promise<InboundContact> {
    const given = contactNameFrom(name, number);
    // The usual case (a known contact) only reads: no row version, no lock, no WAL for a message.
    const existing = (await this.findByNumber(number)) ?? (isGroup ? undefined : await this.findByOtherForm(number));
    if (existing) {
      if (keepsItsName(existing, name)) return { ...existing, created: false };
      const [renamed] = await this.db
        .update(contacts)
        .set({ name: given, updatedAt: new Date() })
        .where(and(eq(contacts.id, existing.id), eq(contacts.name, contacts.number)))
        .returning(columns);
      return { ...(renamed ?? existing), created: false };
    }
    // New: insert, or read the contact a concurrent delivery inserted first (the unique number decides).
    const [inserted] = await this.db.insert(contacts).values({ number, name: given, isGroup }).onConflictDoNothing({ target: contacts.number }).returning(columns);
    if (inserted) return { ...inserted, created: true };
    // The conflicting row is committed (the insert waited for it), so the next statement reads it.
    return { ...(await this.findOrCreateByNumber(number, name, isGroup)), created: false };
  }

  /** The contact with this number, if any. */
  async findByNumber(number: string): Promise<Omit<InboundContact, 'created'> | undefined> {
    const byNumber = prepared(this.db, 'contacts.inboundByNumber', (name) =>
      this.db.select(columns).from(contacts).where(eq(contacts.number, sql.placeholder('number'))).limit(1).prepare(name),
    );
    const [row] = await byNumber.execute({ number });
    return row;
  }

  /**
   * A contact stored under another form of the same phone number (a Brazilian mobile with or without its ninth
   * digit, issue 33 item 12), read only when the number itself is not a contact.
   */
  private async findByOtherForm(number: string): Promise<Omit<InboundContact, 'created'> | undefined> {
    const others = whatsappNumberForms(number).filter((form) => form !== number);
    if (others.length === 0) return undefined;
    const [row] = await this.db.select(columns).from(contacts).where(inArray(contacts.number, others)).orderBy(contacts.id).limit(1);
    return row;
  }

  async setProfilePicUrl(id: number, url: string): Promise<void> {
    await this.db.update(contacts).set({ profilePicUrl: url, updatedAt: new Date() }).where(eq(contacts.id, id));
  }
}
