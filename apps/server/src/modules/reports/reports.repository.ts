import type { ReportFigures } from '@wadesk/contracts';
import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Executor } from '../../db/client.js';

/** What a report's rows are: one per attendant, per queue ('' for tickets without one), or per day of the period. */
export type ReportGrouping = 'user' | 'queue' | 'day';

export interface ReportFilter {
  /** The period as instants: [start, end). */
  start: Date;
  end: Date;
  /** The zone whose days the daily report names. */
  timeZone: string;
  /** Only tickets of these queues (their current queue); all when absent. */
  queueIds?: number[];
  /** Only this attendant's work: their messages, and the tickets assigned to them. */
  userId?: number;
}

export interface ReportRow extends ReportFigures {
  /** The user's or queue's id as text ('' for no queue), or the day (YYYY-MM-DD). */
  key: string;
  name: string | null;
  color: string | null;
}

interface RawRow {
  key: string;
  name: string | null;
  color: string | null;
  messages_sent: string | number | null;
  tickets_handled: string | number | null;
  tickets_resolved: string | number | null;
  resolution_median: number | null;
  resolution_p90: number | null;
  first_response_count: string | number | null;
  first_response_median: number | null;
  first_response_p90: number | null;
  csat_average: number | string | null;
  csat_count: string | number | null;
}

const int = (v: string | number | null): number => (v === null ? 0 : Number(v));
const secondsOf = (v: number | null): number | null => (v === null ? null : Math.round(Number(v)));

/**
 * The only file that queries for reports (issue 36 §6, decision 0042). Every figure is computed by PostgreSQL from
 * the kept columns (tickets.first_response_at, resolved_at, csat_at; migration 0020) and the attendants' messages,
 * each read through its own index for the period; Node only names the rows.
 */
export class ReportsRepository {
  constructor(private readonly db: Executor) {}

  /** The instants where the days `from` and `to` (included) begin and end in `timeZone`. */
  async bounds(from: string, to: string, timeZone: string): Promise<[Date, Date]> {
    const [row] = rowsOf<{ start: Date | string; end: Date | string }>(
      await this.db.execute(
        sql`select (${from}::date)::timestamp at time zone ${timeZone}::text as start, (${to}::date + 1)::timestamp at time zone ${timeZone}::text as "end"`,
      ),
    );
    return [new Date(row!.start), new Date(row!.end)];
  }

  /** Every user (or these), by name: the attendants report lists each, with or without work in the period. */
  async users(ids?: number[]): Promise<{ id: number; name: string }[]> {
    if (ids && ids.length === 0) return [];
    const where = ids ? sql`where id in ${ids}` : sql``;
    return rowsOf<{ id: number; name: string }>(await this.db.execute(sql`select id, name from users ${where} order by lower(name), id`));
  }

  /** Every queue (or these), by name. */
  async queues(ids?: number[]): Promise<{ id: number; name: string; color: string }[]> {
    if (ids && ids.length === 0) return [];
    const where = ids ? sql`where id in ${ids}` : sql``;
    return rowsOf<{ id: number; name: string; color: string }>(await this.db.execute(sql`select id, name, color from queues ${where} order by lower(name), id`));
  }

  async figures(grouping: ReportGrouping, filter: ReportFilter): Promise<ReportRow[]> {
    const { start, end, timeZone } = filter;
    // Rows are grouped by a typed key (an id, 0 for no queue, or a date) and named as text once aggregated.
    const day = (column: SQL): SQL => sql`(${column} at time zone ${timeZone}::text)::date`;
    const ticketKey = (column: SQL): SQL => (grouping === 'user' ? sql`t.user_id` : grouping === 'queue' ? sql`coalesce(t.queue_id, 0)` : day(column));
    const keyText =
      grouping === 'user' ? sql`k.key::text` : grouping === 'queue' ? sql`case when k.key = 0 then '' else k.key::text end` : sql`to_char(k.key, 'YYYY-MM-DD')`;
    const queueFilter = filter.queueIds
      ? filter.queueIds.length > 0
        ? sql` and t.queue_id in ${filter.queueIds}`
        : sql` and false`
      : sql``;
    const ticketFilter = sql.join(
      [queueFilter, filter.userId !== undefined ? sql` and t.user_id = ${filter.userId}` : sql``, grouping === 'user' ? sql` and t.user_id is not null` : sql``],
      sql``,
    );
    // The attendants' messages of the period, counted per ticket (and attendant or day) from the index alone; their
    // ticket is read (by its key) only for its queue, once per ticket rather than once per message.
    const messagesNeedTicket = grouping === 'queue' || filter.queueIds !== undefined;
    const messageSub = grouping === 'user' ? sql`m.sent_by_user_id` : grouping === 'day' ? day(sql`m.created_at`) : sql`0`;
    const sentKey = grouping === 'queue' ? sql`coalesce(t.queue_id, 0)` : sql`p.sub`;
    // `offset 0` keeps the lateral read a key lookup per ticket (index only, tickets_report_queue_idx): the planner,
    // guessing more tickets, would hash all of them.
    const sentFrom = messagesNeedTicket
      ? sql`per_ticket p cross join lateral (select t.queue_id from tickets t where t.id = p.ticket_id offset 0) t where true${queueFilter}`
      : sql`per_ticket p`;
    const messageFilter = filter.userId !== undefined ? sql` and m.sent_by_user_id = ${filter.userId}` : sql``;
    const names =
      grouping === 'user'
        ? { select: sql`u.name as name, null::text as color`, join: sql`left join users u on u.id = k.key` }
        : grouping === 'queue'
          ? { select: sql`q.name as name, q.color as color`, join: sql`left join queues q on q.id = k.key` }
          : { select: sql`null::text as name, null::text as color`, join: sql`` };

    // The same predicates as the partial indexes of migration 0020, so that each part reads its index for the period.
    const query = sql`
      with per_ticket as (
        select m.ticket_id, ${messageSub} as sub, count(*) as n
        from messages m
        where m.sender_kind = 'user' and not m.private and m.origin is null and m.sent_by_user_id is not null
          and m.created_at >= ${start} and m.created_at < ${end}${messageFilter}
        group by 1, 2),
      sent as (
        select ${sentKey} as key, sum(p.n) as messages_sent, count(distinct p.ticket_id) as tickets_handled
        from ${sentFrom}
        group by 1),
      resolved as (
        select ${ticketKey(sql`t.resolved_at`)} as key, count(*) as tickets_resolved,
               percentile_cont(array[0.5, 0.9]) within group (order by extract(epoch from t.resolved_at - t.created_at)) as resolution
        from tickets t
        where t.resolved_at is not null and t.resolved_at >= ${start} and t.resolved_at < ${end}${ticketFilter}
        group by 1),
      answered as (
        select key, count(*) as first_response_count, percentile_cont(array[0.5, 0.9]) within group (order by wait) as first_response
        from (
          select ${ticketKey(sql`t.first_response_at`)} as key,
                 case when q.business_hours is null then extract(epoch from t.first_response_at - t.created_at)
                      else business_seconds(q.business_hours, t.created_at, t.first_response_at) end as wait
          from tickets t left join queues q on q.id = t.queue_id
          where t.first_response_at is not null and t.first_response_at >= ${start} and t.first_response_at < ${end}${ticketFilter}) w
        group by 1),
      rated as (
        select ${ticketKey(sql`t.csat_at`)} as key, avg(t.csat_rating)::float8 as csat_average, count(*) as csat_count
        from tickets t
        where t.csat_rating is not null and t.csat_at >= ${start} and t.csat_at < ${end}${ticketFilter}
        group by 1),
      k as (select key from sent union select key from resolved union select key from answered union select key from rated)
      select ${keyText} as key, ${names.select},
             s.messages_sent, s.tickets_handled, r.tickets_resolved, r.resolution[1] as resolution_median, r.resolution[2] as resolution_p90,
             a.first_response_count, a.first_response[1] as first_response_median, a.first_response[2] as first_response_p90,
             c.csat_average, c.csat_count
      from k
      left join sent s on s.key = k.key
      left join resolved r on r.key = k.key
      left join answered a on a.key = k.key
      left join rated c on c.key = k.key
      ${names.join}
      where k.key is not null
      order by 1`;
    // The planner's row estimates for a long period pass the JIT threshold, and compiling costs ten times the query.
    const result = await this.db.transaction(async (tx) => {
      await tx.execute(sql`set local jit = off`);
      return tx.execute(query);
    });
    return rowsOf<RawRow>(result).map((r) => ({
      key: r.key,
      name: r.name,
      color: r.color,
      ticketsHandled: int(r.tickets_handled),
      ticketsResolved: int(r.tickets_resolved),
      firstResponse: { median: secondsOf(r.first_response_median), p90: secondsOf(r.first_response_p90), count: int(r.first_response_count) },
      resolution: { median: secondsOf(r.resolution_median), p90: secondsOf(r.resolution_p90), count: int(r.tickets_resolved) },
      messagesSent: int(r.messages_sent),
      csat: { average: r.csat_average === null ? null : Math.round(Number(r.csat_average) * 100) / 100, count: int(r.csat_count) },
    }));
  }
}
