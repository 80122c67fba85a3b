import { isReactionEmoji, type MediaType, type MessageDto, type MessageOrigin, type SenderKind, type TicketDto, type TicketEventDto } from '@wadesk/contracts';
import { and, asc, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { rowsOf, type Executor } from '../../db/client.js';
import { BatchedWrites, batchedRead, keysParam, perDatabase } from '../../db/batched.js';
import { isoTime, jsonArrayText, jsonText, JsonText } from '../../db/json-sql.js';
import { intArrayParam, prepared, preparedSql } from '../../db/prepared.js';
import { ticketEventFromJson, type TicketEventJson } from '../tickets/ticket-events.repository.js';
import { TICKET_DTO_JOINS, TICKET_DTO_JSON, TICKET_WITH_EARLIER } from '../tickets/tickets.repository.js';
import { contacts, messages, tickets, users } from '../../db/schema.js';

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
  origin?: MessageOrigin | null;
  originId?: number | null;
  createdAt?: Date;
  /** An internal note (issue 36 §1): never handed to the network. */
  private?: boolean;
}

const quoted = alias(messages, 'quoted');
const quotedContact = alias(contacts, 'quoted_contact');
const sender = alias(users, 'sender');

const { string, scalar, time, when, object } = jsonText;

/** `{ name }` of a contact or null when it has none (a message's sender, a quoted message's). */
const nameOf = (column: SQL) => when(sql`coalesce(${column}, '') <> ''`, object({ name: string(column) }));

/**
 * A message's DTO as JSON text built by PostgreSQL (the same fields as `toMessageDto`), from the message `m`, its
 * contact `c`, the message it quotes `q` and that one's contact `qc`: for statements that return DTOs without
 * mapping joined rows in the server.
 */
const MESSAGE_DTO_TEXT = object({
  id: scalar(sql`m.id`),
  ticketId: scalar(sql`m.ticket_id`),
  body: string(sql`m.body`),
  fromMe: scalar(sql`m.from_me`),
  read: scalar(sql`m.read`),
  isDeleted: scalar(sql`m.is_deleted`),
  mediaType: string(sql`m.media_type`),
  mediaUrl: string(sql`m.media_url`),
  ack: scalar(sql`m.ack`),
  quotedMsg: when(
    sql`q.id is not null`,
    object({
      id: scalar(sql`q.id`),
      fromMe: scalar(sql`q.from_me`),
      body: string(sql`q.body`),
      contact: nameOf(sql`qc.name`),
      mediaType: string(sql`q.media_type`),
      mediaDuration: scalar(sql`q.media_duration`),
    }),
  ),
  contact: nameOf(sql`c.name`),
  participantName: string(sql`m.participant_name`),
  senderKind: string(sql`m.sender_kind`),
  mediaDuration: scalar(sql`m.media_duration`),
  sendError: string(sql`m.send_error`),
  origin: string(sql`m.origin`),
  originId: scalar(sql`m.origin_id`),
  private: scalar(sql`m.private`),
  sentBy: when(sql`su.id is not null`, object({ id: scalar(sql`su.id`), name: string(sql`su.name`) })),
  createdAt: time(sql`m.created_at`),
});

/** `MESSAGE_DTO_TEXT` as a json value (the driver reads it as an object). */
export const MESSAGE_DTO_JSON = sql`${MESSAGE_DTO_TEXT.sql}::json`;

/**
 * Joins the contact `c` (from `contactsSource`: the contacts table, or a statement's own new contact, which the table
 * does not show to that statement), the quoted message and its contact that MESSAGE_DTO_JSON reads, to messages `m`.
 */
export const messageDtoJoins = (contactsSource: SQL) => sql`left join ${contactsSource} c on c.id = m.contact_id
  left join messages q on q.id = m.quoted_msg_id
  left join contacts qc on qc.id = q.contact_id
  left join users su on su.id = m.sent_by_user_id`;

/**
 * The columns `dto` and `ticket`: message `m` (joined by `messageDtoJoins`) and its ticket as clients get them, the
 * ticket read from `ticketsSource` (the tickets table, or the statement's own updated rows, which the table does not
 * show to that statement); `ticket` is null when the ticket is gone.
 */
const messageWithTicketColumns = (ticketsSource: SQL) => sql`${MESSAGE_DTO_JSON} as dto,
  (select ${TICKET_DTO_JSON} from ${ticketsSource} t ${TICKET_DTO_JOINS} where t.id = m.ticket_id) as ticket`;

/** The one row of a statement that selects `messageWithTicketColumns`; null when it found no message. */
function messageWithTicket(result: unknown): { message: MessageDto; ticket: TicketDto | null } | null {
  const [row] = rowsOf<{ dto: MessageDto; ticket: TicketDto | null }>(result);
  return row ? { message: row.dto, ticket: row.ticket } : null;
}

/**
 * An insert of one message (once per network id), its ticket and contact ids given by `head` (`values (t, c, ` or
 * `select t, c, `) and the statement closed by `tail`; the other values are MessageWrite's, as `messageValues` names them,
 * each cast (an insert's `select` does not take its parameters' types from the columns, as `values` does).
 */
function insertMessage(head: SQL, tail: SQL): SQL {
  const p = (name: string) => sql.placeholder(name);
  return sql`insert into messages (ticket_id, contact_id, channel_message_id, whatsapp_id, body, from_me, read, media_type, media_url, ack,
                              quoted_msg_id, participant_name, sent_by_user_id, sender_kind, media_duration, origin, origin_id, created_at)
    ${head}${p('channelMessageId')}::varchar, ${p('whatsappId')}::int, ${p('body')}::text, ${p('fromMe')}::boolean, ${p('read')}::boolean,
      ${p('mediaType')}::varchar, ${p('mediaUrl')}::text, ${p('ack')}::int, ${p('quotedMsgId')}::bigint, ${p('participantName')}::varchar,
      ${p('sentByUserId')}::int, ${p('senderKind')}::varchar, ${p('mediaDuration')}::int, ${p('origin')}::varchar, ${p('originId')}::int,
      ${p('createdAt')}::timestamptz ${tail}
    on conflict (whatsapp_id, channel_message_id) do nothing
    returning *`;
}

/** A MessageWrite as the placeholders of `insertMessage`. */
function messageValues(data: MessageWrite): Record<string, unknown> {
  return {
    ...data,
    sentByUserId: data.sentByUserId ?? null,
    mediaDuration: data.mediaDuration ?? null,
    origin: data.origin ?? null,
    originId: data.originId ?? null,
    createdAt: (data.createdAt ?? new Date()).toISOString(),
  };
}

interface SharedInsert {
  data: MessageWrite;
  preview: string;
  unread: boolean;
}

const sharedInserts = perDatabase(
  (db) =>
    new BatchedWrites((items: readonly SharedInsert[]) => insertIntoTickets(db, items), {
      max: 64,
      conflicts: (item) => [`t${item.data.ticketId}`, `m${item.data.whatsappId}:${item.data.channelMessageId}`],
      single: (item) => new MessagesRepository(db).insertIntoTicket(item.data, item.preview, item.unread),
    }),
);

/** The statement behind `insertIntoTicketShared`: each message into its ticket (all different), answered in their order. */
async function insertIntoTickets(db: Executor, items: readonly SharedInsert[]): Promise<({ message: MessageDto; ticket: TicketDto } | null)[]> {
  const statement = preparedSql(
    db,
    'messages.insertIntoTickets',
    () => sql`
      with k as (
        select * from json_to_recordset(${sql.placeholder('rows')}::json) as k(${MESSAGE_ROW_COLUMNS}, ticket_id int, contact_id int, preview text, unread int)
      ), inserted as (
        insert into messages (ticket_id, contact_id, ${MESSAGE_ROW_INSERT})
        select ticket_id, contact_id, ${MESSAGE_ROW_INSERT} from k order by i
        on conflict (whatsapp_id, channel_message_id) do nothing
        returning *
      ), touched as (
        update tickets t
        set last_message = k.preview, unread_messages = t.unread_messages + k.unread, updated_at = ${sql.placeholder('now')},
          last_message_at = greatest(t.last_message_at, m.created_at)
        from inserted m join k on k.whatsapp_id = m.whatsapp_id and k.channel_message_id = m.channel_message_id
        where t.id = m.ticket_id
        returning t.*
      )
      select k.i, ${messageWithTicketColumns(sql`touched`)}
      from inserted m join k on k.whatsapp_id = m.whatsapp_id and k.channel_message_id = m.channel_message_id
      ${messageDtoJoins(sql`contacts`)}`,
  );
  const rows = items.map(({ data, preview, unread }, i) => ({
    ...messageRow(data, i),
    ticket_id: data.ticketId,
    contact_id: data.contactId,
    preview,
    unread: unread ? 1 : 0,
  }));
  const answers = new Array<{ message: MessageDto; ticket: TicketDto } | null>(items.length).fill(null);
  const result = rowsOf<{ i: number; dto: MessageDto; ticket: TicketDto | null }>(
    await statement.execute({ rows: JSON.stringify(rows), now: new Date().toISOString() }),
  );
  for (const row of result) if (row.ticket) answers[row.i] = { message: row.dto, ticket: row.ticket };
  return answers;
}

interface NewChatInsert {
  contact: { number: string; name: string; isGroup: boolean };
  queueId: number | null;
  data: Omit<MessageWrite, 'ticketId' | 'contactId'>;
  preview: string;
  unread: boolean;
}

export interface NewChatStored {
  contactId: number;
  ticketId: number;
  message: MessageDto;
  ticket: TicketDto;
}

const newChatInserts = perDatabase(
  (db) =>
    new BatchedWrites((items: readonly NewChatInsert[]) => insertWithNewChats(db, items), {
      max: 64,
      conflicts: (item) => [`n${item.contact.number}`, `m${item.data.whatsappId}:${item.data.channelMessageId}`],
      single: async (item) => (await insertWithNewChats(db, [item]))[0]!,
    }),
);

/** A message's columns as `json_to_recordset` rows name them (with its index `i` in the batch). */
function messageRow(data: Omit<MessageWrite, 'ticketId' | 'contactId'>, i: number) {
  const values = messageValues({ ...data, ticketId: 0, contactId: null });
  return {
    i,
    channel_message_id: data.channelMessageId,
    whatsapp_id: data.whatsappId,
    body: data.body,
    from_me: data.fromMe,
    read: data.read,
    media_type: data.mediaType,
    media_url: data.mediaUrl,
    ack: data.ack,
    quoted_msg_id: data.quotedMsgId,
    participant_name: data.participantName,
    sent_by_user_id: values.sentByUserId,
    sender_kind: data.senderKind,
    media_duration: values.mediaDuration,
    origin: values.origin,
    origin_id: values.originId,
    created_at: values.createdAt,
  };
}

/** The columns of `messageRow`, for a `json_to_recordset` column list. */
const MESSAGE_ROW_COLUMNS = sql.raw(`i int, channel_message_id varchar, whatsapp_id int, body text, from_me boolean, read boolean,
  media_type varchar, media_url text, ack int, quoted_msg_id bigint, participant_name varchar, sent_by_user_id int,
  sender_kind varchar, media_duration int, origin varchar, origin_id int, created_at timestamptz`);

/** The messages columns `messageRow` fills, but for the ticket and contact. */
const MESSAGE_ROW_INSERT = sql.raw(`channel_message_id, whatsapp_id, body, from_me, read, media_type, media_url, ack,
  quoted_msg_id, participant_name, sent_by_user_id, sender_kind, media_duration, origin, origin_id, created_at`);

/** The statement behind `insertWithNewChat`: each first message with its new contact and ticket, in their order. */
async function insertWithNewChats(db: Executor, items: readonly NewChatInsert[]): Promise<(NewChatStored | null)[]> {
  const statement = preparedSql(
    db,
    'messages.insertWithNewChats',
    () => sql`
      with k as (
        select * from json_to_recordset(${sql.placeholder('rows')}::json) as k(${MESSAGE_ROW_COLUMNS},
          number varchar, name varchar, is_group boolean, queue_id int, preview text, unread int)
      ), new_contact as (
        insert into contacts (number, name, is_group, created_at, updated_at)
        select number, name, is_group, ${sql.placeholder('now')}::timestamptz, ${sql.placeholder('now')}::timestamptz from k order by i
        on conflict (number) do nothing
        returning *
      ), new_ticket as (
        insert into tickets (contact_id, whatsapp_id, status, is_group, queue_id, last_message, last_message_at, unread_messages, created_at, updated_at)
        select c.id, k.whatsapp_id, 'pending', k.is_group, k.queue_id, k.preview, k.created_at, k.unread, ${sql.placeholder('now')}::timestamptz, ${sql.placeholder('now')}::timestamptz
        from new_contact c join k on k.number = c.number order by k.i
        returning *
      ), inserted as (
        insert into messages (ticket_id, contact_id, ${MESSAGE_ROW_INSERT})
        select t.id, case when k.from_me then null else t.contact_id end, ${sql.raw(`k.channel_message_id, k.whatsapp_id, k.body, k.from_me, k.read,
          k.media_type, k.media_url, k.ack, k.quoted_msg_id, k.participant_name, k.sent_by_user_id, k.sender_kind, k.media_duration, k.origin, k.origin_id, k.created_at`)}
        from new_ticket t join new_contact nc on nc.id = t.contact_id join k on k.number = nc.number order by k.i
        on conflict (whatsapp_id, channel_message_id) do nothing
        returning *
      )
      select k.i, m.ticket_id, t.contact_id, ${MESSAGE_DTO_JSON} as dto, ${TICKET_DTO_JSON} as ticket
      from inserted m
      join k on k.whatsapp_id = m.whatsapp_id and k.channel_message_id = m.channel_message_id
      join new_ticket t on t.id = m.ticket_id
      join new_contact tc on tc.id = t.contact_id
      left join queues tq on tq.id = t.queue_id
      left join users tu on tu.id = t.user_id
      left join whatsapps tw on tw.id = t.whatsapp_id
      ${messageDtoJoins(sql`new_contact`)}`,
  );
  const rows = items.map((item, i) => ({
    ...messageRow(item.data, i),
    number: item.contact.number,
    name: item.contact.name,
    is_group: item.contact.isGroup,
    queue_id: item.queueId,
    preview: item.preview,
    unread: item.unread ? 1 : 0,
  }));
  const answers = new Array<NewChatStored | null>(items.length).fill(null);
  const result = rowsOf<{ i: number; ticket_id: number; contact_id: number; dto: MessageDto; ticket: TicketDto }>(
    await statement.execute({ rows: JSON.stringify(rows), now: new Date().toISOString() }),
  );
  for (const row of result) answers[row.i] = { contactId: row.contact_id, ticketId: row.ticket_id, message: row.dto, ticket: row.ticket };
  return answers;
}

const storedReader = perDatabase((db) =>
  batchedRead(async (keys: readonly { w: number; id: string }[]) => {
    const statement = preparedSql(
      db,
      'messages.storedMany',
      () => sql`
        select k.i from json_to_recordset(${sql.placeholder('keys')}::json) as k(i int, w int, id text)
        where exists (select 1 from messages m where m.whatsapp_id = k.w and m.channel_message_id = k.id)`,
    );
    const stored = new Set(rowsOf<{ i: number }>(await statement.execute({ keys: keysParam(keys) })).map((row) => row.i));
    return keys.map((_, i) => stored.has(i));
  }),
);

/** Messages the desk sent from outside the chat, which a contact's reply answers (decision 0029). */
const ANSWERED_ORIGINS = new Set<string>(['campaign', 'api', 'group-action', 'schedule', 'phone']);

interface PageRow {
  rows: string;
  ticket_ids: number[];
  total: number;
  events: TicketEventJson[];
}

/** A page's placeholders: past page 1 the message just newer than the page comes along too (where its span ends). */
function pageParams(page: number, pageSize: number): Record<string, number> {
  const neighbour = page > 1 ? 1 : 0;
  const offset = (page - 1) * pageSize;
  return { fetchLimit: pageSize + neighbour, fetchOffset: offset - neighbour, neighbour, end: offset + pageSize };
}

function pageOfRow(row: PageRow): { messagesJson: string; count: number; events: TicketEventDto[]; ticketIds: number[] } {
  return { messagesJson: row.rows, count: row.total, events: row.events.map(ticketEventFromJson), ticketIds: row.ticket_ids.map(Number) };
}

/**
 * The statement of a page of messages with its events (see readPage), of one ticket (`ticketId`, its own index read
 * straight) or of several (`tickets`, an int[]: each ticket's newest through its own (ticket, created) index, then
 * merged: `ticket_id = any(…)` read and sorted every message of the conversation's tickets, 24 ms for one of 9,000
 * messages, issue 35). `before` adds common table expressions, `after` columns.
 */
function pageSql(of: { ticketId: SQL; before?: SQL; after?: SQL } | { tickets: SQL; before?: SQL; after?: SQL }): SQL {
  const ofTickets = 'ticketId' in of ? sql`= ${of.ticketId}` : sql`= any(${of.tickets})`;
  const picked =
    'ticketId' in of
      ? sql`select id from messages
          where ticket_id ${ofTickets}
          order by created_at desc, id desc
          limit ${sql.placeholder('fetchLimit')} offset ${sql.placeholder('fetchOffset')}`
      : sql`select p.id from unnest(${of.tickets}) as k(ticket_id)
          cross join lateral (
            select id, created_at from messages where ticket_id = k.ticket_id
            order by created_at desc, id desc
            limit (${sql.placeholder('fetchLimit')}::int + ${sql.placeholder('fetchOffset')}::int)
          ) p
          order by p.created_at desc, p.id desc
          limit ${sql.placeholder('fetchLimit')} offset ${sql.placeholder('fetchOffset')}`;
  return sql`
    with ${of.before ?? sql``} picked as (${picked}), fetched as (
      select m.id, m.created_at, ${MESSAGE_DTO_TEXT.sql} as dto
      from picked
      join messages m on m.id = picked.id
      ${messageDtoJoins(sql`contacts`)}
    ), shown as (
      -- Past page 1 the newest fetched is the neighbour (where the span ends), not shown.
      select * from fetched order by created_at desc, id desc offset ${sql.placeholder('neighbour')}
    ), total as (
      select count(*)::int as n from messages where ticket_id ${ofTickets}
    ), span as (
      select ${sql.placeholder('neighbour')}::int = 0 or (select count(*) from fetched) > 1 as has_page,
             case when (select n from total) > ${sql.placeholder('end')}::int then (select min(created_at) from fetched) end as since,
             case when ${sql.placeholder('neighbour')}::int = 1 then (select max(created_at) from fetched) end as until
    )
    select
      (select ${jsonArrayText(new JsonText(sql`dto`), sql`created_at, id`)} from shown) as rows,
      array(select distinct m.ticket_id from shown s join messages m on m.id = s.id) as ticket_ids,
      (select n from total) as total,
      case when (select has_page from span) then coalesce((
        select json_agg(json_build_object(
          'id', e.id, 'ticketId', e.ticket_id, 'kind', e.kind, 'actorUserId', e.actor_user_id, 'actorName', u.name,
          'data', e.data, 'createdAt', ${isoTime(sql`e.created_at`)}) order by e.created_at, e.id)
        from ticket_events e left join users u on u.id = e.actor_user_id cross join span s
        where e.ticket_id ${ofTickets}
          and (s.since is null or e.created_at >= s.since)
          and (s.until is null or e.created_at < s.until)
      ), '[]'::json) else '[]'::json end as events
      ${of.after ?? sql``}`;
}

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
   * when it came from the contact): one statement, so one commit and nothing half stored; it answers the stored
   * message's DTO and the ticket's as it now is (what the live events carry, without reading it again). Null when that
   * network id was already stored; the ticket is then left as it was.
   */
  async insertIntoTicket(data: MessageWrite, preview: string, unread: boolean): Promise<{ message: MessageDto; ticket: TicketDto } | null> {
    const statement = preparedSql(
      this.db,
      'messages.insertIntoTicket',
      () => sql`
        with inserted as (
          ${insertMessage(sql`values (${sql.placeholder('ticketId')}, ${sql.placeholder('contactId')}, `, sql`)`)}
        ), touched as (
          update tickets
          set last_message = ${sql.placeholder('preview')}, unread_messages = unread_messages + ${sql.placeholder('unread')}, updated_at = ${sql.placeholder('now')},
            last_message_at = greatest(last_message_at, (select created_at from inserted))
          where id = ${sql.placeholder('ticketId')} and exists (select 1 from inserted)
          returning *
        )
        select ${MESSAGE_DTO_JSON} as dto,
          (select ${TICKET_DTO_JSON}
            from touched t ${TICKET_DTO_JOINS}) as ticket
        from inserted m ${messageDtoJoins(sql`contacts`)}`,
    );
    const [row] = rowsOf<{ dto: MessageDto; ticket: TicketDto | null }>(
      await statement.execute({ ...messageValues(data), preview, unread: unread ? 1 : 0, now: new Date().toISOString() }),
    );
    return row?.ticket ? { message: row.dto, ticket: row.ticket } : null;
  }

  /** How many statements `insertIntoTicketShared` has sent on this database handle (batches, not messages): for the tests. */
  static sharedInsertStatements(db: Executor): number {
    return sharedInserts(db).batches;
  }

  /**
   * `insertIntoTicket` for the messages of every request arriving in the same turn of the event loop (inbound, not in a
   * transaction): one statement, one commit for all of them (db/batched.ts). Two messages of one ticket, or with one
   * network id, never share a statement (the second waits for the next), so each answers its ticket as it was right
   * after its own message, as alone. A batch that fails is tried message by message.
   */
  insertIntoTicketShared(data: MessageWrite, preview: string, unread: boolean): Promise<{ message: MessageDto; ticket: TicketDto } | null> {
    return sharedInserts(this.db).add({ data, preview, unread });
  }

  /**
   * The first message of a chat with a new number: its contact, its pending ticket (in `queueId` when given) and the
   * message, in one statement, so one commit and nothing half made; it answers the message's DTO and the new ticket's.
   * Null when a contact with that number exists (made meanwhile by another message): nothing is stored then, and the
   * caller takes the usual way. Since the contact is new, no ticket of it and no message of this chat can exist.
   * Shared like `insertIntoTicketShared` by the first messages of every request arriving in the same turn, two of one
   * number (or network id) never in one statement.
   */
  insertWithNewChat(
    contact: { number: string; name: string; isGroup: boolean },
    ticket: { queueId: number | null },
    data: Omit<MessageWrite, 'ticketId' | 'contactId'>,
    preview: string,
    unread: boolean,
  ): Promise<NewChatStored | null> {
    return newChatInserts(this.db).add({ contact, queueId: ticket.queueId, data, preview, unread });
  }

  /**
   * Whether a message with this network id is stored on the connection, read with those of every other message
   * arriving in the same turn of the event loop: one statement (db/batched.ts).
   */
  isStored(whatsappId: number, channelMessageId: string): Promise<boolean> {
    return storedReader(this.db)({ w: whatsappId, id: channelMessageId });
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

  /** Which of these network ids the connection has stored, each with its ticket and that ticket's status (history import). */
  async findStoredChannelIds(whatsappId: number, channelMessageIds: string[]): Promise<Map<string, { ticketId: number; ticketStatus: string; createdAt: Date }>> {
    if (channelMessageIds.length === 0) return new Map();
    const rows = await this.db
      .select({ id: messages.channelMessageId, ticketId: messages.ticketId, ticketStatus: tickets.status, createdAt: messages.createdAt })
      .from(messages)
      .innerJoin(tickets, eq(tickets.id, messages.ticketId))
      .where(and(eq(messages.whatsappId, whatsappId), inArray(messages.channelMessageId, channelMessageIds)));
    return new Map(rows.map((r) => [r.id, { ticketId: r.ticketId, ticketStatus: r.ticketStatus, createdAt: r.createdAt }]));
  }

  async findRecord(id: number) {
    const [row] = await this.db.select().from(messages).where(eq(messages.id, id)).limit(1);
    return row ?? null;
  }

  private selectDtos<Extra extends Record<string, SQL.Aliased | SQL>>(extra?: Extra) {
    return this.db
      .select({ message: messages, contactName: contacts.name, quoted, quotedContactName: quotedContact.name, senderName: sender.name, ...(extra as Extra) })
      .from(messages)
      .leftJoin(contacts, eq(contacts.id, messages.contactId))
      .leftJoin(sender, eq(sender.id, messages.sentByUserId))
      .leftJoin(quoted, eq(quoted.id, messages.quotedMsgId))
      .leftJoin(quotedContact, eq(quotedContact.id, quoted.contactId));
  }

  /**
   * A message the desk sent, recorded on its ticket (its preview and time), read back with the ticket as clients get
   * them: one statement where the touch and the two reads took three (every message sent, issue 35 item 6). `auto`: a
   * message the desk sent by itself (greeting, queue menu, farewell, the chatbot) leaves the preview on what the customer
   * last sent when that is newer than every message an attendant sent (issue 33 item 4: the list shows "📷 Olha a foto",
   * not the greeting that answered it). The ticket is null when it is gone; null when the message is.
   */
  async recordSent(messageId: number, ticketId: number, lastMessage: string, auto: boolean): Promise<{ message: MessageDto; ticket: TicketDto | null } | null> {
    const p = (name: string) => sql.placeholder(name);
    const statement = preparedSql(
      this.db,
      'messages.recordSent',
      () => sql`
        with touched as (
          update tickets t
          set last_message = case
                when ${p('auto')}::boolean and (select o.from_me from messages o
                      where o.ticket_id = t.id and o.id <> ${p('messageId')}::bigint and o.sender_kind not in ('auto', 'bot') and not o.private
                      order by o.created_at desc, o.id desc limit 1) = false then t.last_message
                else ${p('lastMessage')}::text end,
              updated_at = ${p('now')}::timestamptz
          where t.id = ${p('ticketId')}::int
          returning t.*
        )
        select ${messageWithTicketColumns(sql`touched`)}
        from messages m ${messageDtoJoins(sql`contacts`)}
        where m.id = ${p('messageId')}::bigint`,
    );
    return messageWithTicket(await statement.execute({ messageId, ticketId, lastMessage, auto, now: new Date().toISOString() }));
  }

  /** Read for every message sent or received (its live event): a prepared statement. */
  async findDto(id: number): Promise<MessageDto | null> {
    const byId = prepared(this.db, 'messages.dtoById', (name) => this.selectDtos().where(eq(messages.id, sql.placeholder('id'))).limit(1).prepare(name));
    const [row] = await byId.execute({ id });
    return row ? toMessageDto(row) : null;
  }

  /**
   * One page of a ticket's messages (newest pages first, oldest-to-newest within the page), how many the ticket has,
   * and the ticket's events of the page's span of time: from the page's oldest message (from the beginning on the
   * last page) to the next newer message (to now on page 1), so the pages' events together are all of them, each
   * once. One statement and one round trip: PostgreSQL builds the DTOs as JSON (read with every chat opened and
   * every page scrolled; mapping rows of four joined tables cost the server more than the query), and only for the
   * page's rows: the ids are picked first, so a deep page's offset skips index entries, not built objects. With
   * `earlierTicketIds` (the contact's earlier tickets, decision 0029) the pages go on through theirs as one conversation.
   */
  async readPage(ticketId: number, page: number, pageSize: number, earlierTicketIds: readonly number[] = []): Promise<{ messages: MessageDto[]; count: number; events: TicketEventDto[] }> {
    const { messagesJson, count, events } = await this.readPageJson(ticketId, page, pageSize, earlierTicketIds);
    return { messages: JSON.parse(messagesJson) as MessageDto[], count, events };
  }

  /**
   * `readPage` with the messages as the JSON text PostgreSQL wrote (the chat's page is sent as it is, never parsed
   * and written again: issue 35 item 2), and the tickets the page's messages are in.
   */
  async readPageJson(
    ticketId: number,
    page: number,
    pageSize: number,
    earlierTicketIds: readonly number[] = [],
  ): Promise<{ messagesJson: string; count: number; events: TicketEventDto[]; ticketIds: number[] }> {
    // One ticket (the usual chat) keeps its own statement; a conversation with earlier tickets reads them all at once.
    const conversation = earlierTicketIds.length > 0;
    const statement = preparedSql(this.db, conversation ? 'messages.conversationPageWithEvents' : 'messages.pageWithEvents', () =>
      conversation ? pageSql({ tickets: sql`${sql.placeholder('ticketIds')}::int[]` }) : pageSql({ ticketId: sql`${sql.placeholder('ticketId')}` }),
    );
    const tickets = conversation ? { ticketIds: intArrayParam([ticketId, ...earlierTicketIds]) } : { ticketId };
    const [row] = rowsOf<PageRow>(await statement.execute({ ...tickets, ...pageParams(page, pageSize) }));
    return pageOfRow(row!);
  }

  /**
   * The chat's page in one statement (issue 35 item 2: the ticket, its earlier tickets and the page were three round
   * trips, each costing both processes more than its reading): `readPageJson` of the ticket and of its contact's
   * earlier tickets that `viewer` may see, with the ticket's DTO (JSON text of an array of it, `[]` when there is no
   * such ticket). The caller checks that the viewer may see the ticket before it shows
   * anything of what was read.
   */
  async readChatPageJson(
    ticketId: number,
    page: number,
    pageSize: number,
    viewer: { all: boolean; userId: number; queueIds: readonly number[] },
  ): Promise<{ ticketJson: string; messagesJson: string; count: number; events: TicketEventDto[]; ticketIds: number[] }> {
    const statement = preparedSql(this.db, 'messages.chatPageWithEvents', () =>
      pageSql({
        before: sql`earlier as materialized (select ${TICKET_WITH_EARLIER.earlierIds} as ids),
          conversation as materialized (select array[${sql.placeholder('ticketId')}::int] || (select ids from earlier) as ids),`,
        tickets: sql`(select ids from conversation)::int[]`,
        after: sql`, (${TICKET_WITH_EARLIER.dto}) as ticket`,
      }),
    );
    const [row] = rowsOf<PageRow & { ticket: string }>(
      await statement.execute({ ticketId, all: viewer.all, userId: viewer.userId, queueIds: intArrayParam(viewer.queueIds), ...pageParams(page, pageSize) }),
    );
    return { ...pageOfRow(row!), ticketJson: row!.ticket };
  }

  /**
   * Whether a closed ticket waits for an answer (decision 0029): its newest message is one the desk sent from outside
   * the chat (a bulk send, the send API, a group action, a schedule, the phone), not the chatbot's or a farewell.
   */
  async awaitsAnswer(ticketId: number): Promise<boolean> {
    const [row] = await this.db
      .select({ fromMe: messages.fromMe, origin: messages.origin })
      .from(messages)
      // An internal note is not the conversation (issue 36 §1).
      .where(and(eq(messages.ticketId, ticketId), eq(messages.private, false)))
      .orderBy(desc(messages.createdAt), desc(messages.id))
      .limit(1);
    return Boolean(row?.fromMe && row.origin !== null && ANSWERED_ORIGINS.has(row.origin));
  }

  /**
   * Updates the delivery state, never backwards (a failed send's negative state stays), and answers the message and
   * its ticket as clients get them when it changed: one statement where the update and the two reads took three (a
   * message gets up to three acks: issue 35 item 6). Null when nothing changed; the ticket is null when it is gone.
   */
  async updateAck(whatsappId: number, channelMessageId: string, ack: number): Promise<{ message: MessageDto; ticket: TicketDto | null } | null> {
    const p = (name: string) => sql.placeholder(name);
    const statement = preparedSql(
      this.db,
      'messages.updateAck',
      () => sql`
        with updated as (
          update messages set ack = ${p('ack')}::int, updated_at = ${p('now')}::timestamptz
          where whatsapp_id = ${p('whatsappId')}::int and channel_message_id = ${p('channelMessageId')}::text
            and ack >= 0 and ack < ${p('ack')}::int
          returning *
        )
        select ${messageWithTicketColumns(sql`tickets`)}
        from updated m ${messageDtoJoins(sql`contacts`)}`,
    );
    return messageWithTicket(await statement.execute({ whatsappId, channelMessageId, ack, now: new Date().toISOString() }));
  }

  /** Marks a sent message as failed by the network, with why; returns its id (null: no such message). */
  async setSendError(whatsappId: number, channelMessageId: string, error: string): Promise<number | null> {
    const rows = await this.db
      .update(messages)
      .set({ sendError: error.slice(0, 1000), updatedAt: new Date() })
      .where(and(eq(messages.whatsappId, whatsappId), eq(messages.channelMessageId, channelMessageId)))
      .returning({ id: messages.id });
    return rows[0]?.id ?? null;
  }

  /** Marks a message this process failed to hand to the network, with why (issue 33 item 25). */
  async setSendErrorById(id: number, error: string): Promise<void> {
    await this.db.update(messages).set({ sendError: error.slice(0, 1000), updatedAt: new Date() }).where(eq(messages.id, id));
  }

  /** Gives a stored message the id the network chose for it (the Cloud API names its own messages). */
  async setChannelMessageId(id: number, channelMessageId: string): Promise<void> {
    await this.db.update(messages).set({ channelMessageId }).where(eq(messages.id, id));
  }

  /**
   * A ticket's time (`last_message_at`) as its conversation's, internal notes left out: the insert trigger moved it to
   * a note's time, which is not the conversation's (issue 36 §1, decision 0038). Run in the note's transaction, after
   * its insert: the trigger's update holds the ticket's row, so a message stored meanwhile waits and moves it after.
   */
  async keepConversationTime(ticketId: number): Promise<void> {
    await this.db.execute(sql`
      update tickets set last_message_at = (select max(m.created_at) from messages m where m.ticket_id = ${ticketId} and not m.private)
      where id = ${ticketId}`);
  }

  async setAck(id: number, ack: number): Promise<void> {
    await this.db.update(messages).set({ ack, updatedAt: new Date() }).where(eq(messages.id, id));
  }

  /** Removes a message that never left (the network refused it). */
  async remove(id: number): Promise<void> {
    await this.db.delete(messages).where(eq(messages.id, id));
  }

  /**
   * This device's live reactions to a message: sent from here, replying to it, their body one emoji (a reaction
   * is stored as its emoji replying to the message it reacts to, as inbound reactions are).
   */
  async findOwnReactions(ticketId: number, targetId: number): Promise<number[]> {
    const rows = await this.db
      .select({ id: messages.id, body: messages.body })
      .from(messages)
      .where(and(eq(messages.ticketId, ticketId), eq(messages.quotedMsgId, targetId), eq(messages.fromMe, true), eq(messages.isDeleted, false)));
    return rows.filter((r) => isReactionEmoji(r.body)).map((r) => r.id);
  }

  /** The number of a message's sender (a group participant's contact), for a reaction's key. */
  async contactNumber(contactId: number): Promise<string | null> {
    const [row] = await this.db.select({ number: contacts.number }).from(contacts).where(eq(contacts.id, contactId)).limit(1);
    return row?.number ?? null;
  }

  /**
   * What a queue menu asked for by message `afterId` needs to know, in one statement: the id of the contact's newest
   * message in the ticket (the menu's debounce: a newer one asked for its own), and whether the desk already sent
   * `body` in the ticket after `afterId` (stored first, sent after: a second run of the same job).
   */
  async menuState(ticketId: number, afterId: number, body: string): Promise<{ newestFromContact: number | null; sentAfter: boolean }> {
    const [row] = rowsOf<{ newest: string | number | bigint | null; sent: boolean }>(await this.db.execute(sql`
      select
        (select ${messages.id} from ${messages} where ${messages.ticketId} = ${ticketId} and ${messages.fromMe} = false order by ${messages.id} desc limit 1) as newest,
        exists (select 1 from ${messages} where ${messages.ticketId} = ${ticketId} and ${messages.id} > ${afterId} and ${messages.fromMe} = true and ${messages.body} = ${body}) as sent`));
    // A bigint column: text from pg, a bigint from PGlite.
    return { newestFromContact: row?.newest == null ? null : Number(row.newest), sentAfter: row?.sent === true };
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

type MessageRow = {
  message: typeof messages.$inferSelect;
  contactName: string | null;
  quoted: typeof messages.$inferSelect | null;
  quotedContactName: string | null;
  senderName: string | null;
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
    sendError: m.sendError,
    origin: (m.origin as MessageOrigin | null) ?? null,
    originId: m.originId,
    private: m.private,
    sentBy: m.sentByUserId !== null && row.senderName !== null ? { id: m.sentByUserId, name: row.senderName } : null,
    createdAt: m.createdAt.toISOString(),
  };
}

