import type { WebhookDeliveryDto, WebhookDeliveryStatus, WebhookDto, WebhookEvent } from '@wadesk/contracts';
import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import { rowsOf, type Executor } from '../../db/client.js';
import { webhookDeliveries, webhooks } from '../../db/schema.js';

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
  /** Tickets created since then are announced as `ticket.created` (see WebhookEventRecorder). */
  updatedAt: Date;
}

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
    return this.db.select({ id: webhooks.id, events: webhooks.events, updatedAt: webhooks.updatedAt }).from(webhooks).where(eq(webhooks.active, true));
  }

  /**
   * Of `webhookIds`, those that already have a delivery of `event` with `orderKey` (an event said once); with
   * `csatAt`, only one about that rating (its body's data.csat.at).
   */
  async alreadyTold(webhookIds: number[], event: string, orderKey: string, csatAt?: string): Promise<Set<number>> {
    if (webhookIds.length === 0) return new Set();
    const rows = await this.db
      .selectDistinct({ webhookId: webhookDeliveries.webhookId })
      .from(webhookDeliveries)
      .where(
        and(
          inArray(webhookDeliveries.webhookId, webhookIds),
          eq(webhookDeliveries.event, event),
          eq(webhookDeliveries.orderKey, orderKey),
          csatAt === undefined ? undefined : sql`${webhookDeliveries.payload} #>> '{data,csat,at}' = ${csatAt}`,
        ),
      );
    return new Set(rows.map((r) => r.webhookId));
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
