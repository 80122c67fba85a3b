import type { MediaType, MessageDto, SenderKind } from '@wadesk/contracts';
import { and, asc, count, desc, eq, inArray } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.js';
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

  async findIdByChannelId(whatsappId: number, channelMessageId: string): Promise<number | null> {
    const [row] = await this.db
      .select({ id: messages.id })
      .from(messages)
      .where(and(eq(messages.whatsappId, whatsappId), eq(messages.channelMessageId, channelMessageId)))
      .limit(1);
    return row?.id ?? null;
  }

  async findRecord(id: number) {
    const [row] = await this.db.select().from(messages).where(eq(messages.id, id)).limit(1);
    return row ?? null;
  }

  private selectDtos() {
    return this.db
      .select({ message: messages, contactName: contacts.name, quoted, quotedContactName: quotedContact.name })
      .from(messages)
      .leftJoin(contacts, eq(contacts.id, messages.contactId))
      .leftJoin(quoted, eq(quoted.id, messages.quotedMsgId))
      .leftJoin(quotedContact, eq(quotedContact.id, quoted.contactId));
  }

  async findDto(id: number): Promise<MessageDto | null> {
    const [row] = await this.selectDtos().where(eq(messages.id, id)).limit(1);
    return row ? toMessageDto(row) : null;
  }

  /** One page of a ticket's messages, newest pages first, oldest-to-newest within the page. */
  async listPage(ticketId: number, page: number, pageSize: number): Promise<{ messages: MessageDto[]; count: number }> {
    const [total] = await this.db.select({ n: count() }).from(messages).where(eq(messages.ticketId, ticketId));
    const rows = await this.selectDtos()
      .where(eq(messages.ticketId, ticketId))
      .orderBy(desc(messages.createdAt), desc(messages.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize);
    return { messages: rows.reverse().map(toMessageDto), count: total?.n ?? 0 };
  }

  /** When the message just newer than a page was created (where the page's span of time ends); null for page 1. */
  async newerNeighbourTime(ticketId: number, page: number, pageSize: number): Promise<Date | null> {
    if (page <= 1) return null;
    const [row] = await this.db
      .select({ createdAt: messages.createdAt })
      .from(messages)
      .where(eq(messages.ticketId, ticketId))
      .orderBy(desc(messages.createdAt), desc(messages.id))
      .limit(1)
      .offset((page - 1) * pageSize - 1);
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
