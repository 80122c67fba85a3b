import { lastMessageOf, type MediaType, type MessageDto, type TicketDto, type WhatsappDto } from '@wadesk/contracts';
import type { AckUpdate, InboundCall, InboundMessage, InboundOutcome } from '../../channels/channel-driver.js';
import type { SessionManager } from '../../channels/session-manager.js';
import type { Database, Transaction } from '../../db/client.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { DomainEvents } from '../../events/domain-events.js';
import type { ChatbotService } from '../chatbot/chatbot.service.js';
import type { CsatService } from '../csat/csat.service.js';
import type { MediaStorage } from '../../storage/media-storage.js';
import { ContactsInboundRepository, contactNameFrom, keepsItsName, type InboundContact } from '../contacts/contacts-inbound.repository.js';
import { conversationTicket } from '../messages/conversation-record.js';
import { MessagesRepository, type MessageWrite } from '../messages/messages.repository.js';
import type { MessagesService } from '../messages/messages.service.js';
import type { SettingsService } from '../settings/settings.service.js';
import { TicketEventsRepository } from '../tickets/ticket-events.repository.js';
import { TicketsRepository } from '../tickets/tickets.repository.js';
import { WhatsappRepository } from '../whatsapp/whatsapp.repository.js';
import { ConnectionMemo } from './connection-memo.js';
import { InboundRepository } from './inbound.repository.js';
import { queueMenu, renderGreeting, ticketTemplateValues } from './greeting-template.js';
import { checkOutOfHours } from './out-of-hours.js';

/**
 * Sends the queue menu of a ticket after the contact's quiet time (`sendMenuIfDue` once the time has come): a
 * `queue.menu` job, once across processes and kept over a restart (inbound.jobs.ts).
 */
export type MenuScheduler = (ticketId: number, messageId: number, delayMs: number) => Promise<unknown>;

export interface InboundOptions {
  /** Wait this long after a contact's last message before sending the queue menu again. */
  menuDebounceMs: number;
  log: { warn(obj: object, msg?: string): void; error(obj: object, msg?: string): void };
  /** "Now" for the business hours (issue 36 §3); the system clock by default. */
  clock?: () => Date;
}

export const MEDIA_TYPE_OF_KIND: Record<InboundMessage['kind'], MediaType | null> = {
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
  /** A file was fetched from the network or saved (time passed). */
  downloaded: boolean;
}

/**
 * The inbound pipeline, the same for every channel: contact, ticket, message (once per network id),
 * unread count, queue menu, live events.
 */
export class InboundService {
  /** Set by inbound.jobs.ts once the job queue runs, before any connection starts (app.ts). */
  private menuScheduler: MenuScheduler | null = null;
  /** The satisfaction survey's answers (issue 36 §5), set by app.ts. */
  private csat: CsatService | null = null;
  /** A connection's queues and greeting, read once a second at most (a new conversation reads them twice). */
  private readonly connections: ConnectionMemo;

  constructor(
    private readonly db: Database,
    private readonly events: DomainEvents,
    private readonly settings: SettingsService,
    private readonly sessions: SessionManager,
    private readonly media: MediaStorage,
    private readonly messages: MessagesService,
    private readonly options: InboundOptions,
    private readonly chatbot: ChatbotService | null = null,
  ) {
    this.connections = new ConnectionMemo(db, events);
  }

  /**
   * Stores one inbound message and runs what follows it. Resolves once the message is committed (or known:
   * the unique (connection, network id) in the database is what "seen" means), so a driver or the simulator
   * acknowledges it only then; rejects when it could not be stored.
   */
  async handleMessage(whatsappId: number, msg: InboundMessage): Promise<InboundOutcome> {
    const groupRule = msg.isGroup ? await this.groupRule() : 'accept';
    if (groupRule === 'ignore') return 'ignored';
    // A resend of a stored message stores nothing and touches no contact or ticket.
    const inbound = new InboundRepository(this.db);
    const lookup = () => inbound.lookup(whatsappId, msg.id, msg.chatId, msg.quotedId ?? null);
    let found = await lookup();
    if (found.duplicate) return 'duplicate';
    // groups off: no group ticket is made, reopened or fed, except one an attendant has open (it goes on in it).
    if (groupRule === 'openTicketOnly' && !(found.contact && found.activeTicketId && (await this.isOpen(found.activeTicketId)))) return 'ignored';

    // Slow work (media download) first, then the writes, committed together (one WAL flush a message) so that
    // nothing is half stored. The usual case, a known contact writing in an active ticket, is one statement after
    // the lookup; otherwise one transaction finds or creates the contact and the ticket first.
    const prepared = await this.prepareMessage(whatsappId, msg);
    if (prepared.downloaded) {
      // What was read before a download may have changed during it.
      found = await lookup();
      if (found.duplicate) return 'duplicate';
    }
    const preview = lastMessageOf({ body: msg.body, mediaType: prepared.mediaType, filename: msg.media?.filename, duration: msg.media?.seconds });
    const chatName = msg.isGroup || !msg.fromMe ? msg.chatName : undefined;
    const known = found.contact && keepsItsName(found.contact, chatName) ? found.contact : null;
    const { activeTicketId, quotedMsgId } = found;
    if (!found.connectionExists) return 'ignored';
    // Its queues matter to a new ticket of a 1:1 chat (one queue: straight into it) and to a ticket without a queue.
    const withQueues = found.connectionQueues > 0 && !msg.isGroup;
    const into = known && activeTicketId ? { contact: known, ticketId: activeTicketId } : null;
    let connection = withQueues && !into ? await this.connections.find(whatsappId) : null;
    // A connection with one queue puts new tickets straight into it, so nobody outside sees them first.
    const onlyQueue = connection?.queues.length === 1 ? connection.queues[0]!.id : null;
    const write = messageWrite(whatsappId, msg, prepared, quotedMsgId);
    const messages = new MessagesRepository(this.db);
    // A reply to the satisfaction survey of the contact's resolved ticket is kept there, opening nothing (decision 0041).
    if (this.csat && found.contact && !found.activeTicketId && !msg.fromMe && !msg.isGroup && msg.kind === 'text') {
      const answered = await this.answerSurvey(found.contact.id, whatsappId, msg.body, write, preview);
      if (answered) return answered;
    }
    // A known contact in an active ticket (the usual way) and a new number answer the ticket as they left it; the
    // others read it after. Both share their statement with the messages of other requests arriving at the same time.
    let saved: { contact: InboundContact; ticketId: number; stored: MessageDto; ticket?: TicketDto } | null;
    if (into) {
      const stored = await messages.insertIntoTicketShared({ ...write, ticketId: into.ticketId, contactId: msg.fromMe ? null : into.contact.id }, preview, !msg.fromMe);
      saved = stored ? { contact: { ...into.contact, created: false }, ticketId: into.ticketId, stored: stored.message, ticket: stored.ticket } : null;
    } else {
      // A new number: contact, ticket and message in one statement (null when the contact was made meanwhile). Typed
      // on the phone, no ticket is made pending: it goes into the conversation's closed ticket (decision 0029).
      const name = contactNameFrom(chatName, msg.chatId);
      const fresh = found.contact || msg.fromMe
        ? null
        : await messages.insertWithNewChat({ number: msg.chatId, name, isGroup: msg.isGroup }, { queueId: onlyQueue }, write, preview, !msg.fromMe);
      saved = fresh
        ? { contact: { id: fresh.contactId, name, number: msg.chatId, profilePicUrl: '', created: true }, ticketId: fresh.ticketId, stored: fresh.message, ticket: fresh.ticket }
        : await this.db.transaction(async (tx) => {
            const contact = await new ContactsInboundRepository(tx).findOrCreateByNumber(msg.chatId, chatName, msg.isGroup);
            const ticketId = msg.fromMe
              ? await conversationTicket(tx, contact.id, whatsappId, msg.isGroup)
              : await this.findOrCreateTicket(tx, contact.id, whatsappId, msg.isGroup, onlyQueue, msg.timestamp);
            const stored = await new MessagesRepository(tx).insertIntoTicket({ ...write, ticketId, contactId: msg.fromMe ? null : contact.id }, preview, !msg.fromMe);
            // The same network id, stored meanwhile by a concurrent delivery: undo the ticket this call made or reopened.
            if (!stored) throw new DuplicateDelivery();
            return { contact, ticketId, stored: stored.message };
          }).catch((err: unknown) => {
            if (err instanceof DuplicateDelivery) return null;
            throw err;
          });
    }
    if (!saved) return 'duplicate';
    const { contact, ticketId, stored: message } = saved;
    if (contact.created) this.fetchProfilePicture(whatsappId, contact.id, msg.chatId);

    const ticket = saved.ticket ?? (await new TicketsRepository(this.db).findDto(ticketId));
    if (!ticket) return 'stored'; // deleted meanwhile: nothing to announce
    this.events.emit('message.created', { message, ticket });
    this.events.emit('ticket.updated', { ticket });
    // Out of hours (decision 0039): the notice goes before any answer; the chatbot and the queue menu still run.
    if (!msg.fromMe && !msg.isGroup) await this.noticeOutOfHours(ticket);

    // One answer a message (decision 0017): the chatbot first when it takes the ticket (it then runs detached and
    // falls back to the queue menu when it does not answer); otherwise the queue menu as before.
    const menuDue = withQueues && ticket.queueId === null && ticket.userId === null;
    const queueMenu = async () => {
      if (!menuDue) return;
      connection ??= await this.connections.find(whatsappId);
      if (connection) await this.chooseQueue(ticket, connection, msg.body, message.id);
    };
    if (!msg.fromMe && !msg.isGroup && this.chatbot && ticket.status === 'pending' && ticket.userId === null && (await this.chatbot.takes(ticket, msg.body, found.typebot))) {
      this.chatbot.answer(ticket, msg.body, queueMenu);
      return 'stored';
    }
    if (!msg.fromMe) await queueMenu();
    return 'stored';
  }

  /**
   * An incoming call (issue 15): with acceptCalls on, nothing happens (the phone rings). Off: resolves true (the
   * driver rejects it on the network), then, detached, notes the call in the contact's ticket (found or made as for a
   * message) and sends callRejectMessage there (stored as an automatic message).
   */
  async handleCall(whatsappId: number, call: InboundCall): Promise<boolean> {
    if ((await this.settings.value('acceptCalls')) !== 'disabled') return false;
    void this.noteRejectedCall(whatsappId, call).catch((err: unknown) =>
      this.options.log.error({ err, whatsappId, from: call.from }, 'a rejected call was not noted in its ticket'),
    );
    return true;
  }

  private async noteRejectedCall(whatsappId: number, call: InboundCall): Promise<void> {
    if (!(await new WhatsappRepository(this.db).findDto(whatsappId))) return;
    const { contact, ticketId } = await this.db.transaction(async (tx) => {
      const contact = await new ContactsInboundRepository(tx).findOrCreateByNumber(call.from, call.name, false);
      const ticketId = await this.findOrCreateTicket(tx, contact.id, whatsappId, false, null);
      await new TicketEventsRepository(tx).insert([{ ticketId, kind: 'callRejected', actorUserId: null, video: call.video }]);
      return { contact, ticketId };
    });
    if (contact.created) this.fetchProfilePicture(whatsappId, contact.id, call.from);
    const ticket = await new TicketsRepository(this.db).findDto(ticketId);
    if (!ticket) return;
    this.events.emit('ticket.updated', { ticket });
    const text = (await this.settings.value('callRejectMessage')).trim();
    if (text) await this.send(ticket, text);
  }

  async handleAck(whatsappId: number, update: AckUpdate): Promise<void> {
    await this.messages.applyAck(whatsappId, update.id, update.ack);
  }

  /**
   * What becomes of a group message (docs/decisions/0017): CheckMsgIsGroup on ignores group messages entirely
   * (nothing stored, no contact, no ticket, whatever else says); groups off makes no group ticket (none created,
   * reopened or fed while pending), except that a group chat an attendant has open goes on in it until resolved;
   * by default (groups on, CheckMsgIsGroup off) group messages make tickets as 1:1 ones do.
   */
  private async groupRule(): Promise<'accept' | 'ignore' | 'openTicketOnly'> {
    const [groups, ignoreGroups] = await Promise.all([this.settings.value('groups'), this.settings.value('CheckMsgIsGroup')]);
    if (ignoreGroups === 'enabled') return 'ignore';
    return groups === 'disabled' ? 'openTicketOnly' : 'accept';
  }

  private async isOpen(ticketId: number): Promise<boolean> {
    return (await new TicketsRepository(this.db).statusOf(ticketId)) === 'open';
  }

  /**
   * The open or pending ticket of (contact, connection); else a closed one updated within
   * timeCreateNewTicket seconds or waiting for an answer (decision 0029), reopened as pending; else a new pending ticket. The partial unique index
   * makes this race-free: a loser of the race reads the winner.
   */
  private async findOrCreateTicket(
    tx: Transaction,
    contactId: number,
    whatsappId: number,
    isGroup: boolean,
    queueId: number | null,
    messageAt?: Date,
  ): Promise<number> {
    const repo = new TicketsRepository(tx);
    // Read only when there is no active ticket (the usual case has one), and once across retries.
    let seconds: number | undefined;
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const active = await repo.findActive(contactId, whatsappId);
      if (active) return active;
      seconds ??= Number(await this.settings.value('timeCreateNewTicket', tx)) || 0;
      // A closed ticket changed within timeCreateNewTicket (whaticket's rule), or one whose newest message the desk
      // sent from outside the chat (a bulk send, a schedule…: the contact answers it, decision 0029), reopens.
      const recent =
        (seconds > 0 ? await repo.findLatestClosed(contactId, whatsappId, new Date(Date.now() - seconds * 1000)) : null) ??
        (await this.answeredTicket(tx, contactId, whatsappId));
      try {
        // A savepoint: losing the race to a concurrent delivery undoes only this attempt, not the transaction.
        const won = await tx.transaction(async (attemptTx) => {
          const attemptRepo = new TicketsRepository(attemptTx);
          if (recent && (await attemptRepo.reopenAsPending(recent))) {
            // Just before the message that reopened it, so the chat reads "reopened" above that message.
            const createdAt = messageAt ? new Date(Math.min(Date.now(), messageAt.getTime() - 1)) : undefined;
            await new TicketEventsRepository(attemptTx).insert([{ ticketId: recent, kind: 'reopened', actorUserId: null, createdAt }]);
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

  /** The contact's latest closed ticket on the connection when it waits for their answer (decision 0029). */
  private async answeredTicket(tx: Transaction, contactId: number, whatsappId: number): Promise<number | null> {
    const latest = await new TicketsRepository(tx).findLatestClosed(contactId, whatsappId);
    return latest !== null && (await new MessagesRepository(tx).awaitsAnswer(latest)) ? latest : null;
  }

  /** The stored form of a message's body and media: downloads and saves its media (outside any transaction). */
  private async prepareMessage(whatsappId: number, msg: InboundMessage): Promise<PreparedMessage> {
    let mediaUrl: string | null = null;
    let body = msg.body;
    const downloaded = Boolean(msg.media || msg.location?.thumbnailJpeg);
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
    return { body, mediaUrl, mediaType: MEDIA_TYPE_OF_KIND[msg.kind], downloaded };
  }

  /**
   * One queue: assign it. Several: a valid number picks a queue (and sends its greeting); anything else
   * gets the connection greeting with the numbered list, debounced per ticket.
   */
  private async chooseQueue(ticket: TicketDto, connection: WhatsappDto, body: string, messageId: number): Promise<void> {
    const queues = connection.queues;
    if (queues.length === 0) return;
    if (queues.length === 1) {
      await this.noticeOutOfHours(await this.assignQueue(ticket, queues[0]!.id));
      return;
    }
    const choice = /^\s*(\d{1,3})\s*$/.exec(body);
    const queue = choice ? queues[Number(choice[1]) - 1] : undefined;
    if (queue) {
      const updated = await this.assignQueue(ticket, queue.id);
      if (queue.greetingMessage.trim()) {
        await this.send(updated, renderGreeting(queue.greetingMessage, this.greetingValues(updated, connection)));
      }
      // The queue chosen: its own schedule applies from now on (a notice already sent in this closed period counts).
      await this.noticeOutOfHours(updated);
      return;
    }
    // Debounced: the menu goes out once the contact has been quiet for menuDebounceMs after this message.
    if (this.menuScheduler) await this.menuScheduler(ticket.id, messageId, this.options.menuDebounceMs);
    else this.options.log.warn({ ticketId: ticket.id }, 'queue menu not sent: the job queue is not running yet');
  }

  useCsat(csat: CsatService): void {
    this.csat = csat;
  }

  /**
   * Keeps a survey answer (a rating, or the comment after it) on the resolved ticket it answers, with the message
   * stored in that ticket (read, the ticket left closed); null when the message is no answer (it goes on as before).
   */
  private async answerSurvey(
    contactId: number,
    whatsappId: number,
    body: string,
    write: Omit<MessageWrite, 'ticketId' | 'contactId'>,
    preview: string,
  ): Promise<InboundOutcome | null> {
    let stored: MessageDto | null = null;
    let duplicate = false;
    const answer = await this.csat!.answer(contactId, whatsappId, body, (ticketId, keep) =>
      this.db
        .transaction(async (tx) => {
          if (!(await keep(tx))) return false;
          const inserted = await new MessagesRepository(tx).insertIntoTicket({ ...write, ticketId, contactId, read: true }, preview, false);
          if (!inserted) throw new DuplicateDelivery();
          stored = inserted.message;
          return true;
        })
        .catch((err: unknown) => {
          if (!(err instanceof DuplicateDelivery)) throw err;
          duplicate = true;
          return false;
        }),
    );
    if (duplicate) return 'duplicate';
    if (!answer || !stored) return null;
    const ticket = await new TicketsRepository(this.db).findDto(answer.ticketId);
    if (!ticket) return 'stored';
    this.events.emit('message.created', { message: stored, ticket });
    this.csat!.announce(ticket);
    return 'stored';
  }

  /** Menus go through the job queue: once across processes, over a restart. */
  useMenuScheduler(scheduler: MenuScheduler): void {
    this.menuScheduler = scheduler;
  }

  /**
   * The queue menu asked for by message `messageId`, once its quiet time is over: sent only when that message is
   * still the contact's newest in the ticket (a newer one asked for its own) and the ticket still waits for a
   * queue with nobody on it, and the menu is not already sent for it. Database state, so any process may run it.
   */
  async sendMenuIfDue(ticketId: number, messageId: number): Promise<'sent' | 'superseded' | 'not-due' | 'already-sent'> {
    const ticket = await new TicketsRepository(this.db).findDto(ticketId);
    if (!ticket || ticket.queueId !== null || ticket.userId !== null || ticket.status === 'closed') return 'not-due';
    const connection = await this.connections.find(ticket.whatsappId);
    if (!connection || connection.queues.length < 2) return 'not-due';
    const greeting = renderGreeting(connection.greetingMessage, this.greetingValues(ticket, connection));
    const text = [greeting.trim(), queueMenu(connection.queues.map((q) => q.name))].filter(Boolean).join('\n\n');
    const state = await new MessagesRepository(this.db).menuState(ticketId, messageId, text);
    if (state.newestFromContact !== messageId) return 'superseded';
    // A second run of the same job (its process ended after the send, before the job's batch was completed: jobs.ts
    // completes a batch's jobs in one statement) finds the menu it sent stored after the message, and sends nothing.
    if (state.sentAfter) return 'already-sent';
    await this.send(ticket, text);
    return 'sent';
  }

  private async assignQueue(ticket: TicketDto, queueId: number): Promise<TicketDto> {
    const repo = new TicketsRepository(this.db);
    await repo.update(ticket.id, { queueId });
    const updated = (await repo.findDto(ticket.id))!;
    this.events.emit('ticket.updated', { ticket: updated, previous: { queueId: ticket.queueId, userId: ticket.userId, status: ticket.status } });
    return updated;
  }

  /**
   * The out-of-hours notice of a conversation nobody has taken, once per closed period of the schedule that applies
   * to it now (its queue's, else its connection's); the ticket is marked "arrived out of hours" (decision 0039).
   */
  private async noticeOutOfHours(ticket: TicketDto): Promise<void> {
    try {
      // No schedule applies in the connection as the memo knows it (a second old at most, forgotten at once on a save
      // here): no statement. Most desks have none, and this ran one statement a message (issue 35 item 6).
      const connection = await this.connections.find(ticket.whatsappId);
      if (connection && !scheduleMayApply(ticket, connection)) return;
      const result = await checkOutOfHours(this.db, ticket, this.options.clock?.() ?? new Date());
      if (!result) return;
      this.events.emit('ticket.updated', { ticket: result.ticket });
      if (result.notice) await this.send(result.ticket, renderGreeting(result.notice, ticketTemplateValues(result.ticket, result.ticket.whatsapp?.name)));
    } catch (err) {
      this.options.log.warn({ err, ticketId: ticket.id }, 'the out-of-hours rule failed');
    }
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

/**
 * Whether a schedule may apply to the ticket (decision 0039): its queue's once it has one, its connection's before.
 * A queue that is not the connection's (a transfer) is read from the database.
 */
function scheduleMayApply(ticket: TicketDto, connection: WhatsappDto): boolean {
  if (ticket.queueId === null) return connection.businessHours !== null;
  const queue = connection.queues.find((q) => q.id === ticket.queueId);
  return !queue || queue.businessHours !== null;
}

/** A message as it is stored, but for its ticket and contact. */
function messageWrite(
  whatsappId: number,
  msg: InboundMessage,
  { body, mediaUrl, mediaType }: PreparedMessage,
  quotedMsgId: number | null,
): Omit<MessageWrite, 'ticketId' | 'contactId'> {
  return {
    channelMessageId: msg.id,
    whatsappId,
    body,
    fromMe: msg.fromMe,
    read: msg.fromMe,
    mediaType,
    mediaUrl,
    ack: msg.fromMe ? 1 : 0,
    quotedMsgId,
    participantName: msg.isGroup ? (msg.participant?.name ?? msg.participant?.number ?? null) : null,
    senderKind: msg.fromMe ? 'user' : 'contact',
    // Ours from another device: typed on the phone itself (the desk's own sends never come back, decision 0029).
    origin: msg.fromMe ? 'phone' : null,
    mediaDuration: mediaType === 'audio' ? (msg.media?.seconds ?? null) : null,
    createdAt: msg.timestamp,
  };
}
