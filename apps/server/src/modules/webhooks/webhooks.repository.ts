import type { WebhookDeliveryDto, WebhookDeliveryStatus, WebhookDto, WebhookEvent } from '@wadesk/contracts';
import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import { rowsOf, type Executor } from '../../db/client.js';
import { webhookDeliveries, webhooks } from '../../db/schema.js';
import { MESSAGE_DTO_JSON, messageDtoJoins } from '../messages/messages.repository.js';
import { TICKET_DTO_JOINS, ticketDtoJsonLabelled } from '../tickets/tickets.repository.js';

export interface WebhookWrite {
  url: string;
  events: WebhookEvent[];
  secret: string;
  active: boolean;
}

/** An active webhook as the event recorder needs it. */
export interface ListeningWebhook {
  id: number;
  events: string[];
}

/**
 * One event the triggers of migration 0021 wrote in a change's transaction, taken from the outbox: `dto` is the
 * message (with its ticket's ids and status) or the ticket as the change left it, built from the row then; null for
 * contacts and bulk sends (read when recorded), and when the ticket is gone.
 */
export interface OutboxEvent {
  id: number;
  event: string;
  entityId: number;
  tx: string;
  previous: { status: string; queueId: number | null; userId: number | null; labelIds: number[] } | null;
  webhookIds: number[];
  dto: unknown;
  createdAt: Date;
}

/** The key of the advisory lock that makes the outbox's readers take turns (one after another keeps its order). */
const OUTBOX_LOCK = 'webhooks.outbox';

/** One delivery to write: the same event (id, name, body) for one webhook. */
export interface DeliveryWrite {
  webhookId: number;
  eventId: string;
  event: string;
  orderKey: string | null;
  payload: unknown;
  nextAttemptAt: Date;
  createdAt: Date;
}

/** A claimed delivery with what sending it needs. */
export interface ClaimedDelivery {
  id: number;
  webhookId: number;
  eventId: string;
  event: string;
  orderKey: string | null;
  payload: unknown;
  attempts: number;
  createdAt: Date;
  url: string;
  secret: string;
}

type WebhookRow = typeof webhooks.$inferSelect;
type DeliveryRow = typeof webhookDeliveries.$inferSelect;

function toWebhookDto(row: WebhookRow, counts: { pending: number; failed: number }): WebhookDto {
  return {
    id: row.id,
    url: row.url,
    events: row.events as WebhookDto['events'],
    secret: row.secret,
    active: row.active,
    pending: counts.pending,
    failed: counts.failed,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function toDeliveryDto(row: DeliveryRow): WebhookDeliveryDto {
  return {
    id: row.id,
    webhookId: row.webhookId,
    eventId: row.eventId,
    event: row.event as WebhookDeliveryDto['event'],
    status: row.status as WebhookDeliveryStatus,
    attempts: row.attempts,
    responseCode: row.responseCode,
    lastError: row.lastError,
    nextAttemptAt: row.status === 'pending' ? row.nextAttemptAt.toISOString() : null,
    deliveredAt: row.deliveredAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The only file that queries webhooks and their deliveries. */
export class WebhooksRepository {
  constructor(private readonly db: Executor) {}

  private async countsOf(ids: number[]): Promise<Map<number, { pending: number; failed: number }>> {
    const counts = new Map<number, { pending: number; failed: number }>();
    if (ids.length === 0) return counts;
    const rows = await this.db
      .select({ webhookId: webhookDeliveries.webhookId, status: webhookDeliveries.status, n: count() })
      .from(webhookDeliveries)
      .where(and(inArray(webhookDeliveries.webhookId, ids), inArray(webhookDeliveries.status, ['pending', 'failed'])))
      .groupBy(webhookDeliveries.webhookId, webhookDeliveries.status);
    for (const row of rows) {
      const entry = counts.get(row.webhookId) ?? { pending: 0, failed: 0 };
      if (row.status === 'pending') entry.pending = row.n;
      else entry.failed = row.n;
      counts.set(row.webhookId, entry);
    }
    return counts;
  }

  async list(): Promise<WebhookDto[]> {
    const rows = await this.db.select().from(webhooks).orderBy(asc(webhooks.id));
    const counts = await this.countsOf(rows.map((r) => r.id));
    return rows.map((row) => toWebhookDto(row, counts.get(row.id) ?? { pending: 0, failed: 0 }));
  }

  async findDto(id: number): Promise<WebhookDto | null> {
    const [row] = await this.db.select().from(webhooks).where(eq(webhooks.id, id)).limit(1);
    if (!row) return null;
    const counts = await this.countsOf([id]);
    return toWebhookDto(row, counts.get(id) ?? { pending: 0, failed: 0 });
  }

  async insert(data: WebhookWrite): Promise<WebhookDto> {
    const [row] = await this.db.insert(webhooks).values(data).returning();
    return toWebhookDto(row!, { pending: 0, failed: 0 });
  }

  async update(id: number, data: WebhookWrite): Promise<WebhookDto | null> {
    const [row] = await this.db
      .update(webhooks)
      .set({ ...data, updatedAt: new Date() })
      .where(eq(webhooks.id, id))
      .returning();
    return row ? this.findDto(row.id) : null;
  }

  async delete(id: number): Promise<boolean> {
    const rows = await this.db.delete(webhooks).where(eq(webhooks.id, id)).returning({ id: webhooks.id });
    return rows.length > 0;
  }

  /** The active webhooks, with the events each listens to. */
  async active(): Promise<ListeningWebhook[]> {
    return this.db.select({ id: webhooks.id, events: webhooks.events }).from(webhooks).where(eq(webhooks.active, true));
  }

  /** Inside a transaction: the messages it stores are not told as `message.created` (migration 0021's trigger). */
  async quietMessageEvents(): Promise<void> {
    await this.db.execute(sql`select set_config('wadesk.webhooks_quiet', 'on', true)`);
  }

  /** Whether any webhook is on (a process with none need not look at the outbox). */
  async anyActive(): Promise<boolean> {
    const [row] = await this.db.select({ id: webhooks.id }).from(webhooks).where(eq(webhooks.active, true)).limit(1);
    return row !== undefined;
  }

  /**
   * Inside a transaction: waits for the outbox's turn (an advisory lock until the transaction ends, so two processes
   * never record the same events or interleave a ticket's), then takes up to `limit` of its oldest events, deleted
   * as they are read (the transaction's rollback puts them back), each with its DTO built from the row the change
   * left (messages, tickets).
   */
  async takeOutbox(limit: number): Promise<OutboxEvent[]> {
    await this.db.execute(sql`select pg_advisory_xact_lock(hashtext(${OUTBOX_LOCK}))`);
    const result = await this.db.execute(sql`
      with taken as (
        delete from webhook_outbox where id in (select id from webhook_outbox order by id limit ${limit}) returning *
      )
      select o.id, o.event, o.entity_id, o.tx::text as tx, o.previous, o.webhook_ids, o.created_at,
        case
          when o.event in ('message.created', 'message.updated') then (
            select json_build_object(
                'message', ${MESSAGE_DTO_JSON},
                'ticket', json_build_object('id', t.id, 'status', t.status, 'contactId', t.contact_id, 'queueId', t.queue_id,
                  'userId', t.user_id, 'whatsappId', t.whatsapp_id))
            from jsonb_populate_record(null::messages, o.row) m ${messageDtoJoins(sql`contacts`)}
              join tickets t on t.id = m.ticket_id)
          when o.event in ('ticket.created', 'ticket.updated', 'csat.received') then (
            -- Its labels as the change left them (a row of migration 0021's triggers has none: those it carries now).
            select ${ticketDtoJsonLabelled(sql`coalesce(o.label_ids, webhook_ticket_label_ids(t.id))`)}
            from jsonb_populate_record(null::tickets, coalesce(o.row, (select to_jsonb(x) from tickets x where x.id = o.entity_id))) t
              ${TICKET_DTO_JOINS}
            where exists (select 1 from tickets x where x.id = o.entity_id))
        end as dto
      from taken o
      order by o.id`);
    return rowsOf<{
      id: string | number;
      event: string;
      entity_id: string | number;
      tx: string;
      previous: OutboxEvent['previous'];
      webhook_ids: number[];
      created_at: Date | string;
      dto: unknown;
    }>(result).map((row) => ({
      id: Number(row.id),
      event: row.event,
      entityId: Number(row.entity_id),
      tx: row.tx,
      previous: row.previous,
      webhookIds: row.webhook_ids.map(Number),
      dto: row.dto,
      createdAt: new Date(row.created_at),
    }));
  }

  async insertDeliveries(rows: DeliveryWrite[]): Promise<number[]> {
    if (rows.length === 0) return [];
    const inserted = await this.db.insert(webhookDeliveries).values(rows).returning({ id: webhookDeliveries.id });
    return inserted.map((r) => r.id);
  }

  async findDelivery(webhookId: number, deliveryId: number): Promise<DeliveryRow | null> {
    const [row] = await this.db
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.webhookId, webhookId)))
      .limit(1);
    return row ?? null;
  }

  async deliveryDto(deliveryId: number): Promise<WebhookDeliveryDto | null> {
    const [row] = await this.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, deliveryId)).limit(1);
    return row ? toDeliveryDto(row) : null;
  }

  async listDeliveries(webhookId: number, page: number, pageSize: number): Promise<{ deliveries: WebhookDeliveryDto[]; count: number }> {
    const [total] = await this.db.select({ n: count() }).from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, webhookId));
    const rows = await this.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.webhookId, webhookId))
      .orderBy(desc(webhookDeliveries.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize);
    return { deliveries: rows.map(toDeliveryDto), count: total?.n ?? 0 };
  }

  /**
   * Takes a due delivery for one attempt: pending, due by `now`, its webhook active, and no older delivery of the
   * same webhook and order key still pending (order per ticket). Its next attempt moves to `leaseUntil`, so a second
   * job for it finds nothing to take, and a process that dies while sending leaves it due again then.
   */
  async claim(deliveryId: number, now: Date, leaseUntil: Date): Promise<ClaimedDelivery | null> {
    const result = await this.db.execute(sql`
      update webhook_deliveries d set next_attempt_at = ${leaseUntil.toISOString()}::timestamptz
      from webhooks w
      where d.id = ${deliveryId} and w.id = d.webhook_id and w.active and d.status = 'pending' and d.next_attempt_at <= ${now.toISOString()}::timestamptz
        and not exists (
          select 1 from webhook_deliveries o
          where o.webhook_id = d.webhook_id and o.order_key = d.order_key and o.status = 'pending' and o.id < d.id
        )
      returning d.id, d.webhook_id, d.event_id, d.event, d.order_key, d.payload, d.attempts, d.created_at, w.url, w.secret`);
    const [row] = rowsOf<{
      id: string;
      webhook_id: number;
      event_id: string;
      event: string;
      order_key: string | null;
      payload: unknown;
      attempts: number;
      created_at: Date | string;
      url: string;
      secret: string;
    }>(result);
    if (!row) return null;
    return {
      id: Number(row.id),
      webhookId: Number(row.webhook_id),
      eventId: row.event_id,
      event: row.event,
      orderKey: row.order_key,
      payload: row.payload,
      attempts: row.attempts,
      createdAt: new Date(row.created_at),
      url: row.url,
      secret: row.secret,
    };
  }

  /** A delivery not taken: whether it waits for an older one (its turn comes when that one ends) and when it is due. */
  async waitingState(deliveryId: number): Promise<{ status: string; nextAttemptAt: Date; blocked: boolean; active: boolean } | null> {
    const result = await this.db.execute(sql`
      select d.status, d.next_attempt_at, w.active,
        exists (
          select 1 from webhook_deliveries o
          where o.webhook_id = d.webhook_id and o.order_key = d.order_key and o.status = 'pending' and o.id < d.id
        ) as blocked
      from webhook_deliveries d join webhooks w on w.id = d.webhook_id
      where d.id = ${deliveryId}`);
    const [row] = rowsOf<{ status: string; next_attempt_at: Date | string; blocked: boolean; active: boolean }>(result);
    return row ? { status: row.status, nextAttemptAt: new Date(row.next_attempt_at), blocked: row.blocked, active: row.active } : null;
  }

  async markDelivered(id: number, attempts: number, responseCode: number, at: Date): Promise<void> {
    await this.db
      .update(webhookDeliveries)
      .set({ status: 'delivered', attempts, responseCode, lastError: null, deliveredAt: at, nextAttemptAt: at })
      .where(eq(webhookDeliveries.id, id));
  }

  async markAttemptFailed(id: number, attempts: number, responseCode: number | null, error: string, next: { retryAt: Date } | { failed: true }, at: Date): Promise<void> {
    await this.db
      .update(webhookDeliveries)
      .set({
        attempts,
        responseCode,
        lastError: error.slice(0, 1000),
        ...('failed' in next ? { status: 'failed', nextAttemptAt: at } : { nextAttemptAt: next.retryAt }),
      })
      .where(eq(webhookDeliveries.id, id));
  }

  /** The oldest pending delivery of a webhook's order key (the next in line once one ends). */
  async nextInLine(webhookId: number, orderKey: string): Promise<number | null> {
    const [row] = await this.db
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.webhookId, webhookId), eq(webhookDeliveries.orderKey, orderKey), eq(webhookDeliveries.status, 'pending')))
      .orderBy(asc(webhookDeliveries.id))
      .limit(1);
    return row?.id ?? null;
  }

  /** Deletes up to `limit` ended deliveries (delivered or failed) older than `before`; answers how many. */
  async pruneEnded(before: Date, limit: number): Promise<number> {
    const result = await this.db.execute(sql`
      delete from webhook_deliveries where id in (
        select id from webhook_deliveries where status <> 'pending' and created_at < ${before.toISOString()}::timestamptz order by id limit ${limit}
      ) returning id`);
    return rowsOf<{ id: string }>(result).length;
  }

  /** Pending deliveries due by `now` that are first in their line, of active webhooks (a sweep re-queues them). */
  async dueHeads(now: Date, limit: number, webhookId?: number): Promise<number[]> {
    const result = await this.db.execute(sql`
      select d.id from webhook_deliveries d join webhooks w on w.id = d.webhook_id
      where d.status = 'pending' and w.active and d.next_attempt_at <= ${now.toISOString()}::timestamptz
        ${webhookId === undefined ? sql`` : sql`and d.webhook_id = ${webhookId}`}
        and not exists (
          select 1 from webhook_deliveries o
          where o.webhook_id = d.webhook_id and o.order_key = d.order_key and o.status = 'pending' and o.id < d.id
        )
      order by d.id limit ${limit}`);
    return rowsOf<{ id: string }>(result).map((r) => Number(r.id));
  }
}
