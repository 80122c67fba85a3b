import type { CampaignDto, ContactDto, MessageDto, TicketDto, WebhookEvent } from '@wadesk/contracts';
import type { Database } from '../../db/client.js';
import type { DomainEvents } from '../../events/domain-events.js';
import type { JobLog } from '../../jobs/job-queue.js';
import { WebhooksRepository, type ListeningWebhook } from './webhooks.repository.js';
import type { WebhooksService } from './webhooks.service.js';

/** A ticket as webhooks tell it: the ticket's fields (contact, queue, attendant, labels, CSAT…). */
type TicketData = TicketDto;

/**
 * Where a message came from: the contact (`in`), or the desk (`out`) with its origin (`chat` when typed in the chat,
 * `note` for an internal note, which the contact never sees).
 */
function messageData(message: MessageDto, ticket: TicketDto) {
  return {
    message,
    ticket: ticketSummary(ticket),
    direction: message.fromMe ? ('out' as const) : ('in' as const),
    origin: message.private ? 'note' : message.fromMe ? (message.origin ?? (message.senderKind === 'user' ? 'chat' : 'system')) : 'contact',
  };
}

function ticketSummary(ticket: TicketDto) {
  return { id: ticket.id, status: ticket.status, contactId: ticket.contactId, queueId: ticket.queueId, userId: ticket.userId, whatsappId: ticket.whatsappId };
}

/** The active webhooks that listen to any of `events`. */
function listening(active: ListeningWebhook[], events: WebhookEvent[]): ListeningWebhook[] {
  return active.filter((w) => w.events.some((e) => events.includes(e as WebhookEvent)));
}

/**
 * Turns the domain events of this process into webhook deliveries (decision 0045). Every process of the desk runs
 * one, so every path that changes a ticket, a message or a contact (the chat, inbound messages, the send API, bulk
 * sends, jobs) is heard where it happens. Events are recorded one after another (see drain).
 *
 * - `ticket.created`: the first event about a ticket created since the webhook was last saved (per webhook, said once);
 * - `contact.created`: a contact saved as new, or first seen on a ticket's event (the inbound path), said once;
 * - `campaign.finished`: a bulk send reaching `done` (once per campaign);
 * - `csat.received`: a ticket whose rating appears (once per rating).
 */
export class WebhookEventRecorder {
  /** Events heard and not recorded yet, in the order they happened here. */
  private readonly waiting: ((active: ListeningWebhook[]) => Promise<void>)[] = [];
  private draining: Promise<void> | null = null;

  constructor(
    private readonly db: Database,
    private readonly webhooks: WebhooksService,
    private readonly log: JobLog,
    private readonly loadTickets: (ids: number[]) => Promise<TicketDto[]>,
  ) {}

  listen(events: DomainEvents): void {
    events.on('message.created', ({ message, ticket }) => this.enqueue((active) => this.ticketEvent(active, ticket, 'message.created', messageData(message, ticket))));
    events.on('message.updated', ({ message, ticket }) => this.enqueue((active) => this.ticketEvent(active, ticket, 'message.updated', messageData(message, ticket))));
    events.on('ticket.updated', ({ ticket, previous }) => this.enqueue((active) => this.ticketUpdated(active, ticket, previous ?? null)));
    events.on('tickets.changed', ({ ticketIds }) =>
      this.enqueue(async (active) => {
        if (active.length === 0) return;
        for (const ticket of await this.loadTickets(ticketIds)) await this.ticketUpdated(active, ticket, null);
      }),
    );
    events.on('contact.saved', ({ contact, created }) => this.enqueue((active) => this.contactSaved(active, contact, created)));
    events.on('campaign.updated', ({ campaign }) => {
      if (campaign.status === 'done') this.enqueue((active) => this.campaignFinished(active, campaign));
    });
  }

  /** Resolves once every event heard so far is stored (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.draining) await this.draining;
  }

  private enqueue(work: (active: ListeningWebhook[]) => Promise<void>): void {
    this.waiting.push(work);
    this.draining ??= this.drain();
  }

  /**
   * Records the events one after another, so the deliveries of one ticket are numbered in the order the events
   * happened here. The active webhooks are read once for all the events heard meanwhile, after them (a webhook
   * saved before an event is seen by it): read once an event, five a new conversation with no webhook at all, the
   * recorder fell behind inbound at 70 messages a second (issue 35 item 6), its backlog growing in memory.
   */
  private async drain(): Promise<void> {
    try {
      while (this.waiting.length > 0) {
        const batch = this.waiting.splice(0);
        let active: ListeningWebhook[];
        try {
          active = await this.repo().active();
        } catch (err) {
          this.log.error({ err, events: batch.length }, 'webhooks: the webhooks could not be read; these events are not recorded');
          continue;
        }
        for (const work of batch) {
          await work(active).catch((err: unknown) => this.log.error({ err }, 'webhooks: an event could not be recorded'));
        }
      }
    } finally {
      this.draining = null;
    }
  }

  private repo(): WebhooksRepository {
    return new WebhooksRepository(this.db);
  }

  /**
   * `contact.created` for each webhook that has not heard of this contact, created since the webhook was saved: a
   * contact that first writes in is made by the inbound path, which announces its ticket and message only.
   */
  private async announceNewContact(contact: ContactDto, listeners: ListeningWebhook[], known = false): Promise<void> {
    const orderKey = `contact:${contact.id}`;
    const created = new Date(contact.createdAt);
    const candidates = listeners.filter((w) => w.events.includes('contact.created') && (known || created >= w.updatedAt));
    if (candidates.length === 0) return;
    const told = await this.repo().alreadyTold(
      candidates.map((w) => w.id),
      'contact.created',
      orderKey,
    );
    await this.webhooks.record(
      candidates.filter((w) => !told.has(w.id)).map((w) => ({ webhookId: w.id, event: 'contact.created' })),
      orderKey,
      { contact },
    );
  }

  /** `ticket.created` first for each webhook that has not heard of this new ticket yet. */
  private async announceNewTicket(ticket: TicketDto, listeners: ListeningWebhook[]): Promise<Set<number>> {
    const orderKey = `ticket:${ticket.id}`;
    const created = new Date(ticket.createdAt);
    const candidates = listeners.filter((w) => w.events.includes('ticket.created') && created >= w.updatedAt);
    if (candidates.length === 0) return new Set();
    const told = await this.repo().alreadyTold(
      candidates.map((w) => w.id),
      'ticket.created',
      orderKey,
    );
    const fresh = candidates.filter((w) => !told.has(w.id)).map((w) => w.id);
    await this.webhooks.record(
      fresh.map((webhookId) => ({ webhookId, event: 'ticket.created' })),
      orderKey,
      { ticket: ticket satisfies TicketData },
    );
    return new Set(fresh);
  }

  private async ticketEvent(active: ListeningWebhook[], ticket: TicketDto, event: WebhookEvent, data: unknown): Promise<void> {
    const listeners = listening(active, [event, 'ticket.created', 'contact.created']);
    if (listeners.length === 0) return;
    await this.announceNewContact(ticket.contact, listeners);
    await this.announceNewTicket(ticket, listeners);
    const targets = listeners.filter((w) => w.events.includes(event)).map((webhookId) => ({ webhookId: webhookId.id, event }));
    await this.webhooks.record(targets, `ticket:${ticket.id}`, data);
  }

  private async ticketUpdated(active: ListeningWebhook[], ticket: TicketDto, previous: Pick<TicketDto, 'queueId' | 'userId' | 'status'> | null): Promise<void> {
    const listeners = listening(active, ['ticket.created', 'ticket.updated', 'csat.received', 'contact.created']);
    if (listeners.length === 0) return;
    const orderKey = `ticket:${ticket.id}`;
    await this.announceNewContact(ticket.contact, listeners);
    const announced = await this.announceNewTicket(ticket, listeners);
    // The event that made it is `ticket.created` for those just told; the others hear an update.
    const targets = listeners.filter((w) => w.events.includes('ticket.updated') && !announced.has(w.id)).map((w) => ({ webhookId: w.id, event: 'ticket.updated' }));
    await this.webhooks.record(targets, orderKey, { ticket, previous });
    if (ticket.csat) {
      const rated = listeners.filter((w) => w.events.includes('csat.received'));
      const told = await this.repo().alreadyTold(
        rated.map((w) => w.id),
        'csat.received',
        orderKey,
        ticket.csat.at,
      );
      await this.webhooks.record(
        rated.filter((w) => !told.has(w.id)).map((w) => ({ webhookId: w.id, event: 'csat.received' })),
        orderKey,
        { ticket: ticketSummary(ticket), csat: ticket.csat },
      );
    }
  }

  private async contactSaved(active: ListeningWebhook[], contact: ContactDto, created: boolean): Promise<void> {
    const event = created ? 'contact.created' : 'contact.updated';
    const listeners = listening(active, [event]);
    if (created) return this.announceNewContact(contact, listeners, true);
    await this.webhooks.record(
      listeners.map((w) => ({ webhookId: w.id, event })),
      `contact:${contact.id}`,
      { contact },
    );
  }

  private async campaignFinished(active: ListeningWebhook[], campaign: CampaignDto): Promise<void> {
    const orderKey = `campaign:${campaign.id}`;
    const listeners = listening(active, ['campaign.finished']);
    const told = await this.repo().alreadyTold(
      listeners.map((w) => w.id),
      'campaign.finished',
      orderKey,
    );
    await this.webhooks.record(
      listeners.filter((w) => !told.has(w.id)).map((w) => ({ webhookId: w.id, event: 'campaign.finished' })),
      orderKey,
      { campaign },
    );
  }
}
