import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { contacts } from '../../db/schema.js';

export interface InboundContact {
  id: number;
  name: string;
  number: string;
  profilePicUrl: string;
  /** Created by this call. */
  created: boolean;
}

/** Contacts as the inbound pipeline sees them: found or created by number, race-free. */
export class ContactsInboundRepository {
  constructor(private readonly db: Executor) {}

  /**
   * Finds the contact with this number or creates it. A name the network gives replaces a name that was
   * only the number; a name someone typed is kept.
   */
  async upsertByNumber(number: string, name: string | undefined, isGroup: boolean): Promise<InboundContact> {
    const given = name?.trim().slice(0, 200) || number;
    const rows = await this.db
      .insert(contacts)
      .values({ number, name: given, isGroup })
      .onConflictDoUpdate({
        target: contacts.number,
        set: {
          name: sql`case when ${contacts.name} = ${contacts.number} and excluded.name <> excluded.number then excluded.name else ${contacts.name} end`,
        },
      })
      .returning({
        id: contacts.id,
        name: contacts.name,
        number: contacts.number,
        profilePicUrl: contacts.profilePicUrl,
        created: sql<boolean>`(xmax = 0)`,
      });
    const row = rows[0]!;
    return { ...row, created: Boolean(row.created) };
  }

  async setProfilePicUrl(id: number, url: string): Promise<void> {
    await this.db.update(contacts).set({ profilePicUrl: url, updatedAt: new Date() }).where(eq(contacts.id, id));
  }
}
