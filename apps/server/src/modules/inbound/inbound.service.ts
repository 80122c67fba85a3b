import { lastMessageOf, type MediaType, type TicketDto, type WhatsappDto } from '@wadesk/contracts';
import type { AckUpdate, InboundMessage, InboundOutcome } from '../../channels/channel-driver.js';
import type { SessionManager } from '../../channels/session-manager.js';
import type { Database, Executor, Transaction } from '../../db/client.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { DomainEvents } from '../../events/domain-events.js';
import type { MediaStorage } from '../../storage/media-storage.js';
import { ContactsInboundRepository } from '../contacts/contacts-inbound.repository.js';
import { MessagesRepository, type MessageWrite } from '../messages/messages.repository.js';
import type { MessagesService } from '../messages/messages.service.js';
import type { SettingsService } from '../settings/settings.service.js';
import { TicketEventsRepository } from '../tickets/ticket-events.repository.js';
import { TicketsRepository } from '../tickets/tickets.repository.js';
import { WhatsappRepository } from '../whatsapp/whatsapp.repository.js';
import { queueMenu, renderGreeting, ticketTemplateValues } from './greeting-template.js';

export interface InboundOptions {
  /** Wait this long after a contact's last message before sending the queue menu again. */
  menuDebounceMs: number;
  log: { warn(obj: object, msg?: string): void; error(obj: object, msg?: string): void };
}

const MEDIA_TYPE_OF_KIND: Record<InboundMessage['kind'], MediaType | null> = {
  text: null,
  image: 'image',
  sticker: 'image',
  audio: 'audio',
  video: 'video',
  location: 'location',
  vcard: 'vcard',
  document: 'other',
};

/** Thrown inside the inbound transaction to roll it back when a concurrent delivery stored the message first. */
class DuplicateDelivery extends Error {}

/** A message's body and media as they are stored. */
interface PreparedMessage {
  body: string;
  mediaUrl: string | null;
  mediaType: MediaType | null;
}

/**
 * The inbound pipeline, the same for every channel: contact, ticket, message (once per network id),
 * unread count, queue menu, live events.
 */
export class InboundService {
  private readonly menuTimers = new Map<number, NodeJS.Timeout>();

  constructor(
    private readonly db: Database,
    private readonly events: DomainEvents,
    private readonly settings: SettingsService,
    private readonly sessions: SessionManager,
    private readonly media: MediaStorage,
    private readonly messages: MessagesService,
    private readonly options: InboundOptions,
  ) {}

  /**
   * Stores one inbound message and runs what follows it. Resolves once the message is committed (or known:
   * the unique (connection, network id) in the database is what "seen" means), so a driver or the simulator
   * acknowledges it only then; rejects when it could not be stored.
   */
  async handleMessage(whatsappId: number, msg: InboundMessage): Promise<InboundOutcome> {
    if (msg.isGroup && !(await this.groupsAccepted())) return 'ignored';
    const connection = await new WhatsappRepository(this.db).findDto(whatsappId);
    if (!connection) return 'ignored';
    // A resend of a stored message stores nothing and touches no contact or ticket.
    if (await new MessagesRepository(this.db).findIdByChannelId(whatsappId, msg.id)) return 'duplicate';

    // Slow work (media download) first, then the writes, committed together (one WAL flush a message) so that
    // nothing is half stored. The usual case, a known contact writing in an active ticket, is one statement;
    // otherwise one transaction finds or creates the contact and the ticket first.
    const prepared = await this.prepareMessage(whatsappId, msg);
    const preview = lastMessageOf({ body: msg.body, mediaType: prepared.mediaType, filename: msg.media?.filename, duration: msg.media?.seconds });
    const chatName = msg.isGroup || !msg.fromMe ? msg.chatName : undefined;
    const known = await new ContactsInboundRepository(this.db).findKnown(msg.chatId, chatName);
    const activeTicketId = known ? await new TicketsRepository(this.db).findActive(known.id, whatsappId) : null;
    const saved = known && activeTicketId
      ? await this.insertMessage(this.db, whatsappId, activeTicketId, known.id, msg, prepared, preview).then((stored) =>
          stored ? { contact: { ...known, created: false }, ticketId: activeTicketId, stored } : null,
        )
      : await this.db.transaction(async (tx) => {
          const contact = await new ContactsInboundRepository(tx).findOrCreateByNumber(msg.chatId, chatName, msg.isGroup);
          // A connection with one queue puts new tickets straight into it, so nobody outside sees them first.
          const onlyQueue = !msg.isGroup && connection.queues.length === 1 ? connection.queues[0]!.id : null;
          const ticketId = await this.findOrCreateTicket(tx, contact.id, whatsappId, msg.isGroup, onlyQueue);
          const stored = await this.insertMessage(tx, whatsappId, ticketId, contact.id, msg, prepared, preview);
          // The same network id, stored meanwhile by a concurrent delivery: undo the ticket this call made or reopened.
          if (!stored) throw new DuplicateDelivery();
          return { contact, ticketId, stored };
        }).catch((err: unknown) => {
          if (err instanceof DuplicateDelivery) return null;
          throw err;
        });
    if (!saved) return 'duplicate';
    const { contact, ticketId, stored } = saved;
    if (contact.created) this.fetchProfilePicture(whatsappId, contact.id, msg.chatId);

    const [ticket, message] = await Promise.all([new TicketsRepository(this.db).findDto(ticketId), new MessagesRepository(this.db).findDto(stored)]);
    if (!ticket || !message) return 'stored'; // deleted meanwhile: nothing to announce
    this.events.emit('message.created', { message, ticket });
    this.events.emit('ticket.updated', { ticket });

    if (!msg.fromMe && !msg.isGroup && ticket.queueId === null && ticket.userId === null) {
      await this.chooseQueue(ticket, connection, msg.body);
    }
    return 'stored';
  }

  async handleAck(whatsappId: number, update: AckUpdate): Promise<void> {
    await this.messages.applyAck(whatsappId, update.id, update.ack);
  }

  /** Stops pending menu timers (app shutdown). */
  stop(): void {
    for (const timer of this.menuTimers.values()) clearTimeout(timer);
    this.menuTimers.clear();
  }

  private async groupsAccepted(): Promise<boolean> {
    const [groups, ignoreGroups] = await Promise.all([this.settings.value('groups'), this.settings.value('CheckMsgIsGroup')]);
    return groups !== 'disabled' && ignoreGroups !== 'enabled';
  }

  /**
   * The open or pending ticket of (contact, connection); else a closed one updated within
   * timeCreateNewTicket seconds, reopened as pending; else a new pending ticket. The partial unique index
   * makes this race-free: a loser of the race reads the winner.
   */
  private async findOrCreateTicket(tx: Transaction, contactId: number, whatsappId: number, isGroup: boolean, queueId: number | null): Promise<number> {
    const repo = new TicketsRepository(tx);
    // Read only when there is no active ticket (the usual case has one), and once across retries.
    let seconds: number | undefined;
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const active = await repo.findActive(contactId, whatsappId);
      if (active) return active;
      seconds ??= Number(await this.settings.value('timeCreateNewTicket', tx)) || 0;
      const recent = seconds > 0 ? await repo.findRecentlyClosed(contactId, whatsappId, new Date(Date.now() - seconds * 1000)) : null;
      try {
        // A savepoint: losing the race to a concurrent delivery undoes only this attempt, not the transaction.
        const won = await tx.transaction(async (attemptTx) => {
          const attemptRepo = new TicketsRepository(attemptTx);
          if (recent && (await attemptRepo.reopenAsPending(recent))) {
            await new TicketEventsRepository(attemptTx).insert([{ ticketId: recent, kind: 'reopened', actorUserId: null }]);
            return recent;
          }
          return recent ? null : attemptRepo.insert({ contactId, whatsappId, status: 'pending', isGroup, queueId });
        });
        if (won !== null) return won;
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
      }
    }
    const winner = await repo.findActive(contactId, whatsappId);
    if (!winner) throw new Error('could not find or create a ticket');
    return winner;
  }

  /** The stored form of a message's body and media: downloads and saves its media (outside any transaction). */
  private async prepareMessage(whatsappId: number, msg: InboundMessage): Promise<PreparedMessage> {
    let mediaUrl: string | null = null;
    let body = msg.body;
    try {
      if (msg.media) {
        const data = await msg.media.download();
        mediaUrl = this.media.url(await this.media.save(data, msg.media.mimetype, msg.media.filename));
        if (!body && msg.media.filename && msg.kind === 'document') body = msg.media.filename;
      } else if (msg.location?.thumbnailJpeg) {
        mediaUrl = this.media.url(await this.media.save(msg.location.thumbnailJpeg, 'image/jpeg'));
      }
    } catch (err) {
      this.options.log.warn({ err, whatsappId, messageId: msg.id }, 'media download failed; message kept without media');
    }
    if (msg.kind === 'vcard' && msg.vcard && !body) body = msg.vcard.vcard;
    return { body, mediaUrl, mediaType: MEDIA_TYPE_OF_KIND[msg.kind] };
  }

  /** Stores the message in its ticket and records it there (preview, unread): null when already stored. */
  private async insertMessage(
    db: Executor,
    whatsappId: number,
    ticketId: number,
    contactId: number,
    msg: InboundMessage,
    { body, mediaUrl, mediaType }: PreparedMessage,
    preview: string,
  ): Promise<number | null> {
    const repo = new MessagesRepository(db);
    const quotedMsgId = msg.quotedId ? await repo.findIdByChannelId(whatsappId, msg.quotedId) : null;
    const write: MessageWrite = {
      channelMessageId: msg.id,
      whatsappId,
      ticketId,
      contactId: msg.fromMe ? null : contactId,
      body,
      fromMe: msg.fromMe,
      read: msg.fromMe,
      mediaType,
      mediaUrl,
      ack: msg.fromMe ? 1 : 0,
      quotedMsgId,
      participantName: msg.isGroup ? (msg.participant?.name ?? msg.participant?.number ?? null) : null,
      senderKind: msg.fromMe ? 'user' : 'contact',
      mediaDuration: mediaType === 'audio' ? (msg.media?.seconds ?? null) : null,
      createdAt: msg.timestamp,
    };
    return repo.insertIntoTicket(write, preview, !msg.fromMe);
  }

  /**
   * One queue: assign it. Several: a valid number picks a queue (and sends its greeting); anything else
   * gets the connection greeting with the numbered list, debounced per ticket.
   */
  private async chooseQueue(ticket: TicketDto, connection: WhatsappDto, body: string): Promise<void> {
    const queues = connection.queues;
    if (queues.length === 0) return;
    if (queues.length === 1) {
      await this.assignQueue(ticket, queues[0]!.id);
      return;
    }
    const choice = /^\s*(\d{1,3})\s*$/.exec(body);
    const queue = choice ? queues[Number(choice[1]) - 1] : undefined;
    if (queue) {
      this.cancelMenu(ticket.id);
      const updated = await this.assignQueue(ticket, queue.id);
      if (queue.greetingMessage.trim()) {
        await this.send(updated, renderGreeting(queue.greetingMessage, this.greetingValues(updated, connection)));
      }
      return;
    }
    this.cancelMenu(ticket.id);
    const timer = setTimeout(() => {
      this.menuTimers.delete(ticket.id);
      const greeting = renderGreeting(connection.greetingMessage, this.greetingValues(ticket, connection));
      const text = [greeting.trim(), queueMenu(queues.map((q) => q.name))].filter(Boolean).join('\n\n');
      void this.send(ticket, text);
    }, this.options.menuDebounceMs);
    timer.unref();
    this.menuTimers.set(ticket.id, timer);
  }

  private cancelMenu(ticketId: number): void {
    const timer = this.menuTimers.get(ticketId);
    if (timer) clearTimeout(timer);
    this.menuTimers.delete(ticketId);
  }

  private async assignQueue(ticket: TicketDto, queueId: number): Promise<TicketDto> {
    const repo = new TicketsRepository(this.db);
    await repo.update(ticket.id, { queueId });
    const updated = (await repo.findDto(ticket.id))!;
    this.events.emit('ticket.updated', { ticket: updated, previous: { queueId: ticket.queueId, userId: ticket.userId } });
    return updated;
  }

  private greetingValues(ticket: TicketDto, connection: WhatsappDto) {
    return ticketTemplateValues(ticket, connection.name);
  }

  private async send(ticket: TicketDto, text: string): Promise<void> {
    try {
      await this.messages.sendText(ticket, { body: text, auto: true });
    } catch (err) {
      this.options.log.warn({ err, ticketId: ticket.id }, 'automatic message not sent');
    }
  }

  private fetchProfilePicture(whatsappId: number, contactId: number, chatId: string): void {
    void (async () => {
      try {
        const url = await this.sessions.driver(whatsappId).profilePictureUrl(chatId);
        if (url) await new ContactsInboundRepository(this.db).setProfilePicUrl(contactId, url);
      } catch {
        // No picture is fine.
      }
    })();
  }
}
