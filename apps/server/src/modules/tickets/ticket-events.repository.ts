import type { TicketEventDto, TicketEventKind } from '@wadesk/contracts';
import { and, asc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { prepared } from '../../db/prepared.js';
import { ticketEvents, users } from '../../db/schema.js';

export interface TicketEventWrite {
  ticketId: number;
  kind: TicketEventKind;
  actorUserId: number | null;
  toUser?: { id: number; name: string } | null;
  toQueue?: { id: number; name: string } | null;
  createdAt?: Date;
}

interface TicketEventData {
  toUser?: { id: number; name: string } | null;
  toQueue?: { id: number; name: string } | null;
}

/** The only file that queries ticket events (the timeline's "resolved by …", "transferred to …"). */
export class TicketEventsRepository {
  constructor(private readonly db: Executor) {}

  async insert(events: TicketEventWrite[]): Promise<void> {
    if (events.length === 0) return;
    await this.db.insert(ticketEvents).values(
      events.map((e) => {
        const data: TicketEventData = {};
        if (e.toUser !== undefined) data.toUser = e.toUser;
        if (e.toQueue !== undefined) data.toQueue = e.toQueue;
        return { ticketId: e.ticketId, kind: e.kind, actorUserId: e.actorUserId, data, ...(e.createdAt ? { createdAt: e.createdAt } : {}) };
      }),
    );
  }

  /** A ticket's events with `from <= createdAt < until` (either bound may be open), oldest first. */
  async listBetween(ticketId: number, from: Date | null, until: Date | null): Promise<TicketEventDto[]> {
    // Read with every messages page: a prepared statement for each of the four shapes.
    const between = prepared(this.db, `ticketEvents.between:${from ? 'from' : ''},${until ? 'until' : ''}`, (name) => {
      const conditions: SQL[] = [eq(ticketEvents.ticketId, sql.placeholder('ticketId'))];
      if (from) conditions.push(gte(ticketEvents.createdAt, sql.placeholder('from')));
      if (until) conditions.push(lt(ticketEvents.createdAt, sql.placeholder('until')));
      return this.db
        .select({ event: ticketEvents, actorName: users.name })
        .from(ticketEvents)
        .leftJoin(users, eq(users.id, ticketEvents.actorUserId))
        .where(and(...conditions))
        .orderBy(asc(ticketEvents.createdAt), asc(ticketEvents.id))
        .prepare(name);
    });
    const rows = await between.execute({ ticketId, from, until });
    return rows.map(({ event, actorName }) => {
      const data = (event.data ?? {}) as TicketEventData;
      const dto: TicketEventDto = {
        id: event.id,
        ticketId: event.ticketId,
        kind: event.kind as TicketEventKind,
        actor: event.actorUserId && actorName ? { id: event.actorUserId, name: actorName } : null,
        createdAt: event.createdAt.toISOString(),
      };
      if (data.toUser) dto.toUser = data.toUser;
      if (data.toQueue) dto.toQueue = data.toQueue;
      return dto;
    });
  }
}
