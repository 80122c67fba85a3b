import { SETTING_DEFINITIONS } from '@wadesk/contracts';
import { sql } from 'drizzle-orm';
import { rowsOf, type Executor } from '../../db/client.js';
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
 * known contact in an active ticket then being one more statement to store (MessagesRepository.insertIntoTicket).
 */
export class InboundRepository {
  constructor(private readonly db: Executor) {}

  async lookup(whatsappId: number, channelMessageId: string, number: string, quotedChannelId: string | null): Promise<InboundLookup> {
    const statement = preparedSql(
      this.db,
      'inbound.lookup',
      () => sql`
        select
          exists (select 1 from messages where whatsapp_id = ${sql.placeholder('whatsappId')} and channel_message_id = ${sql.placeholder('channelMessageId')}) as duplicate,
          c.id, c.name, c.number, c.profile_pic_url,
          (select t.id from tickets t
            where t.contact_id = c.id and t.whatsapp_id = ${sql.placeholder('whatsappId')} and t.status in ('open', 'pending') limit 1) as active_ticket_id,
          (select q.id from messages q
            where q.whatsapp_id = ${sql.placeholder('whatsappId')} and q.channel_message_id = ${sql.placeholder('quotedChannelId')} limit 1) as quoted_msg_id,
          exists (select 1 from whatsapps where id = ${sql.placeholder('whatsappId')}) as connection_exists,
          (select count(*)::int from whatsapp_queues where whatsapp_id = ${sql.placeholder('whatsappId')}) as connection_queues,
          (select value from settings where key = 'typebot') as typebot
        from (select 1) as one
        left join contacts c on c.number = ${sql.placeholder('number')}`,
    );
    const [row] = rowsOf<{
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
    }>(await statement.execute({ whatsappId, channelMessageId, number, quotedChannelId }));
    return {
      duplicate: row!.duplicate,
      contact: row!.id === null ? null : { id: row!.id, name: row!.name, number: row!.number, profilePicUrl: row!.profile_pic_url },
      activeTicketId: row!.active_ticket_id,
      quotedMsgId: row!.quoted_msg_id === null ? null : Number(row!.quoted_msg_id),
      connectionExists: row!.connection_exists,
      connectionQueues: row!.connection_queues,
      typebot: row!.typebot ?? SETTING_DEFINITIONS.typebot.default,
    };
  }
}
