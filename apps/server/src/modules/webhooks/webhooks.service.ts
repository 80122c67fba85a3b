import { randomBytes, randomUUID } from 'node:crypto';
import {
  WEBHOOK_DELIVERIES_PAGE_SIZE,
  type WebhookDeliveryDto,
  type WebhookDeliveryListResponse,
  type WebhookDto,
  type WebhookInput,
  type WebhookListResponse,
} from '@wadesk/contracts';
import type { z } from 'zod';
import type { Database } from '../../db/client.js';
import { AppError } from '../../http/app-error.js';
import { RemoteMediaError } from '../../storage/remote-media.js';
import type { JobLog } from '../../jobs/job-queue.js';
import { audit } from '../audit/audit.js';
import { checkWebhookUrl, postWebhook, webhookSignature, type WebhookPostResult } from './webhook-sender.js';
import { WebhooksRepository, type DeliveryWrite } from './webhooks.repository.js';

export type WebhookData = z.output<typeof WebhookInput>;

const NOT_FOUND = 'Webhook not found.';

/** Waits between attempts: 10 s, 30 s, 1 min, 2 min, 5 min, 10 min, then every 30 min until 24 h have passed. */
export const DEFAULT_BACKOFF_MS = [10_000, 30_000, 60_000, 120_000, 300_000, 600_000, 1_800_000];

export interface WebhooksOptions {
  /** MEDIA_FETCH_PRIVATE=allow: URLs on private and loopback addresses are accepted (tests, development). */
  allowPrivate: boolean;
  clock?: () => Date;
  /** The wait after the n-th failed attempt (the last one repeats); tests make them short. */
  backoffMs?: number[];
  /** How long a delivery is retried before it is `failed` (24 h). */
  giveUpAfterMs?: number;
  /** One attempt's time limit (10 s). */
  timeoutMs?: number;
  log: JobLog;
}

/** What runs a delivery (a pg-boss job in the app; tests may run it directly). */
export type DeliveryQueue = (deliveryId: number, startAfter?: Date) => Promise<void>;

/**
 * Outgoing webhooks (issue 37 §3, decision 0045): admins manage them; each event is stored once per webhook that
 * listens to it (webhook_deliveries) and sent by a job, signed, retried with backoff for 24 h, in order per ticket.
 */
export class WebhooksService {
  private queue: DeliveryQueue = async () => undefined;
  private readonly changeListeners: (() => void)[] = [];
  private readonly clock: () => Date;
  private readonly backoffMs: number[];
  private readonly giveUpAfterMs: number;
  private readonly timeoutMs: number;

  constructor(
    private readonly db: Database,
    private readonly options: WebhooksOptions,
  ) {
    this.clock = options.clock ?? (() => new Date());
    this.backoffMs = options.backoffMs ?? DEFAULT_BACKOFF_MS;
    this.giveUpAfterMs = options.giveUpAfterMs ?? 24 * 60 * 60_000;
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  private repo(): WebhooksRepository {
    return new WebhooksRepository(this.db);
  }

  /** Set once the job queue runs (webhooks.jobs.ts). */
  useQueue(queue: DeliveryQueue): void {
    this.queue = queue;
  }

  /** Called after a webhook is saved or deleted here (the event recorder looks again whether any is on). */
  onChange(listener: () => void): void {
    this.changeListeners.push(listener);
  }

  private changed(): void {
    for (const listener of this.changeListeners) listener();
  }

  /** Queues deliveries just stored (their rows are the truth: a lost job is queued again by the sweep). */
  async queueDeliveries(ids: number[]): Promise<void> {
    for (const id of ids) await this.queue(id);
  }

  async list(): Promise<WebhookListResponse> {
    return { webhooks: await this.repo().list() };
  }

  async get(id: number): Promise<WebhookDto> {
    const webhook = await this.repo().findDto(id);
    if (!webhook) throw new AppError('ERR_NO_WEBHOOK_FOUND', NOT_FOUND);
    return webhook;
  }

  /** The URL follows the mediaUrl rules: refused with 400 ERR_WEBHOOK_URL_REFUSED when not public (or not found). */
  private async checkUrl(url: string): Promise<void> {
    try {
      await checkWebhookUrl(url, this.options.allowPrivate);
    } catch (err) {
      if (err instanceof RemoteMediaError) throw new AppError('ERR_WEBHOOK_URL_REFUSED', err.message.replace(/^mediaUrl: /, 'url: '));
      throw err;
    }
  }

  /** Each change is audited in its own transaction (issue 37 §2), the secret masked. */
  async create(data: WebhookData): Promise<WebhookDto> {
    await this.checkUrl(data.url);
    return this.db.transaction(async (tx) => {
      const created = await new WebhooksRepository(tx).insert({ url: data.url, events: data.events, active: data.active, secret: data.secret || newSecret() });
      await audit.record(tx, { action: 'webhook.create', targetType: 'webhook', targetId: created.id, after: auditView(created) });
      return created;
    }).finally(() => this.changed());
  }

  async update(id: number, data: WebhookData): Promise<WebhookDto> {
    const current = await this.get(id);
    await this.checkUrl(data.url);
    const updated = await this.db.transaction(async (tx) => {
      const secret = data.secret || current.secret;
      const changed = await new WebhooksRepository(tx).update(id, { url: data.url, events: data.events, active: data.active, secret });
      if (changed) {
        await audit.record(tx, {
          action: 'webhook.update',
          targetType: 'webhook',
          targetId: id,
          before: auditView(current),
          // A new secret reads as *** like the old one: the entry says it changed (a name the log does not mask).
          after: { ...auditView(changed), ...(secret !== current.secret && { signingKeyRenewed: true }) },
        });
      }
      return changed;
    });
    this.changed();
    if (!updated) throw new AppError('ERR_NO_WEBHOOK_FOUND', NOT_FOUND);
    // Turned back on: what waited goes out now, in order.
    if (updated.active && !current.active) await this.sweep(id);
    return updated;
  }

  async delete(id: number): Promise<void> {
    const deleted = await this.db.transaction(async (tx) => {
      const repo = new WebhooksRepository(tx);
      const before = await repo.findDto(id);
      if (!before || !(await repo.delete(id))) return false;
      await audit.record(tx, { action: 'webhook.delete', targetType: 'webhook', targetId: id, before: auditView(before) });
      return true;
    });
    this.changed();
    if (!deleted) throw new AppError('ERR_NO_WEBHOOK_FOUND', NOT_FOUND);
  }

  async deliveries(id: number, pageNumber: number): Promise<WebhookDeliveryListResponse> {
    await this.get(id);
    const { deliveries, count } = await this.repo().listDeliveries(id, pageNumber, WEBHOOK_DELIVERIES_PAGE_SIZE);
    return { deliveries, count, hasMore: count > pageNumber * WEBHOOK_DELIVERIES_PAGE_SIZE };
  }

  /**
   * Sends an event again: a new delivery with the same event id and body (receivers that had it de-duplicate), out
   * of any order line, tried at once and retried like any other.
   */
  async redeliver(id: number, deliveryId: number): Promise<WebhookDeliveryDto> {
    await this.get(id);
    const original = await this.repo().findDelivery(id, deliveryId);
    if (!original) throw new AppError('ERR_NOT_FOUND', 'Delivery not found.');
    const now = this.clock();
    const [newId] = await this.repo().insertDeliveries([
      { webhookId: id, eventId: original.eventId, event: original.event, orderKey: null, payload: original.payload, nextAttemptAt: now, createdAt: now },
    ]);
    await this.queue(newId!);
    return (await this.repo().deliveryDto(newId!))!;
  }

  /**
   * A `webhook.test` event, sent once now (even when the webhook is off), answered with its delivery: the
   * receiver's status or why there was none. Not retried.
   */
  async test(id: number): Promise<WebhookDeliveryDto> {
    const webhook = await this.get(id);
    const now = this.clock();
    const eventId = randomUUID();
    const payload = { id: eventId, event: 'webhook.test', createdAt: now.toISOString(), data: { webhookId: id, message: 'A test from the desk' } };
    const [deliveryId] = await this.repo().insertDeliveries([
      { webhookId: id, eventId, event: 'webhook.test', orderKey: null, payload, nextAttemptAt: now, createdAt: now },
    ]);
    const result = await this.post(webhook.url, webhook.secret, payload);
    const at = this.clock();
    if (result.status !== null && result.status >= 200 && result.status < 300) await this.repo().markDelivered(deliveryId!, 1, result.status, at);
    else await this.repo().markAttemptFailed(deliveryId!, 1, result.status, errorOf(result), { failed: true }, at);
    return (await this.repo().deliveryDto(deliveryId!))!;
  }

  /**
   * Stores one event for the given webhooks (one delivery each, one event id) and queues them: for an event of the
   * desk's own making; the events of changes come from the outbox (WebhookEventRecorder).
   */
  async record(webhookEvents: { webhookId: number; event: string }[], orderKey: string | null, data: unknown): Promise<void> {
    if (webhookEvents.length === 0) return;
    const now = this.clock();
    const eventId = randomUUID();
    const rows: DeliveryWrite[] = webhookEvents.map(({ webhookId, event }) => ({
      webhookId,
      eventId,
      event,
      orderKey,
      payload: { id: eventId, event, createdAt: now.toISOString(), data },
      nextAttemptAt: now,
      createdAt: now,
    }));
    await this.queueDeliveries(await this.repo().insertDeliveries(rows));
  }

  private async post(url: string, secret: string, payload: unknown): Promise<WebhookPostResult> {
    const body = JSON.stringify(payload);
    const timestamp = Math.floor(this.clock().getTime() / 1000);
    return postWebhook(
      url,
      body,
      { 'x-desk-timestamp': String(timestamp), 'x-desk-signature': webhookSignature(secret, timestamp, body) },
      { allowPrivate: this.options.allowPrivate, timeoutMs: this.timeoutMs },
    );
  }

  /**
   * One attempt at a delivery (the job's handler). Nothing happens when it is not due, already ended, its webhook is
   * off, or an older delivery of its ticket still waits (that one's end queues this one). A 2xx answer delivers it;
   * anything else retries it after the backoff, until 24 h after the event, when it is `failed`.
   */
  async attempt(deliveryId: number): Promise<void> {
    const repo = this.repo();
    const now = this.clock();
    // The lease outlasts the attempt (its time limit) by 15 s; a process killed while sending leaves the delivery, and
    // the rest of its ticket's line, due again then (the sweep, each minute, queues it).
    const claimed = await repo.claim(deliveryId, now, new Date(now.getTime() + this.timeoutMs + 15_000));
    if (!claimed) {
      const state = await repo.waitingState(deliveryId);
      // Early (a job run before its time): queued again for then.
      if (state && state.status === 'pending' && state.active && !state.blocked && state.nextAttemptAt > now) await this.queue(deliveryId, state.nextAttemptAt);
      return;
    }
    const result = await this.post(claimed.url, claimed.secret, claimed.payload);
    const at = this.clock();
    const attempts = claimed.attempts + 1;
    if (result.status !== null && result.status >= 200 && result.status < 300) {
      await repo.markDelivered(claimed.id, attempts, result.status, at);
    } else if (at.getTime() - claimed.createdAt.getTime() >= this.giveUpAfterMs) {
      await repo.markAttemptFailed(claimed.id, attempts, result.status, errorOf(result), { failed: true }, at);
      this.options.log.warn({ deliveryId: claimed.id, webhookId: claimed.webhookId, attempts }, 'webhook delivery failed for good after 24 h');
    } else {
      const wait = this.backoffMs[Math.min(attempts, this.backoffMs.length) - 1]!;
      const retryAt = new Date(at.getTime() + wait);
      await repo.markAttemptFailed(claimed.id, attempts, result.status, errorOf(result), { retryAt }, at);
      await this.queue(claimed.id, retryAt);
      return;
    }
    // Ended (delivered or failed): the next of its line goes.
    if (claimed.orderKey) {
      const next = await repo.nextInLine(claimed.webhookId, claimed.orderKey);
      if (next !== null) await this.queue(next);
    }
  }

  /** The log keeps ended deliveries for 30 days (a daily job); those still waiting stay whatever their age. */
  async prune(keepDays = 30): Promise<number> {
    const before = new Date(this.clock().getTime() - keepDays * 24 * 60 * 60_000);
    let total = 0;
    for (;;) {
      const deleted = await this.repo().pruneEnded(before, 5000);
      total += deleted;
      if (deleted < 5000) return total;
    }
  }

  /** Queues every due delivery first in its line (after a restart, a lost job, a webhook turned back on). */
  async sweep(webhookId?: number): Promise<number> {
    const ids = await this.repo().dueHeads(this.clock(), 1000, webhookId);
    for (const id of ids) await this.queue(id);
    return ids.length;
  }
}

/** A webhook as the audit log keeps it: its settings (the secret is masked by the log), not its delivery counts. */
function auditView(webhook: WebhookDto) {
  return { url: webhook.url, events: webhook.events, active: webhook.active, secret: webhook.secret };
}

function errorOf(result: WebhookPostResult): string {
  return result.status === null ? result.error : `the receiver answered ${result.status}`;
}

/** 32 random bytes as 64 hex characters. */
export function newSecret(): string {
  return randomBytes(32).toString('hex');
}
