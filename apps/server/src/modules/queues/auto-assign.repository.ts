import { sql } from 'drizzle-orm';
import { rowsOf, type Executor } from '../../db/client.js';
import { intArrayParam } from '../../db/prepared.js';

/** Serializes the assignment runs of every process on one database (decision 0040); the transaction holds it. */
const AUTO_ASSIGN_LOCK = 'wadesk:auto-assign';

/** A pending ticket of a queue with automatic assignment on, locked for this run. */
export interface AssignableTicket {
  id: number;
  queueId: number;
}

/** Who got it. */
export interface Assignee {
  id: number;
  name: string;
}

/** The only file that queries for automatic assignment (issue 36 §4): who waits, who may take it, and the handing over. */
export class AutoAssignRepository {
  constructor(private readonly db: Executor) {}

  /**
   * The users of the queues that have automatic assignment on and a pending ticket nobody holds: the only ones whose
   * presence matters to a run. Empty when nothing waits (the usual answer, one index scan).
   */
  async candidateUserIds(): Promise<number[]> {
    const rows = await this.db.execute(sql`
      select distinct uq.user_id
        from user_queues uq
        join queues q on q.id = uq.queue_id and q.auto_assign
       where exists (select 1 from tickets t where t.queue_id = q.id and t.status = 'pending' and t.user_id is null)`);
    return rowsOf<{ user_id: number }>(rows).map((r) => Number(r.user_id));
  }

  /** Waits for the other processes' runs to end: one run at a time on the database, until this transaction ends. */
  async lockRun(): Promise<void> {
    await this.db.execute(sql`select pg_advisory_xact_lock(hashtext(${AUTO_ASSIGN_LOCK}))`);
  }

  /**
   * Up to `limit` pending tickets nobody holds in queues with automatic assignment on, oldest first, after `afterId`,
   * locked (those another transaction holds, e.g. an attendant accepting one right now, are skipped).
   */
  async lockPending(afterId: number, limit: number): Promise<AssignableTicket[]> {
    const rows = await this.db.execute(sql`
      select t.id, t.queue_id
        from tickets t
        join queues q on q.id = t.queue_id and q.auto_assign
       where t.status = 'pending' and t.user_id is null and t.id > ${afterId}
       order by t.id
       limit ${limit}
         for update of t skip locked`);
    return rowsOf<{ id: number; queue_id: number }>(rows).map((r) => ({ id: Number(r.id), queueId: Number(r.queue_id) }));
  }

  /**
   * The online user of the queue (among `onlineIds`) below their limit of open tickets with the fewest open tickets,
   * ties by longest since their last assignment (never assigned first), then by id; their row locked for the rest of
   * the transaction. Null when nobody may take it.
   */
  async chooseAssignee(queueId: number, onlineIds: number[]): Promise<Assignee | null> {
    if (onlineIds.length === 0) return null;
    const rows = await this.db.execute(sql`
      select u.id, u.name
        from users u
        join user_queues uq on uq.user_id = u.id and uq.queue_id = ${queueId}
        cross join lateral (select count(*)::int as n from tickets o where o.user_id = u.id and o.status = 'open') open_count
       where u.id = any(${intArrayParam(onlineIds)}::int[])
         and (u.max_open_tickets = 0 or open_count.n < u.max_open_tickets)
       order by open_count.n, u.last_assigned_at asc nulls first, u.id
       limit 1
         for update of u`);
    const [row] = rowsOf<{ id: number; name: string }>(rows);
    return row ? { id: Number(row.id), name: row.name } : null;
  }

  /** Hands the (locked, pending) ticket to the user: open, theirs; the user's last assignment is now. */
  async assign(ticketId: number, userId: number, at: Date): Promise<boolean> {
    const updated = await this.db.execute(sql`
      update tickets set status = 'open', user_id = ${userId}, updated_at = ${at}
       where id = ${ticketId} and status = 'pending' and user_id is null
       returning id`);
    if (rowsOf(updated).length === 0) return false;
    await this.db.execute(sql`update users set last_assigned_at = ${at} where id = ${userId}`);
    return true;
  }
}
