import type { MediaType, MessageDto, SenderKind } from '@wadesk/contracts';
import { and, asc, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { rowsOf, type Executor } from '../../db/client.js';
import { prepared, preparedSql } from '../../db/prepared.js';
import { contacts, messages, tickets } from '../../db/schema.js';

export interface MessageWrite {
  channelMessageId: string;
  whatsappId: number;
  ticketId: number;
  contactId: number | null;
  body: string;
  fromMe: boolean;
  read: boolean;
  mediaType: MediaType | null;
  mediaUrl: string | null;
  ack: number;
  quotedMsgId: number | null;
  participantName: string | null;
  sentByUserId?: number | null;
  senderKind: SenderKind;
  mediaDuration?: number | null;
  createdAt?: Date;
}

const quoted = alias(messages, 'quoted');
const quotedContact = alias(contacts, 'quoted_contact');

/** The only file that queries messages. */
export class MessagesRepository {
  constructor(private readonly db: Executor) {}

  /** Stores a message once per network id; null when that id was already stored. */
  async insertOnce(data: MessageWrite): Promise<number | null> {
    const rows = await this.db
      .insert(messages)
      .values(data)
      .onConflictDoNothing({ target: [messages.whatsappId, messages.channelMessageId] })
      .returning({ id: messages.id });
    return rows[0]?.id ?? null;
  }

  /**
   * Stores a message in a ticket that already exists and records it on the ticket (its preview, one more unread
   * when it came from the contact): one statement, so one commit and nothing half stored. Null when that
   * network id was already stored; the ticket is then left as it was.
   */
  async insertIntoTicket(data: MessageWrite, preview: string, unread: boolean): Promise<number | null> {
    const statement = preparedSql(
      this.db,
      'messages.insertIntoTicket',
      () => sql`
        with inserted as (
          insert into messages (channel_message_id, whatsapp_id, ticket_id, contact_id, body, from_me, read, media_type, media_url, ack,
                                quoted_msg_id, participant_name, sent_by_user_id, sender_kind, media_duration, created_at)
          values (${sql.placeholder('channelMessageId')}, ${sql.placeholder('whatsappId')}, ${sql.placeholder('ticketId')}, ${sql.placeholder('contactId')},
                  ${sql.placeholder('body')}, ${sql.placeholder('fromMe')}, ${sql.placeholder('read')}, ${sql.placeholder('mediaType')},
                  ${sql.placeholder('mediaUrl')}, ${sql.placeholder('ack')}, ${sql.placeholder('quotedMsgId')}, ${sql.placeholder('participantName')},
                  ${sql.placeholder('sentByUserId')}, ${sql.placeholder('senderKind')}, ${sql.placeholder('mediaDuration')}, ${sql.placeholder('createdAt')})
          on conflict (whatsapp_id, channel_message_id) do nothing
          returning id
        ), touched as (
          update tickets
          set last_message = ${sql.placeholder('preview')}, unread_messages = unread_messages + ${sql.placeholder('unread')}, updated_at = ${sql.placeholder('now')}
          where id = ${sql.placeholder('ticketId')} and exists (select 1 from inserted)
        )
        select id from inserted`,
    );
    const [row] = rowsOf<{ id: number | string }>(
      await statement.execute({
        ...data,
        sentByUserId: data.sentByUserId ?? null,
        mediaDuration: data.mediaDuration ?? null,
        createdAt: (data.createdAt ?? new Date()).toISOString(),
        preview,
        unread: unread ? 1 : 0,
        now: new Date().toISOString(),
      }),
    );
    return row ? Number(row.id) : null;
  }

  /** Read for every inbound message (is it a resend?): a prepared statement. */
  async findIdByChannelId(whatsappId: number, channelMessageId: string): Promise<number | null> {
    const byChannelId = prepared(this.db, 'messages.idByChannelId', (name) =>
      this.db
        .select({ id: messages.id })
        .from(messages)
        .where(and(eq(messages.whatsappId, sql.placeholder('whatsappId')), eq(messages.channelMessageId, sql.placeholder('channelMessageId'))))
        .limit(1)
        .prepare(name),
    );
    const [row] = await byChannelId.execute({ whatsappId, channelMessageId });
    return row?.id ?? null;
  }

  async findRecord(id: number) {
    const [row] = await this.db.select().from(messages).where(eq(messages.id, id)).limit(1);
    return row ?? null;
  }

  private selectDtos<Extra extends Record<string, SQL.Aliased | SQL>>(extra?: Extra) {
    return this.db
      .select({ message: messages, contactName: contacts.name, quoted, quotedContactName: quotedContact.name, ...(extra as Extra) })
      .from(messages)
      .leftJoin(contacts, eq(contacts.id, messages.contactId))
      .leftJoin(quoted, eq(quoted.id, messages.quotedMsgId))
      .leftJoin(quotedContact, eq(quotedContact.id, quoted.contactId));
  }

  /** Read for every message sent or received (its live event): a prepared statement. */
  async findDto(id: number): Promise<MessageDto | null> {
    const byId = prepared(this.db, 'messages.dtoById', (name) => this.selectDtos().where(eq(messages.id, sql.placeholder('id'))).limit(1).prepare(name));
    const [row] = await byId.execute({ id });
    return row ? toMessageDto(row) : null;
  }

  /** One page of a ticket's messages, newest pages first, oldest-to-newest within the page. */
  async listPage(ticketId: number, page: number, pageSize: number): Promise<{ messages: MessageDto[]; count: number }> {
    // The count rides along with the page (an uncorrelated subquery, run once); a page past the end counts alone.
    const paged = prepared(this.db, 'messages.pageOfTicket', (name) =>
      this.selectDtos({ total: sql<number>`(select count(*)::int from ${messages} where ${messages.ticketId} = ${sql.placeholder('ticketId')})` })
        .where(eq(messages.ticketId, sql.placeholder('ticketId')))
        .orderBy(desc(messages.createdAt), desc(messages.id))
        .limit(sql.placeholder('limit'))
        .offset(sql.placeholder('offset'))
        .prepare(name),
    );
    const rows = await paged.execute({ ticketId, limit: pageSize, offset: (page - 1) * pageSize });
    let total = rows[0]?.total ?? (page === 1 ? 0 : undefined);
    if (total === undefined) {
      const counted = prepared(this.db, 'messages.countOfTicket', (name) =>
        this.db.select({ n: count() }).from(messages).where(eq(messages.ticketId, sql.placeholder('ticketId'))).prepare(name),
      );
      total = (await counted.execute({ ticketId }))[0]?.n ?? 0;
    }
    return { messages: rows.reverse().map(toMessageDto), count: total };
  }

  /** When the message just newer than a page was created (where the page's span of time ends); null for page 1. */
  async newerNeighbourTime(ticketId: number, page: number, pageSize: number): Promise<Date | null> {
    if (page <= 1) return null;
    const neighbour = prepared(this.db, 'messages.timeAtOffset', (name) =>
      this.db
        .select({ createdAt: messages.createdAt })
        .from(messages)
        .where(eq(messages.ticketId, sql.placeholder('ticketId')))
        .orderBy(desc(messages.createdAt), desc(messages.id))
        .limit(1)
        .offset(sql.placeholder('offset'))
        .prepare(name),
    );
    const [row] = await neighbour.execute({ ticketId, offset: (page - 1) * pageSize - 1 });
    return row?.createdAt ?? null;
  }

  /** Updates the delivery state, never backwards; returns the message id when it changed. */
  async updateAck(whatsappId: number, channelMessageId: string, ack: number): Promise<number | null> {
    const rows = await this.db
      .update(messages)
      .set({ ack, updatedAt: new Date() })
      .where(and(eq(messages.whatsappId, whatsappId), eq(messages.channelMessageId, channelMessageId), lessThanAck(ack)))
      .returning({ id: messages.id });
    return rows[0]?.id ?? null;
  }

  async setAck(id: number, ack: number): Promise<void> {
    await this.db.update(messages).set({ ack, updatedAt: new Date() }).where(eq(messages.id, id));
  }

  /** Removes a message that never left (the network refused it). */
  async remove(id: number): Promise<void> {
    await this.db.delete(messages).where(eq(messages.id, id));
  }

  async markDeleted(id: number): Promise<void> {
    await this.db.update(messages).set({ isDeleted: true, updatedAt: new Date() }).where(eq(messages.id, id));
  }

  /** Marks a ticket's messages read and zeroes its unread count. */
  async markTicketRead(ticketId: number): Promise<void> {
    await this.db.update(messages).set({ read: true }).where(and(eq(messages.ticketId, ticketId), eq(messages.read, false)));
    await this.db.update(tickets).set({ unreadMessages: 0 }).where(eq(tickets.id, ticketId));
  }

  async countByTicket(ticketIds: number[]): Promise<Map<number, number>> {
    if (ticketIds.length === 0) return new Map();
    const rows = await this.db
      .select({ ticketId: messages.ticketId, n: count() })
      .from(messages)
      .where(inArray(messages.ticketId, ticketIds))
      .groupBy(messages.ticketId)
      .orderBy(asc(messages.ticketId));
    return new Map(rows.map((r) => [r.ticketId, r.n]));
  }
}

function lessThanAck(ack: number) {
  return inArray(
    messages.ack,
    [0, 1, 2, 3, 4].filter((a) => a < ack),
  );
}

type MessageRow = {
  message: typeof messages.$inferSelect;
  contactName: string | null;
  quoted: typeof messages.$inferSelect | null;
  quotedContactName: string | null;
};

function toMessageDto(row: MessageRow): MessageDto {
  const m = row.message;
  const q = row.quoted;
  return {
    id: m.id,
    ticketId: m.ticketId,
    body: m.body,
    fromMe: m.fromMe,
    read: m.read,
    isDeleted: m.isDeleted,
    mediaType: (m.mediaType as MediaType | null) ?? null,
    mediaUrl: m.mediaUrl,
    ack: m.ack,
    quotedMsg: q
      ? {
          id: q.id,
          fromMe: q.fromMe,
          body: q.body,
          contact: row.quotedContactName ? { name: row.quotedContactName } : null,
          mediaType: (q.mediaType as MediaType | null) ?? null,
          mediaDuration: q.mediaDuration,
        }
      : null,
    contact: row.contactName ? { name: row.contactName } : null,
    participantName: m.participantName,
    senderKind: m.senderKind as SenderKind,
    mediaDuration: m.mediaDuration,
    createdAt: m.createdAt.toISOString(),
  };
}
