import { SETTING_DEFINITIONS } from '@wadesk/contracts';
import { sql } from 'drizzle-orm';
import { rowsOf, type Executor } from '../../db/client.js';
import { batchedRead, keysParam, perDatabase } from '../../db/batched.js';
import { preparedSql } from '../../db/prepared.js';
import type { InboundContact } from '../contacts/contacts-inbound.repository.js';

/** What the inbound pipeline needs to know about a message before storing it, read in one statement. */
export interface InboundLookup {
  /** This network id is already stored for this connection (a resend). */
  duplicate: boolean;
  /** The contact with the chat's number, when there is one. */
  contact: Omit<InboundContact, 'created'> | null;
  /** The contact's open or pending ticket on this connection. */
  activeTicketId: number | null;
  /** The stored message the new one quotes, when it quotes one that is stored. */
  quotedMsgId: number | null;
  /** The connection still exists. */
  connectionExists: boolean;
  /** How many queues the connection has (none: no queue to choose, no menu). */
  connectionQueues: number;
  /** The `typebot` setting (its default when unset): whether the chatbot may answer at all. */
  typebot: string;
}

/**
 * The inbound pipeline's read of every message: is it a resend, who is the contact, which ticket is active, what
 * does it quote, does the connection exist and have queues, may the chatbot answer. One round trip instead of four (each a query of its own repository before), the usual message of a
 * known contact in an active ticket then being one more statement to store (MessagesRepository.insertIntoTicketShared).
 */
export class InboundRepository {
  constructor(private readonly db: Executor) {}

  /** Read with the lookups of every message arriving in the same turn of the event loop: one statement (db/batched.ts). */
  lookup(whatsappId: number, channelMessageId: string, number: string, quotedChannelId: string | null): Promise<InboundLookup> {
    return lookupReader(this.db)({ w: whatsappId, id: channelMessageId, number, quoted: quotedChannelId });
  }
}

/** One message's lookup key (short names: a batch's keys travel as one JSON parameter). */
interface LookupKey {
  w: number;
  id: string;
  number: string;
  quoted: string | null;
}

const lookupReader = perDatabase((db) => batchedRead((keys: readonly LookupKey[]) => lookupMany(db, keys)));

async function lookupMany(db: Executor, keys: readonly LookupKey[]): Promise<InboundLookup[]> {
  const statement = preparedSql(
    db,
    'inbound.lookupMany',
    () => sql`
      select k.i,
        exists (select 1 from messages where whatsapp_id = k.w and channel_message_id = k.id) as duplicate,
        c.id, c.name, c.number, c.profile_pic_url,
        (select t.id from tickets t
          where t.contact_id = c.id and t.whatsapp_id = k.w and t.status in ('open', 'pending') limit 1) as active_ticket_id,
        (select q.id from messages q where q.whatsapp_id = k.w and q.channel_message_id = k.quoted limit 1) as quoted_msg_id,
        exists (select 1 from whatsapps where id = k.w) as connection_exists,
        (select count(*)::int from whatsapp_queues where whatsapp_id = k.w) as connection_queues,
        (select value from settings where key = 'typebot') as typebot
      from json_to_recordset(${sql.placeholder('keys')}::json) as k(i int, w int, id text, number text, quoted text)
      left join contacts c on c.number = k.number`,
  );
  const rows = rowsOf<{
    i: number;
    duplicate: boolean;
    id: number | null;
    name: string;
    number: string;
    profile_pic_url: string;
    active_ticket_id: number | null;
    quoted_msg_id: number | string | null;
    connection_exists: boolean;
    connection_queues: number;
    typebot: string | null;
  }>(await statement.execute({ keys: keysParam(keys) }));
  const answers: InboundLookup[] = new Array(keys.length);
  for (const row of rows) {
    answers[row.i] = {
      duplicate: row.duplicate,
      contact: row.id === null ? null : { id: row.id, name: row.name, number: row.number, profilePicUrl: row.profile_pic_url },
      activeTicketId: row.active_ticket_id,
      quotedMsgId: row.quoted_msg_id === null ? null : Number(row.quoted_msg_id),
      connectionExists: row.connection_exists,
      connectionQueues: row.connection_queues,
      typebot: row.typebot ?? SETTING_DEFINITIONS.typebot.default,
    };
  }
  return answers;
}
