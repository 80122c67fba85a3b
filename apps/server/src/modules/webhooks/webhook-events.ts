import { randomUUID } from 'node:crypto';
import type { CampaignDto, ContactDto, MessageDto, TicketDto } from '@wadesk/contracts';
import type { Database, Executor } from '../../db/client.js';
import type { DomainEvents } from '../../events/domain-events.js';
import type { JobLog } from '../../jobs/job-queue.js';
import { CampaignsRepository } from '../campaigns/campaigns.repository.js';
import { ContactsRepository } from '../contacts/contacts.repository.js';
import type { DeliveryWrite, ListeningWebhook, OutboxEvent } from './webhooks.repository.js';
import { WebhooksRepository } from './webhooks.repository.js';
import type { WebhooksService } from './webhooks.service.js';

/** The ids and status of a message's ticket, as its events carry them. */
type TicketSummary = Pick<TicketDto, 'id' | 'status' | 'contactId' | 'queueId' | 'userId' | 'whatsappId'>;

/**
 * Where a message came from: the contact (`in`), or the desk (`out`) with its origin (`chat` when typed in the chat,
 * `note` for an internal note, which the contact never sees).
 */
function messageData(message: MessageDto, ticket: TicketSummary) {
  return {
    message,
    ticket,
    direction: message.fromMe ? ('out' as const) : ('in' as const),
    origin: message.private ? 'note' : message.fromMe ? (message.origin ?? (message.senderKind === 'user' ? 'chat' : 'system')) : 'contact',
  };
}

function ticketSummary(ticket: TicketDto): TicketSummary {
  return { id: ticket.id, status: ticket.status, contactId: ticket.contactId, queueId: ticket.queueId, userId: ticket.userId, whatsappId: ticket.whatsappId };
}

/** The events of one transaction about one message, ticket, rating, contact or bulk send: told as one event. */
interface Told {
  kind: 'message' | 'ticket' | 'csat' | 'contact' | 'campaign';
  entityId: number;
  created: boolean;
  /** The first of its rows (the event's place in the order) and the last (the state the transaction left). */
  first: OutboxEvent;
  last: OutboxEvent;
  webhookIds: Set<number>;
}

const KINDS: Record<string, Told['kind']> = {
  'message.created': 'message',
  'message.updated': 'message',
  'ticket.created': 'ticket',
  'ticket.updated': 'ticket',
  'csat.received': 'csat',
  'contact.created': 'contact',
  'contact.updated': 'contact',
  'campaign.finished': 'campaign',
};

/** Within a transaction, a new contact is told first, then a new ticket, then the rest as they happened. */
function rank(told: Told): number {
  if (told.kind === 'contact' && told.created) return 0;
  if (told.kind === 'ticket' && told.created) return 1;
  return 2;
}

/** The outbox's rows gathered per transaction and subject, in the order they are to be told. */
function gather(rows: OutboxEvent[]): Told[] {
  const byTx = new Map<string, Map<string, Told>>();
  for (const row of rows) {
    const kind = KINDS[row.event];
    if (!kind) continue;
    const subjects = byTx.get(row.tx) ?? new Map<string, Told>();
    byTx.set(row.tx, subjects);
    const key = `${kind}:${row.entityId}`;
    const told = subjects.get(key);
    const created = row.event.endsWith('.created');
    if (!told) {
      subjects.set(key, { kind, entityId: row.entityId, created, first: row, last: row, webhookIds: new Set(row.webhookIds) });
      continue;
    }
    told.created ||= created;
    told.last = row;
    for (const id of row.webhookIds) told.webhookIds.add(id);
  }
  const ordered: Told[] = [];
  for (const subjects of byTx.values()) ordered.push(...[...subjects.values()].sort((a, b) => rank(a) - rank(b) || a.first.id - b.first.id));
  return ordered;
}

/**
 * Turns the events the database wrote in each change's transaction (the `webhook_outbox` rows of migration 0021's
 * triggers) into webhook deliveries, in the same transaction that deletes them (decision 0045): an event outlives a
 * process that stops once its change commits, and a failure here leaves it for the next try. Every process runs one;
 * the domain events of this process only wake it, and the webhooks' sweep (every minute) reads the outbox too, for
 * the events of a process that stopped. Readers take turns on an advisory lock, so events are recorded in the order
 * they were written.
 *
 * - `ticket.created` for a new ticket (an update to a webhook that hears only updates), and not also its updates of the
 *   same transaction; `contact.created` likewise;
 * - several changes of one subject in one transaction are one event: the state it left, the `previous` before it;
 * - a message's or ticket's data is the row as its change left it (the names of its contact, queue and attendant as
 *   they are when recorded); a contact and a bulk send are read when recorded.
 */
export class WebhookEventRecorder {
  private running: Promise<void> | null = null;
  private again = false;
  /** Whether a webhook was on when last looked (at most a second ago): none, no outbox to read. */
  private listening: { value: boolean; at: number } | null = null;
  private retry: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Database,
    private readonly webhooks: WebhooksService,
    private readonly log: JobLog,
    private readonly batchSize = 500,
  ) {}

  listen(events: DomainEvents): void {
    const wake = () => this.wake();
    for (const name of ['message.created', 'message.updated', 'ticket.updated', 'tickets.changed', 'contact.saved', 'campaign.updated'] as const) events.on(name, wake);
    this.webhooks.onChange(() => {
      this.listening = null;
    });
  }

  /** A change happened here: its events (if any webhook listens) are recorded soon. */
  wake(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    void this.start(false); // run() logs and retries its own failures
  }

  /** Records every event written so far, whether or not a webhook seemed on (tests, the sweep, shutdown). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
    await this.start(true);
  }

  /** The one run at a time: `always` reads the outbox even when no webhook seemed on. */
  private start(always: boolean): Promise<void> {
    const running = this.run(always).finally(() => {
      this.running = null;
    });
    this.running = running;
    return running;
  }

  /** Stops a pending retry (the app closing). */
  close(): void {
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
  }

  private async run(always: boolean): Promise<void> {
    do {
      this.again = false;
      try {
        if (always || (await this.anyListening())) await this.drain();
      } catch (err) {
        // The events stay in the outbox: tried again in 5 s (and by the sweep).
        this.log.error({ err }, 'webhooks: the outbox could not be read; its events wait for the next try');
        this.listening = null;
        this.retry ??= setTimeout(() => {
          this.retry = null;
          this.wake();
        }, 5_000).unref();
        return;
      }
    } while (this.again);
  }

  private async anyListening(): Promise<boolean> {
    const now = Date.now();
    if (this.listening && now - this.listening.at < 1_000) return this.listening.value;
    const value = await new WebhooksRepository(this.db).anyActive();
    this.listening = { value, at: now };
    return value;
  }

  /** Records the outbox's events, a batch a transaction, until it is empty; answers how many were taken. */
  async drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const { taken, deliveryIds } = await this.db.transaction(async (tx) => {
        const repo = new WebhooksRepository(tx);
        const rows = await repo.takeOutbox(this.batchSize);
        if (rows.length === 0) return { taken: 0, deliveryIds: [] };
        const writes = await this.deliveries(tx, gather(rows), await repo.active());
        return { taken: rows.length, deliveryIds: await repo.insertDeliveries(writes) };
      });
      total += taken;
      await this.webhooks.queueDeliveries(deliveryIds);
      if (taken < this.batchSize) return total;
    }
  }

  /** The deliveries of the events told: one per webhook that listened then and still listens, one event id each. */
  private async deliveries(tx: Executor, told: Told[], active: ListeningWebhook[]): Promise<DeliveryWrite[]> {
    const listening = new Map(active.map((w) => [w.id, new Set(w.events)]));
    const contacts = await this.contacts(tx, told);
    const campaigns = await this.campaigns(tx, told);
    const now = new Date();
    const writes: DeliveryWrite[] = [];
    const add = (event: string, webhookIds: number[], orderKey: string, data: unknown, at: Date) => {
      if (webhookIds.length === 0) return;
      const eventId = randomUUID();
      for (const webhookId of webhookIds) {
        writes.push({ webhookId, eventId, event, orderKey, payload: { id: eventId, event, createdAt: at.toISOString(), data }, nextAttemptAt: now, createdAt: now });
      }
    };
    const hearing = (told: Told, event: string) => [...told.webhookIds].filter((id) => listening.get(id)?.has(event));
    for (const t of told) {
      const at = t.first.createdAt;
      switch (t.kind) {
        case 'message': {
          const dto = t.last.dto as { message: MessageDto; ticket: TicketSummary } | null;
          if (!dto) break;
          const event = t.created ? 'message.created' : 'message.updated';
          add(event, hearing(t, event), `ticket:${dto.ticket.id}`, messageData(dto.message, dto.ticket), at);
          break;
        }
        case 'ticket': {
          const ticket = t.last.dto as TicketDto | null;
          if (!ticket) break;
          const orderKey = `ticket:${ticket.id}`;
          const created = t.created ? hearing(t, 'ticket.created') : [];
          add('ticket.created', created, orderKey, { ticket }, at);
          const updated = hearing(t, 'ticket.updated').filter((id) => !created.includes(id));
          add('ticket.updated', updated, orderKey, { ticket, previous: t.created ? null : t.first.previous }, at);
          break;
        }
        case 'csat': {
          const ticket = t.last.dto as TicketDto | null;
          if (ticket?.csat) add('csat.received', hearing(t, 'csat.received'), `ticket:${ticket.id}`, { ticket: ticketSummary(ticket), csat: ticket.csat }, at);
          break;
        }
        case 'contact': {
          const contact = contacts.get(t.entityId);
          const event = t.created ? 'contact.created' : 'contact.updated';
          if (contact) add(event, hearing(t, event), `contact:${contact.id}`, { contact }, at);
          break;
        }
        case 'campaign': {
          const campaign = campaigns.get(t.entityId);
          if (campaign) add('campaign.finished', hearing(t, 'campaign.finished'), `campaign:${campaign.id}`, { campaign }, at);
          break;
        }
      }
    }
    return writes;
  }

  private async contacts(tx: Executor, told: Told[]): Promise<Map<number, ContactDto>> {
    const found = new Map<number, ContactDto>();
    const repo = new ContactsRepository(tx);
    for (const id of new Set(told.filter((t) => t.kind === 'contact').map((t) => t.entityId))) {
      const contact = await repo.findDto(id);
      if (contact) found.set(id, contact);
    }
    return found;
  }

  private async campaigns(tx: Executor, told: Told[]): Promise<Map<number, CampaignDto>> {
    const ids = [...new Set(told.filter((t) => t.kind === 'campaign').map((t) => t.entityId))];
    if (ids.length === 0) return new Map();
    return new Map((await new CampaignsRepository(tx).findDtos(ids)).map((c) => [c.id, c]));
  }
}
