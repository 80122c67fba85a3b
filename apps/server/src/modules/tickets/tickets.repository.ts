import { searchExcerpt, type ContactDto, type QueueDto, type TicketDto, type TicketStatus } from '@wadesk/contracts';
import { and, count, desc, eq, gte, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { containsPattern, foldedContains, foldedPattern } from '../../db/like-pattern.js';
import { contacts, messages, queues, tickets, users, whatsapps } from '../../db/schema.js';
import { toQueueDto } from '../queues/queues.mapper.js';

export interface TicketListFilter {
  status?: TicketStatus;
  /** Lowercased text found in the contact's name or number, or in any message body. */
  search?: string;
  /** Tickets created on this day (YYYY-MM-DD, server time zone). */
  date?: string;
  /** Only tickets of these queues (and tickets without a queue); undefined for any. */
  queueIds?: number[];
  /** Restrict to what a non-admin may see: their queues, no queue, or assigned to them. */
  visibleTo?: { userId: number; queueIds: number[] };
  /** Without showAll: only the caller's tickets and pending ones. */
  mineOrPendingOf?: number;
  withUnreadMessages?: boolean;
  isGroup?: boolean;
}

export interface TicketWrite {
  status?: TicketStatus;
  userId?: number | null;
  queueId?: number | null;
  whatsappId?: number;
  protocol?: string | null;
  unreadMessages?: number;
  lastMessage?: string;
}

const ticketColumns = {
  ticket: tickets,
  contact: contacts,
  queue: queues,
  userName: users.name,
  whatsappName: whatsapps.name,
  /** When the newest message was created (epoch ms): the row's time (§2), not the ticket's last change. */
  lastMessageAt: sql<number | null>`(select floor(extract(epoch from max(m.created_at)) * 1000)::bigint from messages m where m.ticket_id = ${tickets.id})`.mapWith(
    (v: unknown) => (v === null || v === undefined ? null : Number(v)),
  ),
};

type TicketRow = {
  ticket: typeof tickets.$inferSelect;
  contact: typeof contacts.$inferSelect;
  queue: typeof queues.$inferSelect | null;
  userName: string | null;
  whatsappName: string | null;
  lastMessageAt: number | null;
};

function toContact(row: typeof contacts.$inferSelect): ContactDto {
  return {
    id: row.id,
    name: row.name,
    number: row.number,
    email: row.email,
    profilePicUrl: row.profilePicUrl,
    isGroup: row.isGroup,
    extraInfo: [],
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function toTicketDto(row: TicketRow): TicketDto {
  const t = row.ticket;
  const queue: QueueDto | null = row.queue ? toQueueDto(row.queue) : null;
  return {
    id: t.id,
    status: t.status as TicketStatus,
    userId: t.userId,
    queueId: t.queueId,
    whatsappId: t.whatsappId,
    contactId: t.contactId,
    contact: toContact(row.contact),
    queue,
    user: t.userId && row.userName ? { id: t.userId, name: row.userName } : null,
    whatsapp: row.whatsappName ? { id: t.whatsappId, name: row.whatsappName } : null,
    lastMessage: t.lastMessage,
    lastMessageAt: row.lastMessageAt === null ? null : new Date(row.lastMessageAt).toISOString(),
    unreadMessages: t.unreadMessages,
    isGroup: t.isGroup,
    protocol: t.protocol,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
  };
}

/** The only file that queries tickets. */
export class TicketsRepository {
  constructor(private readonly db: Executor) {}

  private selectDtos() {
    return this.db
      .select(ticketColumns)
      .from(tickets)
      .innerJoin(contacts, eq(contacts.id, tickets.contactId))
      .leftJoin(queues, eq(queues.id, tickets.queueId))
      .leftJoin(users, eq(users.id, tickets.userId))
      .leftJoin(whatsapps, eq(whatsapps.id, tickets.whatsappId));
  }

  async findDto(id: number): Promise<TicketDto | null> {
    const [row] = await this.selectDtos().where(eq(tickets.id, id)).limit(1);
    return row ? toTicketDto(row) : null;
  }

  async findDtos(ids: number[]): Promise<TicketDto[]> {
    if (ids.length === 0) return [];
    const rows = await this.selectDtos().where(inArray(tickets.id, ids));
    return rows.map(toTicketDto);
  }

  async findDtosOfContact(contactId: number): Promise<TicketDto[]> {
    const rows = await this.selectDtos().where(eq(tickets.contactId, contactId));
    return rows.map(toTicketDto);
  }

  async findDtosOfConnection(whatsappId: number): Promise<TicketDto[]> {
    const rows = await this.selectDtos().where(eq(tickets.whatsappId, whatsappId));
    return rows.map(toTicketDto);
  }

  private where(filter: TicketListFilter): SQL | undefined {
    const conditions: (SQL | undefined)[] = [];
    if (filter.status) conditions.push(eq(tickets.status, filter.status));
    if (filter.isGroup !== undefined) conditions.push(eq(tickets.isGroup, filter.isGroup));
    if (filter.withUnreadMessages) conditions.push(sql`${tickets.unreadMessages} > 0`);
    if (filter.date) {
      conditions.push(sql`${tickets.createdAt} >= ${filter.date}::date`);
      conditions.push(sql`${tickets.createdAt} < ${filter.date}::date + 1`);
    }
    if (filter.queueIds) {
      conditions.push(
        filter.queueIds.length > 0 ? or(inArray(tickets.queueId, filter.queueIds), isNull(tickets.queueId)) : isNull(tickets.queueId),
      );
    }
    if (filter.visibleTo) {
      const { userId, queueIds } = filter.visibleTo;
      conditions.push(
        or(
          eq(tickets.userId, userId),
          isNull(tickets.queueId),
          queueIds.length > 0 ? inArray(tickets.queueId, queueIds) : undefined,
        ),
      );
    }
    if (filter.mineOrPendingOf !== undefined) {
      conditions.push(or(eq(tickets.userId, filter.mineOrPendingOf), eq(tickets.status, 'pending')));
    }
    if (filter.search) {
      // Each subquery runs once (hashed) and can use the trigram indexes on contact names and message bodies,
      // both folded by f_unaccent(lower(...)) (message bodies in the stored search_text): case and accents are ignored.
      const pattern = containsPattern(filter.search);
      conditions.push(
        or(
          sql`${tickets.contactId} in (select c.id from contacts c where ${foldedContains(sql`c.name`, filter.search)} or c.number like ${pattern})`,
          sql`${tickets.id} in (select m.ticket_id from messages m where m.search_text like ${foldedPattern(filter.search)})`,
        ),
      );
    }
    return and(...conditions);
  }

  async list(filter: TicketListFilter, page: number, pageSize: number): Promise<{ tickets: TicketDto[]; count: number }> {
    if (filter.search) return this.search(filter, page, pageSize);
    const where = this.where(filter);
    const [total] = await this.db
      .select({ n: count() })
      .from(tickets)
      .innerJoin(contacts, eq(contacts.id, tickets.contactId))
      .where(where);
    const rows = await this.selectDtos()
      .where(where)
      .orderBy(desc(tickets.updatedAt), desc(tickets.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize);
    return { tickets: rows.map(toTicketDto), count: total?.n ?? 0 };
  }

  /** A search matches once (a CTE), then counts and pages the matches in the same statement. */
  private async search(filter: TicketListFilter, page: number, pageSize: number): Promise<{ tickets: TicketDto[]; count: number }> {
    const matched = this.db.$with('matched').as(
      this.db
        .select({ matchedId: sql<number>`${tickets.id}`.as('matched_id') })
        .from(tickets)
        .innerJoin(contacts, eq(contacts.id, tickets.contactId))
        .where(this.where(filter)),
    );
    const rows = await this.db
      .with(matched)
      .select({ ...ticketColumns, total: sql<number>`(select count(*) from ${matched})`.mapWith(Number) })
      .from(tickets)
      .innerJoin(matched, eq(matched.matchedId, tickets.id))
      .innerJoin(contacts, eq(contacts.id, tickets.contactId))
      .leftJoin(queues, eq(queues.id, tickets.queueId))
      .leftJoin(users, eq(users.id, tickets.userId))
      .leftJoin(whatsapps, eq(whatsapps.id, tickets.whatsappId))
      .orderBy(desc(tickets.updatedAt), desc(tickets.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize);
    const found = rows.map(toTicketDto);
    await this.attachSearchMatches(found, filter.search!);
    if (rows.length === 0 && page > 1) {
      const [total] = await this.db
        .select({ n: count() })
        .from(tickets)
        .innerJoin(contacts, eq(contacts.id, tickets.contactId))
        .where(this.where(filter));
      return { tickets: [], count: total?.n ?? 0 };
    }
    return { tickets: found, count: rows[0]?.total ?? 0 };
  }

  /**
   * The newest matching message of each ticket of a search page, as an excerpt around the match: one
   * statement for the page's tickets (their messages through the (ticket, created) index).
   */
  private async attachSearchMatches(page: TicketDto[], search: string): Promise<void> {
    if (page.length === 0) return;
    const rows = await this.db
      .selectDistinctOn([messages.ticketId], { ticketId: messages.ticketId, body: messages.body })
      .from(messages)
      .where(and(inArray(messages.ticketId, page.map((t) => t.id)), eq(messages.isDeleted, false), sql`${messages.searchText} like ${foldedPattern(search)}`))
      .orderBy(messages.ticketId, desc(messages.createdAt), desc(messages.id));
    const bodies = new Map(rows.map((r) => [r.ticketId, r.body]));
    for (const ticket of page) {
      const body = bodies.get(ticket.id);
      ticket.searchMatch = body ? searchExcerpt(body, search) : null;
    }
  }

  /** The open or pending ticket of a contact on a connection. */
  async findActive(contactId: number, whatsappId: number): Promise<number | null> {
    const [row] = await this.db
      .select({ id: tickets.id })
      .from(tickets)
      .where(and(eq(tickets.contactId, contactId), eq(tickets.whatsappId, whatsappId), inArray(tickets.status, ['open', 'pending'])))
      .limit(1);
    return row?.id ?? null;
  }

  /** The most recent closed ticket updated since `since`. */
  async findRecentlyClosed(contactId: number, whatsappId: number, since: Date): Promise<number | null> {
    const [row] = await this.db
      .select({ id: tickets.id })
      .from(tickets)
      .where(
        and(eq(tickets.contactId, contactId), eq(tickets.whatsappId, whatsappId), eq(tickets.status, 'closed'), gte(tickets.updatedAt, since)),
      )
      .orderBy(desc(tickets.updatedAt))
      .limit(1);
    return row?.id ?? null;
  }

  /** Reopens a closed ticket as pending; false when it is no longer closed (someone else won). */
  async reopenAsPending(id: number): Promise<boolean> {
    const rows = await this.db
      .update(tickets)
      .set({ status: 'pending', userId: null, updatedAt: new Date() })
      .where(and(eq(tickets.id, id), eq(tickets.status, 'closed')))
      .returning({ id: tickets.id });
    return rows.length > 0;
  }

  /** Inserts a ticket; the partial unique index refuses a second open or pending one (23505). */
  async insert(data: { contactId: number; whatsappId: number; status: TicketStatus; userId?: number | null; queueId?: number | null; isGroup: boolean }): Promise<number> {
    const [row] = await this.db.insert(tickets).values(data).returning({ id: tickets.id });
    return row!.id;
  }

  async update(id: number, data: TicketWrite): Promise<void> {
    await this.db
      .update(tickets)
      .set({ ...data, updatedAt: new Date() })
      .where(eq(tickets.id, id));
  }

  /** Records a new message on the ticket: last message, and one more unread when it came from the contact. */
  async touchWithMessage(id: number, lastMessage: string, unread: boolean): Promise<void> {
    await this.db
      .update(tickets)
      .set({
        lastMessage,
        unreadMessages: unread ? sql`${tickets.unreadMessages} + 1` : tickets.unreadMessages,
        updatedAt: new Date(),
      })
      .where(eq(tickets.id, id));
  }

  async delete(id: number): Promise<boolean> {
    const rows = await this.db.delete(tickets).where(eq(tickets.id, id)).returning({ id: tickets.id });
    return rows.length > 0;
  }

  /** Closes every open and pending ticket matching the filter; returns their ids. */
  async closeAll(filter: TicketListFilter): Promise<number[]> {
    const ids = await this.db
      .select({ id: tickets.id })
      .from(tickets)
      .innerJoin(contacts, eq(contacts.id, tickets.contactId))
      .where(and(this.where(filter), inArray(tickets.status, ['open', 'pending'])));
    if (ids.length === 0) return [];
    const rows = await this.db
      .update(tickets)
      .set({ status: 'closed', updatedAt: new Date() })
      .where(and(inArray(tickets.id, ids.map((r) => r.id)), inArray(tickets.status, ['open', 'pending'])))
      .returning({ id: tickets.id });
    return rows.map((r) => r.id);
  }

  /** Closes open tickets not updated since `before`; returns their ids. */
  async closeStale(before: Date): Promise<number[]> {
    const rows = await this.db
      .update(tickets)
      .set({ status: 'closed', updatedAt: new Date() })
      .where(and(eq(tickets.status, 'open'), lt(tickets.updatedAt, before)))
      .returning({ id: tickets.id });
    return rows.map((r) => r.id);
  }

  /** Counts by status for the dashboard, limited like a listing. */
  async countByStatus(filter: TicketListFilter): Promise<Record<TicketStatus, number>> {
    const rows = await this.db
      .select({ status: tickets.status, n: count() })
      .from(tickets)
      .innerJoin(contacts, eq(contacts.id, tickets.contactId))
      .where(this.where(filter))
      .groupBy(tickets.status);
    const result: Record<TicketStatus, number> = { open: 0, pending: 0, closed: 0 };
    for (const r of rows) result[r.status as TicketStatus] = r.n;
    return result;
  }

  /** Tickets created per hour of the day in `timeZone` (an IANA name) between `from` and `to`. */
  async createdPerHour(filter: TicketListFilter, from: Date, to: Date, timeZone: string): Promise<Map<number, number>> {
    const rows = await this.db
      .select({ hour: sql<number>`extract(hour from ${tickets.createdAt} at time zone ${timeZone})::int`, n: count() })
      .from(tickets)
      .innerJoin(contacts, eq(contacts.id, tickets.contactId))
      .where(and(this.where(filter), gte(tickets.createdAt, from), lt(tickets.createdAt, to)))
      .groupBy(sql`1`);
    return new Map(rows.map((r) => [Number(r.hour), r.n]));
  }
}
