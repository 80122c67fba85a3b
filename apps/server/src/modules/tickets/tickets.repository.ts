import { DELETED_PREVIEW, foldForSearch, searchExcerpt, TICKET_STATUSES, type ConversationTicketDto, type TicketDto, type TicketStatus } from '@wadesk/contracts';
import { and, count, desc, eq, gte, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Executor } from '../../db/client.js';
import { isoTime, jsonArrayText, JsonText, jsonText } from '../../db/json-sql.js';
import { containsPattern, foldedPattern } from '../../db/like-pattern.js';
import { intArrayParam, prepared, preparedSql } from '../../db/prepared.js';
import { contacts, tickets } from '../../db/schema.js';

export interface TicketListFilter {
  status?: TicketStatus;
  /** Lowercased text found in the contact's name or number, or in any message body. */
  search?: string;
  /** Tickets created on this day (YYYY-MM-DD) of `timeZone`. */
  date?: string;
  /** The IANA time zone whose day `date` names (the viewer's; the server's when the caller sends none). */
  timeZone?: string;
  /** Only tickets of these queues (and tickets without a queue); undefined for any. */
  queueIds?: number[];
  /** Restrict to what a non-admin may see: their queues, no queue, or assigned to them. */
  visibleTo?: { userId: number; queueIds: number[] };
  /** Without showAll: only the caller's tickets and pending ones. */
  mineOrPendingOf?: number;
  withUnreadMessages?: boolean;
  isGroup?: boolean;
  /** Only tickets carrying any of these labels (issue 36 §2); undefined for any. */
  labelIds?: number[];
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

const { string, scalar, time, constant, when, object } = jsonText;

/** The labels of the rows `from` reaches (`l` the label), as a JSON array by name: what a ticket or contact carries. */
const labelsText = (from: SQL): JsonText =>
  new JsonText(
    sql`(select ${jsonArrayText(object({ id: scalar(sql`l.id`), name: string(sql`l.name`), color: string(sql`l.color`) }), sql`lower(l.name), l.id`)} from ${from})`,
  );

/** The labels a ticket `t` carries now. */
const TICKET_LABELS = sql`ticket_labels tl join labels l on l.id = tl.label_id where tl.ticket_id = t.id`;

/**
 * A ticket's DTO as JSON text built by PostgreSQL (the fields of TicketDto), from the ticket row `t`, its contact
 * `tc`, queue `tq`, user `tu` and connection `tw` (joined by `TICKET_DTO_JOINS`), its labels the `l` rows of
 * `labelsFrom` (those it carries now, unless told otherwise).
 */
const ticketDtoText = (labelsFrom: SQL = TICKET_LABELS): JsonText => object({
  id: scalar(sql`t.id`),
  status: string(sql`t.status`),
  userId: scalar(sql`t.user_id`),
  queueId: scalar(sql`t.queue_id`),
  whatsappId: scalar(sql`t.whatsapp_id`),
  contactId: scalar(sql`t.contact_id`),
  contact: object({
    id: scalar(sql`tc.id`),
    name: string(sql`tc.name`),
    number: string(sql`tc.number`),
    email: string(sql`tc.email`),
    profilePicUrl: string(sql`tc.profile_pic_url`),
    isGroup: scalar(sql`tc.is_group`),
    extraInfo: constant('[]'),
    labels: labelsText(sql`contact_labels cl join labels l on l.id = cl.label_id where cl.contact_id = tc.id`),
    createdAt: time(sql`tc.created_at`),
    updatedAt: time(sql`tc.updated_at`),
  }),
  queue: when(
    sql`tq.id is not null`,
    object({
      id: scalar(sql`tq.id`),
      name: string(sql`tq.name`),
      color: string(sql`tq.color`),
      greetingMessage: string(sql`tq.greeting_message`),
      autoAssign: scalar(sql`tq.auto_assign`),
      createdAt: time(sql`tq.created_at`),
      updatedAt: time(sql`tq.updated_at`),
    }),
  ),
  user: when(sql`t.user_id is not null and tu.name is not null`, object({ id: scalar(sql`t.user_id`), name: string(sql`tu.name`) })),
  whatsapp: when(sql`tw.name is not null`, object({ id: scalar(sql`t.whatsapp_id`), name: string(sql`tw.name`) })),
  lastMessage: string(sql`t.last_message`),
  lastMessageAt: time(sql`t.last_message_at`),
  unreadMessages: scalar(sql`t.unread_messages`),
  isGroup: scalar(sql`t.is_group`),
  protocol: string(sql`t.protocol`),
  labels: labelsText(labelsFrom),
  arrivedOutOfHours: scalar(sql`t.arrived_out_of_hours`),
  csat: when(
    sql`t.csat_rating is not null`,
    object({ rating: scalar(sql`t.csat_rating`), comment: string(sql`t.csat_comment`), at: time(sql`t.csat_at`) }),
  ),
  createdAt: time(sql`t.created_at`),
  updatedAt: time(sql`t.updated_at`),
});

const TICKET_DTO_TEXT = ticketDtoText();

/** `TICKET_DTO_TEXT` as a json value: for a statement that changes a ticket and returns it as it now is. */
export const TICKET_DTO_JSON = sql`${TICKET_DTO_TEXT.sql}::json`;

/** A ticket's DTO as a json value, its labels those of the `integer[]` `labelIds` (a webhook event's, decision 0045). */
export const ticketDtoJsonLabelled = (labelIds: SQL): SQL =>
  sql`${ticketDtoText(sql`unnest(${labelIds}) li(id) join labels l on l.id = li.id`).sql}::json`;

/** The rows `TICKET_DTO_TEXT` reads besides the ticket `t`. */
export const TICKET_DTO_JOINS = sql`join contacts tc on tc.id = t.contact_id
  left join queues tq on tq.id = t.queue_id
  left join users tu on tu.id = t.user_id
  left join whatsapps tw on tw.id = t.whatsapp_id`;

/**
 * Tickets as their DTOs, built by PostgreSQL (issue 11: mapping the joined rows of five tables through drizzle's
 * column decoders was the server's largest cost on the open list, more than the statements), as one JSON array.
 */
const ticketDtos = (from: SQL, where: SQL, order: SQL): SQL =>
  sql`select ${jsonArrayText(TICKET_DTO_TEXT, order)} as dtos from ${from} ${TICKET_DTO_JOINS} where ${where}`;

/**
 * A ticket and the rest of its conversation, for a statement of another repository that reads them with its own rows
 * (the chat's page: each statement more cost both processes a round trip, issue 35 item 2). `dto`: the ticket's DTO
 * as a JSON array of it (`[]` when there is no such ticket). `earlierIds`: its contact's tickets older than it that
 * the viewer may see (canSeeTicket's rule: admins all; others their own, those without a queue and those of their
 * queues), newest first, at most 200: the rest of the conversation a chat shows above the ticket (decision 0029).
 * Placeholders: `ticketId`, and the viewer's `all` (an admin), `userId` and `queueIds`.
 */
export const TICKET_WITH_EARLIER = {
  dto: ticketDtos(sql`tickets t`, sql`t.id = ${sql.placeholder('ticketId')}`, sql`t.id`),
  earlierIds: sql`array(
    select e.id from tickets e join tickets o on o.id = ${sql.placeholder('ticketId')}
    where e.contact_id = o.contact_id and e.id < o.id
      and (${sql.placeholder('all')}::boolean or e.user_id = ${sql.placeholder('userId')}::int or e.queue_id is null
           or e.queue_id = any(${sql.placeholder('queueIds')}::int[]))
    order by e.id desc limit 200)`,
};

/**
 * The tickets' kept counts (decision 0024) as rows of (status, is_group, queue_id, user_id, n), the folded counts and
 * the changes not folded yet, named `tickets`: a listing's conditions (which name "tickets"."status", ...) read them as
 * they read tickets, and the sum of `n` over the rows they keep is the number of tickets they would keep.
 */
const KEPT_COUNTS = sql`(select status, is_group, queue_id, user_id, n from ticket_counts
  union all select status, is_group, queue_id, user_id, n from ticket_count_changes) as tickets`;

/** A status as it may be written into a statement: only one of the known ones. */
function statusLiteral(status: TicketStatus): TicketStatus {
  if (!TICKET_STATUSES.includes(status)) throw new Error(`unknown ticket status ${String(status)}`);
  return status;
}

/** An excerpt around the longest word of the search found in the body (the words apart, not the whole text). */
function longestWordExcerpt(body: string, words: string[]) {
  for (const word of [...words].sort((a, b) => b.length - a.length)) {
    const excerpt = searchExcerpt(body, word);
    if (excerpt) return excerpt;
  }
  return null;
}

export interface TicketPage {
  tickets: TicketDto[];
  /** All the tickets that match; a search's count stops at SEARCH_COUNT_CAP. */
  count: number;
  hasMore: boolean;
}

/** A search counts its tickets up to this many (decision 0012); beyond, the pages go on while count stays here. */
export const SEARCH_COUNT_CAP = 1000;

/** Up to this many candidates a search reads them all (see TicketsRepository.search). */
export const SEARCH_FEW_CAP = 1000;

/** How many of a found ticket's newest messages are looked through for the excerpt of its match. */
export const SEARCH_EXCERPT_DEPTH = 1000;

/** How many of the newest tickets a search probes one by one before it hashes the candidates instead. */
export const SEARCH_PROBE_WALK = 600;

/** The only file that queries tickets. */
export class TicketsRepository {
  constructor(private readonly db: Executor) {}

  /** Read by most requests about one ticket (its messages page, a send, an update): a prepared statement. */
  async findDto(id: number): Promise<TicketDto | null> {
    const byId = preparedSql(this.db, 'tickets.dtoById', () =>
      ticketDtos(sql`tickets t`, sql`t.id = ${sql.placeholder('id')}`, sql`t.id`),
    );
    return (await this.dtos(byId.execute({ id })))[0] ?? null;
  }

  /** The tickets of these ids, in the order given: a prepared statement (every list page ends with it). */
  async findDtos(ids: number[]): Promise<TicketDto[]> {
    if (ids.length === 0) return [];
    const byIds = preparedSql(this.db, 'tickets.dtosByIds', () =>
      ticketDtos(sql`unnest(${sql.placeholder('ids')}::int[]) with ordinality as k(id, i) join tickets t on t.id = k.id`, sql`true`, sql`k.i`),
    );
    return this.dtos(byIds.execute({ ids: intArrayParam(ids) }));
  }

  async findDtosOfContact(contactId: number): Promise<TicketDto[]> {
    return this.dtos(this.db.execute(ticketDtos(sql`tickets t`, sql`t.contact_id = ${contactId}`, sql`t.id`)));
  }

  async findDtosOfConnection(whatsappId: number): Promise<TicketDto[]> {
    return this.dtos(this.db.execute(ticketDtos(sql`tickets t`, sql`t.whatsapp_id = ${whatsappId}`, sql`t.id`)));
  }

  private async dtos(result: Promise<unknown>): Promise<TicketDto[]> {
    const [row] = rowsOf<{ dtos: string }>(await result);
    return row ? (JSON.parse(row.dtos) as TicketDto[]) : [];
  }

  /**
   * A listing's conditions. With `placeholders`, their values are named placeholders (given in `values`) and
   * `shape` names which conditions are there, so that a prepared statement serves every call of that shape.
   * `countable`: every condition reads only the status, is_group, queue_id and user_id (the columns of ticket_counts).
   */
  private conditions(
    filter: TicketListFilter,
    placeholders = false,
  ): { where: SQL | undefined; shape: string; values: Record<string, unknown>; countable: boolean } {
    const conditions: SQL[] = [];
    let countable = true;
    const names: string[] = [];
    const values: Record<string, unknown> = {};
    const value = (name: string, v: unknown) => {
      values[name] = v;
      return placeholders ? sql.placeholder(name) : v;
    };
    const add = (name: string, condition: SQL | undefined, onCountedColumns = true) => {
      names.push(name);
      if (condition) conditions.push(condition);
      countable &&= onCountedColumns;
    };
    const anyOf = (name: string, ids: number[]) => sql`${tickets.queueId} = any(${value(name, intArrayParam(ids))}::int[])`;
    // Written into the statement (one of three, checked here): see `page`.
    if (filter.status) add(`status=${filter.status}`, sql`${tickets.status} = ${sql.raw(`'${statusLiteral(filter.status)}'`)}`);
    if (filter.isGroup !== undefined) add('isGroup', eq(tickets.isGroup, value('isGroup', filter.isGroup) as boolean));
    if (filter.withUnreadMessages) add('unread', sql`${tickets.unreadMessages} > 0`, false);
    if (filter.date) {
      // The day's bounds as instants of the zone: midnight there, not in the database session's zone.
      const day = value('date', filter.date);
      const zone = value('timeZone', filter.timeZone ?? 'UTC');
      add(
        'date',
        and(
          sql`${tickets.createdAt} >= (${day}::date)::timestamp at time zone ${zone}::text`,
          sql`${tickets.createdAt} < (${day}::date + 1)::timestamp at time zone ${zone}::text`,
        ),
        false,
      );
    }
    if (filter.queueIds) add('queueIds', or(anyOf('queueIds', filter.queueIds), isNull(tickets.queueId)));
    if (filter.labelIds) {
      // The labelled tickets through ticket_labels_label_idx (label, ticket): see decision 0037 for the plan.
      const labelIds = value('labelIds', intArrayParam(filter.labelIds));
      add('labelIds', sql`${tickets.id} in (select tl.ticket_id from ticket_labels tl where tl.label_id = any(${labelIds}::int[]))`, false);
    }
    if (filter.visibleTo) {
      const { userId, queueIds } = filter.visibleTo;
      add('visibleTo', or(eq(tickets.userId, value('visibleToUser', userId) as number), isNull(tickets.queueId), anyOf('visibleToQueues', queueIds)));
    }
    if (filter.mineOrPendingOf !== undefined) {
      add('mineOrPending', or(eq(tickets.userId, value('mineOrPendingOf', filter.mineOrPendingOf) as number), sql`${tickets.status} = 'pending'`));
    }
    return { where: and(...conditions), shape: names.join(','), values, countable };
  }

  private where(filter: TicketListFilter): SQL | undefined {
    return this.conditions(filter).where;
  }

  /**
   * One page of a listing, its count and whether more follow, as the JSON text of its TicketPage (the reply's body):
   * the DTOs go out as PostgreSQL wrote them, not parsed and written again (a page of 40 is ~30 KB: ~160 µs of the
   * server's CPU a request, issue 11). A search's page is built by `search`.
   */
  async listJson(filter: TicketListFilter, page: number, pageSize: number): Promise<string> {
    if (filter.search) return this.search(filter, page, pageSize);
    const { count, dtos } = await this.page(filter, page, pageSize);
    return `{"tickets":${dtos},"count":${count},"hasMore":${count > page * pageSize}}`;
  }

  /**
   * A page's DTOs (JSON text) and the listing's count, in one prepared statement (one round trip: on a busy machine
   * each costs both processes more than the page's joins): the page's ids come from the (status, is_group,
   * updated_at, id) index alone, deep pages too, and only those rows are joined to their contact, queue, user and
   * connection. The statuses and the page's size are written into the statement and only the rest are parameters,
   * so that PostgreSQL keeps one generic plan for it (issue 11): with the status a parameter, its estimate for
   * 'closed' made it plan every call anew, which cost more than running it.
   */
  private async page(filter: TicketListFilter, page: number, pageSize: number): Promise<{ count: number; dtos: string }> {
    const { where, shape, values, countable } = this.conditions(filter, true);
    const matching = where ?? sql`true`;
    // Conditions on the status, is_group, queue and user alone are summed from the kept counts (decision 0024).
    const total = countable
      ? sql`(select coalesce(sum(n), 0)::int from ${KEPT_COUNTS} where ${matching})`
      : sql`(select count(*)::int from ${tickets} where ${matching})`;
    // The first page (nearly every request) has no offset: an offset given as a parameter made the generic plan
    // look dearer than planning each call for some shapes (an attendant's), and PostgreSQL then planned every call.
    const first = page === 1;
    const statement = preparedSql(this.db, `tickets.page:${shape}:${pageSize}:${first ? 'first' : 'deep'}`, () => {
      const pageRows = sql`select ${tickets.id}, ${tickets.updatedAt} from ${tickets} where ${matching}
        order by ${tickets.updatedAt} desc, ${tickets.id} desc limit ${sql.raw(String(pageSize))} ${first ? sql`` : sql`offset ${sql.placeholder('offset')}`}`;
      return sql`with page as materialized (${pageRows})
        select ${total} as total,
          (${ticketDtos(sql`page k join tickets t on t.id = k.id`, sql`true`, sql`k.updated_at desc, k.id desc`)}) as dtos`;
    });
    const [row] = rowsOf<{ total: number; dtos: string }>(await statement.execute({ ...values, offset: (page - 1) * pageSize }));
    return { count: row?.total ?? 0, dtos: row?.dtos ?? '[]' };
  }

  /**
   * Moves the triggers' count changes into ticket_counts (decision 0024); answers how many change rows it moved (0
   * when another process is folding at that moment).
   */
  async foldCounts(): Promise<number> {
    const [row] = rowsOf<{ moved: number }>(await this.db.execute(sql`select public.ticket_counts_fold() as moved`));
    return row?.moved ?? 0;
  }

  /**
   * Tickets whose protocol is the text, or whose contact's name or number contains the text (ignoring case and accents, trigram indexes), or
   * whose messages hold every word of it as a word prefix (ticket_search, one GIN index: decision 0012).
   * How the page is found depends on how many tickets match (decision 0037, issue 35 item 1): the cost of each way
   * grows with the matches or with their rarity, and each is used where it is cheap, so that no frequency falls
   * off a cliff:
   * - few (at most SEARCH_FEW_CAP candidates by either way): all of them are filtered, counted and sorted;
   * - common (a page among the newest SEARCH_PROBE_WALK tickets): those tickets are walked newest change first and each
   *   probed in ticket_search, which fills a page after a few dozen probes;
   * - in between: the candidates' ids are hashed once and the tickets walked newest first against the hash.
   * Beyond the few, the count stops at SEARCH_COUNT_CAP and is read from the candidates, never by walking tickets.
   */
  private async search(filter: TicketListFilter, page: number, pageSize: number): Promise<string> {
    const search = filter.search!;
    // The contact's name or number, or the ticket's protocol number (whole, in any letter case: issue 15).
    const contactIds = sql`select c.id from contacts c where c.name_folded like ${foldedPattern(search)} or c.number like ${containsPattern(search)}`;
    const protocol = sql`lower(${search.trim()})`;
    // The same tickets as two index reads (contact, protocol): an OR of the two would read every ticket.
    const byProtocolIds = sql`select t.id from tickets t where lower(t.protocol) = ${protocol}`;
    const byContactIds = sql`select t.id from tickets t where t.contact_id in (${contactIds}) union all ${byProtocolIds}`;
    const words = sql`search_query(${search})`;
    const byWordIds = sql`select s.ticket_id from ticket_search s where s.words @@ ${words}`;
    // The candidates by words carry their own limit: PostgreSQL does not carry the limit of a UNION ALL into its
    // branches, and planned for every match of a word: the GIN index's bitmap of all of them (15–41 ms for a word in
    // 32,000–40,000 tickets), where a scan of ticket_search stops at its 1,001st match (2–6 ms). Not the candidates
    // by contact: limited, they were planned as a scan of every ticket looking each one's contact up (27 ms for a
    // name of 10,000 contacts, against the trigram index and then each contact's tickets).
    const firstByWordIds = sql`(${byWordIds} limit ${SEARCH_FEW_CAP + 1})`;
    const filterWhere = this.where(filter);
    const offset = (page - 1) * pageSize;
    const wanted = offset + pageSize + 1;
    /** Whether a ticket is of one of the contacts `ids` selects, or has the protocol. */
    const byContactOf = (ids: SQL) => sql`(${tickets.contactId} in (${ids}) or lower(${tickets.protocol}) = ${protocol})`;
    const byContact = byContactOf(contactIds);
    const few = SEARCH_FEW_CAP;
    // One statement decides the way and, for few candidates or a common word, finds the page (issue 35: each
    // statement more cost both processes a round trip and a plan). The candidates are read up to one past the few,
    // by contact and by words as they come (a UNION's de-duplication read every match of a common word first): a
    // ticket found both ways counts twice, which can only send a search the common way. Each way runs only when
    // its CASE is taken (a CTE is read on demand).
    // - Few: each candidate looked up by its key (`id in (…)` was hashed against a walk of all 100,000 tickets:
    //   45 ms for a word in 964 tickets), filtered, counted and sorted.
    // - Common: the newest SEARCH_PROBE_WALK tickets walked newest change first, each probed (a scalar subquery, so
    //   that each walked ticket is probed; an EXISTS would be hashed, all matches read), stopping at
    //   the page's last match.
    // The contacts of the name are read once (a name of 10,000 contacts: 3 ms of trigram rechecks), as far as the
    // candidates need them and then whole if the walk runs. The candidates take each contact's tickets in turn (an
    // index-only read, stopped at the 1,001st; `offset 0` keeps the subquery from being flattened into a join): left
    // to itself, PostgreSQL hashed every contact of a common name against the tickets' index, 8 ms for 10,000 (issue 35).
    const probed = sql`(${byContactOf(sql`select id from contact_ids`)}
      or (select s.words from ticket_search s where s.ticket_id = ${tickets.id}) @@ ${words})`;
    const candidatesByContact = sql`select t.id from contact_ids c cross join lateral (
        select t.id from tickets t where t.contact_id = c.id offset 0) t
      union all ${byProtocolIds}`;
    const [first] = rowsOf<{ distinct_candidates: number; total: number | null; ids: number[] | null; hits: number[] | null }>(
      await this.db.execute(sql`
        with contact_ids as materialized (${contactIds}),
        candidates as materialized (select id from (${candidatesByContact} union all ${firstByWordIds}) c limit ${few + 1}),
        matched as materialized (
          select m.id, m.updated_at from (select distinct id from candidates) k cross join lateral (
            select ${tickets.id} as id, ${tickets.updatedAt} as updated_at from ${tickets}
            where ${and(sql`${tickets.id} = k.id`, filterWhere)}) m)
        select (select count(distinct id) from candidates)::int as distinct_candidates,
          case when (select count(*) from candidates) <= ${few} then (select count(*) from matched)::int end as total,
          case when (select count(*) from candidates) <= ${few} then
            array(select id from matched order by updated_at desc, id desc limit ${pageSize + 1} offset ${offset}) end as ids,
          case when (select count(*) from candidates) > ${few} then array(
            select w.id from (
              select ${tickets.id} as id, ${probed} as hit from ${tickets} ${filterWhere ? sql`where ${filterWhere}` : sql``}
              order by ${tickets.updatedAt} desc, ${tickets.id} desc limit ${SEARCH_PROBE_WALK + offset}) w
            where w.hit limit ${wanted}) end as hits`),
    );
    /** The page's ids (and one more: whether another page follows) of the matching tickets, newest change first. */
    const pageOf = (matches: SQL) =>
      this.db
        .select({ id: tickets.id })
        .from(tickets)
        .where(and(filterWhere, matches))
        .orderBy(desc(tickets.updatedAt), desc(tickets.id))
        .limit(pageSize + 1)
        .offset(offset);

    let rows: { id: number }[];
    let count: number;
    if (first!.ids) {
      rows = first!.ids.map((id) => ({ id: Number(id) }));
      count = first!.total ?? 0;
    } else {
      // A word rarer than the walk fills a page falls through to its candidates hashed once and the tickets walked
      // newest first against the hash (hashed subplans in the OR).
      const hits = first!.hits ?? [];
      rows =
        hits.length >= wanted
          ? hits.slice(offset).map((id) => ({ id: Number(id) }))
          : await pageOf(sql`(${byContact} or ${tickets.id} in (${byWordIds}))`);
      // The count stops at SEARCH_COUNT_CAP. Unfiltered, the candidates' count said it already; filtered, the
      // candidates are read until that many pass (the tickets walked to count a word in a thousand of them read
      // every ticket: issue 35's cliff). By contact first, then by words on tickets not found by contact.
      if (!filterWhere && first!.distinct_candidates > SEARCH_COUNT_CAP) {
        count = SEARCH_COUNT_CAP;
      } else {
        const [total] = rowsOf<{ n: number }>(
          await this.db.execute(sql`
            select count(*)::int as n from (
              select ${tickets.id} from ${tickets} where ${and(filterWhere, sql`${tickets.id} in (${byContactIds})`)}
              union all
              select ${tickets.id} from ticket_search s join ${tickets} on ${tickets.id} = s.ticket_id
              where ${and(filterWhere, sql`s.words @@ ${words}`, sql`not coalesce(${byContact}, false)`)}
              limit ${SEARCH_COUNT_CAP}) m`),
        );
        count = total?.n ?? 0;
      }
    }
    const found = await this.searchPageText(rows.slice(0, pageSize).map((r) => r.id), search);
    return `{"tickets":${found},"count":${count},"hasMore":${rows.length > pageSize}}`;
  }

  /**
   * A search page's tickets, in the order of `ids`, as the JSON text of their DTOs, each with its `searchMatch`: the
   * newest message holding a word of the search, as an excerpt around the whole text or else its longest word (null
   * when none does: a ticket found by its contact or protocol). One prepared statement for any search (issue 35: the
   * DTOs and the messages had a statement each, the second planned for every search, and the DTOs were parsed and
   * written again to add the excerpts, ~1 ms of both processes' CPU a page).
   * Per ticket, its ticket_search row first says whether any message holds a word (a name of 10,000 contacts: 40
   * tickets each read to their 1,000th message, 26 requests/s), then its messages are read newest first through the
   * (ticket, created) index, folded and matched until the first that holds one.
   */
  private async searchPageText(ids: number[], search: string): Promise<string> {
    if (ids.length === 0) return '[]';
    const words = foldForSearch(search).split(/[^\p{L}\p{N}]+/u).filter(Boolean);
    const statement = preparedSql(this.db, 'tickets.searchPage', () => {
      const wordsOf = (name: string) => sql`jsonb_array_elements_text(${sql.placeholder(name)}::jsonb)`;
      // Any word of the search (as search_query reads each); null when there is none, which matches nothing.
      const anyWord = sql`(select string_agg('(' || search_query(w)::text || ')', ' | ')::tsquery from ${wordsOf('words')} w)`;
      return sql`
        with q as materialized (select ${anyWord} as any_word, array(select ${wordsOf('patterns')}) as patterns)
        select ${TICKET_DTO_TEXT.sql} as dto, hit.id as message_id, hit.body
        from unnest(${sql.placeholder('ids')}::int[]) with ordinality as k(id, i)
        join tickets t on t.id = k.id
        ${TICKET_DTO_JOINS}
        left join ticket_search s on s.ticket_id = t.id and s.words @@ (select any_word from q)
        left join lateral (
          select m.id, m.body from (
            -- Only the newest messages are looked through (a word only in the first of 10,000 messages cost 20 ms
            -- a ticket, issue 35): an older match still finds the ticket, shown with its last message.
            select m.id, m.body, m.created_at from messages m
            where m.ticket_id = s.ticket_id and not m.is_deleted
            order by m.created_at desc, m.id desc
            limit ${SEARCH_EXCERPT_DEPTH}
          ) m
          -- A message holding any word as a word's beginning holds it folded (cheap) and among its words (exact).
          where f_unaccent(lower(m.body)) like any((select patterns from q)::text[]) and search_words(m.body) @@ (select any_word from q)
          order by m.created_at desc, m.id desc
          limit 1
        ) hit on true
        order by k.i`;
    });
    const result = await statement.execute({
      ids: intArrayParam(ids),
      words: JSON.stringify(words),
      patterns: JSON.stringify(words.map(containsPattern)),
    });
    const dtos = rowsOf<{ dto: string; message_id: string | number | null; body: string | null }>(result).map((row) => {
      const excerpt = row.body === null ? null : (searchExcerpt(row.body, search) ?? longestWordExcerpt(row.body, words));
      // The message it is in: opening the hit scrolls the chat to it (issue 33 item 3).
      const match = excerpt ? { ...excerpt, messageId: Number(row.message_id) } : null;
      // The DTO's object, closed after one more field (PostgreSQL wrote it; it is not parsed here).
      return `${row.dto.slice(0, -1)},"searchMatch":${JSON.stringify(match)}}`;
    });
    return `[${dtos.join(',')}]`;
  }

  /** The open or pending ticket of a contact on a connection. */
  async findActive(contactId: number, whatsappId: number): Promise<number | null> {
    const active = prepared(this.db, 'tickets.active', (name) =>
      this.db
        .select({ id: tickets.id })
        .from(tickets)
        .where(and(eq(tickets.contactId, sql.placeholder('contactId')), eq(tickets.whatsappId, sql.placeholder('whatsappId')), inArray(tickets.status, ['open', 'pending'])))
        .limit(1)
        .prepare(name),
    );
    const [row] = await active.execute({ contactId, whatsappId });
    return row?.id ?? null;
  }

  /**
   * The most recently updated closed ticket of (contact, connection), if any (changed since `since` when given): where
   * the desk's messages go when none is active, and the one a contact's message reopens.
   */
  async findLatestClosed(contactId: number, whatsappId: number, since?: Date): Promise<number | null> {
    const [row] = await this.db
      .select({ id: tickets.id })
      .from(tickets)
      .where(
        and(
          eq(tickets.contactId, contactId),
          eq(tickets.whatsappId, whatsappId),
          eq(tickets.status, 'closed'),
          since ? gte(tickets.updatedAt, since) : undefined,
        ),
      )
      .orderBy(desc(tickets.updatedAt), desc(tickets.id))
      .limit(1);
    return row?.id ?? null;
  }

  /** A ticket's status; null when there is no such ticket. */
  async statusOf(id: number): Promise<TicketStatus | null> {
    const [row] = await this.db.select({ status: tickets.status }).from(tickets).where(eq(tickets.id, id));
    return row ? (row.status as TicketStatus) : null;
  }

  /**
   * Holds the conversation of (contact, connection) until the transaction ends (a transaction's handle only): the
   * senders that pick or make its ticket go one at a time (decision 0029).
   */
  async lockConversation(contactId: number, whatsappId: number): Promise<void> {
    await this.db.execute(sql`select pg_advisory_xact_lock(hashtext(${`conversation:${contactId}:${whatsappId}`}))`);
  }

  /** Earlier tickets as a chat's separators name them: status, and when and by whom each was last resolved. */
  async conversationTickets(ids: readonly number[]): Promise<ConversationTicketDto[]> {
    if (ids.length === 0) return [];
    const rows = rowsOf<{ id: number; status: TicketStatus; whatsapp_id: number; created_at: string; closed_at: string | null; closed_by_id: number | null; closed_by_name: string | null }>(
      await this.db.execute(sql`
        select t.id, t.status, t.whatsapp_id, ${isoTime(sql`t.created_at`)} as created_at, ${isoTime(sql`e.created_at`)} as closed_at,
          u.id as closed_by_id, u.name as closed_by_name
        from tickets t
        left join lateral (
          select created_at, actor_user_id from ticket_events
          where ticket_id = t.id and kind = 'resolved' order by created_at desc, id desc limit 1
        ) e on true
        left join users u on u.id = e.actor_user_id
        where t.id = any(${intArrayParam(ids)}::int[])
        order by t.id desc`),
    );
    return rows.map((row) => ({
      id: row.id,
      status: row.status,
      whatsappId: row.whatsapp_id,
      createdAt: row.created_at,
      closedAt: row.closed_at,
      closedBy: row.closed_by_id !== null ? { id: row.closed_by_id, name: row.closed_by_name ?? '' } : null,
    }));
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

  /**
   * A closed ticket holding imported history (issue 14): created at its oldest message, last changed at its newest,
   * so it takes its place in the Resolved list by the conversation's own time.
   */
  async insertImported(data: { contactId: number; whatsappId: number; isGroup: boolean; lastMessage: string; createdAt: Date; updatedAt: Date }): Promise<number> {
    const [row] = await this.db
      .insert(tickets)
      .values({ ...data, status: 'closed', unreadMessages: 0 })
      .returning({ id: tickets.id });
    return row!.id;
  }

  /** Imported messages joined a ticket: its last message and time follow the newest of them only if it is newer. */
  async touchWithImported(id: number, lastMessage: string, at: Date): Promise<boolean> {
    const rows = await this.db
      .update(tickets)
      .set({ lastMessage, updatedAt: at })
      .where(and(eq(tickets.id, id), lt(tickets.updatedAt, at)))
      .returning({ id: tickets.id });
    return rows.length > 0;
  }

  async update(id: number, data: TicketWrite): Promise<void> {
    await this.db
      .update(tickets)
      .set({ ...data, updatedAt: new Date() })
      .where(eq(tickets.id, id));
  }

  /**
   * Writes `data` only while the ticket still waits with nobody (pending, no user): false when someone took it since it
   * was read (automatic assignment, another accept; decision 0040), and then nothing changed.
   */
  async updateWaiting(id: number, data: TicketWrite): Promise<boolean> {
    const rows = await this.db
      .update(tickets)
      .set({ ...data, updatedAt: new Date() })
      .where(and(eq(tickets.id, id), eq(tickets.status, 'pending'), isNull(tickets.userId)))
      .returning({ id: tickets.id });
    return rows.length > 0;
  }

  /**
   * A deleted message that is the ticket's newest: the preview says so (`[deleted]`, issue 33 item 4). Internal notes are
   * not the conversation (issue 36 §1): a note written after it does not keep it from being the newest.
   */
  async previewDeleted(id: number, messageId: number): Promise<boolean> {
    const rows = rowsOf<{ id: number }>(
      await this.db.execute(sql`
        update tickets t set last_message = ${DELETED_PREVIEW}
        where t.id = ${id}
          and ${messageId} = (select m.id from messages m where m.ticket_id = t.id and not m.private order by m.created_at desc, m.id desc limit 1)
        returning t.id`),
    );
    return rows.length > 0;
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
    const { where, countable } = this.conditions(filter);
    const rows = countable
      ? rowsOf<{ status: string; n: number }>(
          await this.db.execute(sql`select status, coalesce(sum(n), 0)::int as n from ${KEPT_COUNTS} where ${where ?? sql`true`} group by status`),
        )
      : await this.db.select({ status: tickets.status, n: count() }).from(tickets).where(where).groupBy(tickets.status);
    const result: Record<TicketStatus, number> = { open: 0, pending: 0, closed: 0 };
    for (const r of rows) result[r.status as TicketStatus] = r.n;
    return result;
  }

  /** The instants at which the day `day` (YYYY-MM-DD) of `timeZone` begins and ends (PostgreSQL knows the zone's rules). */
  async dayBounds(day: string, timeZone: string): Promise<[Date, Date]> {
    const [row] = rowsOf<{ start: Date | string; end: Date | string }>(
      await this.db.execute(
        sql`select (${day}::date)::timestamp at time zone ${timeZone}::text as start, (${day}::date + 1)::timestamp at time zone ${timeZone}::text as "end"`,
      ),
    );
    return [new Date(row!.start), new Date(row!.end)];
  }

  /** Tickets created per hour of the day in `timeZone` (an IANA name) between `from` and `to`. */
  async createdPerHour(filter: TicketListFilter, from: Date, to: Date, timeZone: string): Promise<Map<number, number>> {
    const rows = await this.db
      .select({ hour: sql<number>`extract(hour from ${tickets.createdAt} at time zone ${timeZone})::int`, n: count() })
      .from(tickets)
      .where(and(this.where(filter), gte(tickets.createdAt, from), lt(tickets.createdAt, to)))
      .groupBy(sql`1`);
    return new Map(rows.map((r) => [Number(r.hour), r.n]));
  }
}
