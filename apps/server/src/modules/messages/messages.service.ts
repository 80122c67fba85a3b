import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { isAdmin, isErrorCode, isReactionEmoji, lastMessageOf, MESSAGE_ORIGINS, PAGE_SIZE, type MediaType, type MessageOrigin, type ValidationIssue, type MessageDto, type TicketDto } from '@wadesk/contracts';
import type { OutboundMedia, ReactionTarget, SendOptions } from '../../channels/channel-driver.js';
import type { SessionManager } from '../../channels/session-manager.js';
import type { Database } from '../../db/client.js';
import type { DomainEvents } from '../../events/domain-events.js';
import { approvedTemplate, cloudDriver, renderTemplate } from '../../channels/cloud-api/cloud-templates.js';
import { AppError } from '../../http/app-error.js';
import { mediaTypeOf, type MediaStorage } from '../../storage/media-storage.js';
import { fetchRemoteMedia, RemoteMediaError, type RemoteMedia, type RemoteMediaOptions } from '../../storage/remote-media.js';
import type { UploadSpool } from '../../storage/upload-spool.js';
import { audit } from '../audit/audit.js';
import type { AuthUser } from '../auth/auth-user.js';
import { canSeeTicket, type Viewer } from '../tickets/ticket-access.js';
import { TicketsRepository } from '../tickets/tickets.repository.js';
import { WhatsappRepository } from '../whatsapp/whatsapp.repository.js';
import { audioDurationSeconds } from './audio-duration.js';
import { MessagesRepository, type MessageWrite } from './messages.repository.js';
import { NotesService } from './notes.service.js';

/** A network-style id chosen before sending, so the stored message exists before any ack. */
export function newChannelMessageId(): string {
  return `3EB0${randomBytes(10).toString('hex').toUpperCase()}`;
}

export interface OutgoingText {
  body: string;
  quotedMessageId?: number | null;
  sentBy?: AuthUser | null;
  /** Sent by the desk itself (greeting, queue menu, farewell, protocol), not typed by an attendant. */
  auto?: boolean;
  /** Sent by the Typebot chatbot (stored with senderKind 'bot'). */
  bot?: boolean;
  /** Where it came from when not typed in the chat (decision 0029); bot and auto imply 'bot' and 'system'. */
  origin?: MessageOrigin;
  originId?: number | null;
}

/** A file to send: an upload already on disk (a spool file), moved into media storage when sent. */
export interface OutgoingMedia {
  path: string;
  mimetype: string;
  filename?: string;
  caption?: string;
  sentBy?: AuthUser | null;
  /** Seconds of an audio file, when known. */
  duration?: number | null;
  /** Sent by the Typebot chatbot (stored with senderKind 'bot'). */
  bot?: boolean;
  /** Where it came from when not typed in the chat (decision 0029); bot and auto imply 'bot' and 'system'. */
  origin?: MessageOrigin;
  originId?: number | null;
}

/** What the process that runs a connection needs to send a stored file beside its row (the file is in media storage). */
export const RoutedMediaSchema = z.object({ mimetype: z.string().min(1), filename: z.string().optional(), caption: z.string().optional() });
export type RoutedMedia = z.infer<typeof RoutedMediaSchema>;

const rowId = z.number().int().positive();
const userId = rowId.nullable();

/**
 * What an attendant asks of a connection that needs the driver's answer before anything is stored or answered:
 * done by the process that runs the connection, the caller waiting for the outcome (decision 0020).
 */
export const RoutedActionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('delete'), messageId: rowId }),
  z.object({ kind: z.literal('react'), messageId: rowId, ticketId: rowId, emoji: z.string(), userId }),
  z.object({
    kind: z.literal('template'),
    ticketId: rowId,
    name: z.string(),
    language: z.string(),
    variables: z.array(z.string()),
    userId,
    origin: z.enum(MESSAGE_ORIGINS).nullish(),
    originId: z.number().int().nullish(),
  }),
]);
export type RoutedAction = z.infer<typeof RoutedActionSchema>;

/** What a routed action came to: the message it stored or changed (null: none), or the error the caller gets. */
export type RoutedActionOutcome =
  | { outcome: 'done'; messageId: number | null }
  | { outcome: 'failed' | 'gave-up'; error: string; message: string; issues?: ValidationIssue[] };

/** Hands driver work on a stored message to the process that runs its connection, through the job queue (messages.jobs.ts). */
export interface SendRouter {
  /**
   * Queues the send of a stored message of a ticket (a file: with what the driver needs beside its row). The process
   * that runs the connection sends a ticket's messages in the order they were queued; one taken first by another
   * process, and so queued again, can be overtaken.
   */
  send(messageId: number, ticket: { id: number; whatsappId: number }, media?: RoutedMedia): Promise<unknown>;
  /**
   * Runs a delete, reaction or template through the owner of the connection; answers once it is done or failed (null:
   * not in time).
   */
  act(action: RoutedAction, whatsappId: number): Promise<RoutedActionOutcome | null>;
}

/** A routed message not sent after this long gives up (its connection stayed down): shown failed. */
export const ROUTED_SEND_GIVE_UP_MS = 10 * 60_000;

/** A routed delete, reaction or template gives up sooner: the attendant waits for its answer. */
export const ROUTED_ACTION_GIVE_UP_MS = 20_000;

/** What a routed send job did (kept as the job's output). */
export type RoutedSendOutcome = 'sent' | 'already-done' | 'elsewhere' | 'waiting' | 'failed' | 'gave-up';

/** Messages of a ticket: reading pages, sending through the ticket's connection, deleting for everyone. */
export class MessagesService {
  private router: SendRouter | null = null;
  /** Internal notes and their mentions (issue 36 §1): messages that never reach a connection. */
  readonly notes: NotesService;

  constructor(
    private readonly db: Database,
    private readonly events: DomainEvents,
    private readonly sessions: SessionManager,
    private readonly media: MediaStorage,
    private readonly remoteMedia: Partial<RemoteMediaOptions> = {},
  ) {
    this.notes = new NotesService(db, events);
  }

  /**
   * A page of the chat of a ticket the viewer may see, and the ticket (404 when there is none, 403 when the viewer may
   * not see it), in one statement (issue 35 item 2). The page holds messages with the ticket's events of the same
   * span of time: from the page's oldest message (from the beginning on the last page) to the next newer message (to
   * now on page 1), so the pages' events together are all of them, each once. Past the ticket's first message the
   * pages go on through the contact's earlier tickets the viewer may see (decision 0029), `tickets` naming those in
   * the page. As the JSON text of the page without its `ticket` (`{"messages":…,"count":…}`, left open): the messages
   * go out as PostgreSQL wrote them; the caller adds the ticket and the closing brace.
   */
  async chatPage(viewer: Viewer, ticketId: number, pageNumber: number): Promise<{ ticket: TicketDto; pageJson: string }> {
    const read = await new MessagesRepository(this.db).readChatPageJson(ticketId, pageNumber, PAGE_SIZE.messages, {
      all: isAdmin(viewer.user),
      userId: viewer.user.id,
      queueIds: viewer.queueIds,
    });
    const [ticket] = JSON.parse(read.ticketJson) as TicketDto[];
    if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND', 'Ticket not found');
    if (!canSeeTicket(viewer, ticket)) throw new AppError('ERR_NO_PERMISSION');
    const tickets = await new TicketsRepository(this.db).conversationTickets(read.ticketIds.filter((id) => id !== ticket.id));
    const hasMore = read.count > pageNumber * PAGE_SIZE.messages;
    const pageJson = `{"messages":${read.messagesJson},"events":${JSON.stringify(read.events)},"tickets":${JSON.stringify(tickets)},"count":${read.count},"hasMore":${hasMore}`;
    return { ticket, pageJson };
  }

  /**
   * Several processes on one PostgreSQL (decision 0020): a text whose connection another process runs is
   * stored here and sent by that process, through the job queue.
   */
  useRouter(router: SendRouter): void {
    this.router = router;
  }

  /** Whether this process runs the connection (its sends are not routed here). */
  runsHere(whatsappId: number): boolean {
    return this.sessions.status(whatsappId) !== null;
  }

  /** Whether a send on this connection goes through the job queue: another process runs it. */
  private routed(whatsappId: number): boolean {
    return this.router !== null && !this.runsHere(whatsappId);
  }

  /** Sends text through the ticket's connection: stored with ack 0 first, then sent (here, or by the process that runs it). */
  async sendText(ticket: TicketDto, text: OutgoingText): Promise<MessageDto> {
    if (this.routed(ticket.whatsappId)) return this.sendTextElsewhere(ticket, text);
    const driver = this.sessions.driver(ticket.whatsappId);
    const repo = new MessagesRepository(this.db);
    const quoted = text.quotedMessageId ? await repo.findRecord(text.quotedMessageId) : null;
    if (text.quotedMessageId && (!quoted || quoted.ticketId !== ticket.id)) {
      throw new AppError('ERR_VALIDATION', 'quotedMsg: not a message of this ticket');
    }
    // A quote travels to the contact's phone with its text: an internal note is never quoted to them.
    if (quoted?.private) throw new AppError('ERR_VALIDATION', 'quotedMsg: an internal note', { issues: [{ path: 'quotedMsg', message: 'An internal note cannot be quoted to the contact' }] });
    const options: SendOptions = { messageId: newChannelMessageId() };
    if (quoted) options.quoted = { id: quoted.channelMessageId, fromMe: quoted.fromMe, body: quoted.body };
    const id = await this.store(ticket, {
      channelMessageId: options.messageId!,
      body: text.body,
      mediaType: null,
      mediaUrl: null,
      quotedMsgId: quoted?.id ?? null,
      sentByUserId: text.sentBy?.id ?? null,
      senderKind: text.bot ? 'bot' : text.auto ? 'auto' : 'user',
      ...originOf(text),
    });
    try {
      const sent = await driver.sendText(chatIdOf(ticket), text.body, options);
      await this.networkNamed(id, options.messageId!, sent.id);
    } catch (err) {
      await this.failed(id, ticket, text.body, err);
    }
    return this.announce(id, ticket, text.body, answersCustomer(text));
  }

  /**
   * Sends an approved template on a Cloud API connection (issue 18): the only message allowed outside the
   * 24-hour customer-service window. Stored with its body filled in, as the contact reads it.
   */
  async sendTemplate(
    ticket: TicketDto,
    input: { name: string; language: string; variables: string[]; sentBy?: Pick<AuthUser, 'id'> | null; origin?: MessageOrigin; originId?: number | null },
  ): Promise<MessageDto> {
    if (this.routed(ticket.whatsappId)) {
      const { name, language, variables } = input;
      const id = await this.actElsewhere(ticket.whatsappId, {
        kind: 'template',
        ticketId: ticket.id,
        name,
        language,
        variables,
        userId: input.sentBy?.id ?? null,
        origin: input.origin ?? null,
        originId: input.originId ?? null,
      });
      return (await new MessagesRepository(this.db).findDto(id!))!;
    }
    const driver = cloudDriver(this.sessions.driver(ticket.whatsappId));
    const template = await approvedTemplate(driver, input.name, input.language, input.variables);
    const body = renderTemplate(template.body, input.variables) || template.name;
    const messageId = newChannelMessageId();
    const id = await this.store(ticket, {
      channelMessageId: messageId,
      body,
      mediaType: null,
      mediaUrl: null,
      quotedMsgId: null,
      sentByUserId: input.sentBy?.id ?? null,
      senderKind: 'user',
      ...originOf(input),
    });
    try {
      const sent = await driver.sendTemplate(chatIdOf(ticket), template.name, template.language, input.variables);
      await this.networkNamed(id, messageId, sent.id);
    } catch (err) {
      await this.failed(id, ticket, body, err);
    }
    return this.announce(id, ticket, body);
  }

  /** Where the files of one multipart request are written while it is read (see UploadSpool). */
  uploadSpool(): Promise<UploadSpool> {
    return this.media.uploadSpool();
  }

  /** Sends a file through the ticket's connection: stored with ack 0 first, then sent (here, or by the process that runs it). */
  async sendMedia(ticket: TicketDto, media: OutgoingMedia): Promise<MessageDto> {
    const routed = this.routed(ticket.whatsappId);
    const driver = routed ? null : this.sessions.driver(ticket.whatsappId);
    if (routed) await this.connectedElsewhere(ticket.whatsappId);
    const kind = mediaTypeOf(media.mimetype);
    const name = await this.media.adopt(media.path, media.mimetype, media.filename);
    // Drivers take bytes: read this one file just before sending it (one at a time, at most an upload's size).
    const data = await this.media.read(name);
    if (!data) throw new AppError('ERR_CREATING_MESSAGE', 'The uploaded file is gone.');
    const mediaType: MediaType = kind === 'document' ? 'other' : kind;
    // A voice note's length: given, or read from the file's headers (MP3, Ogg Opus, WAV).
    const duration = kind === 'audio' ? (media.duration ?? audioDurationSeconds(data, media.mimetype)) : null;
    const messageId = newChannelMessageId();
    // A caption, or a document's name; an image, video or voice note without a caption has no text (its file name is
    // not a caption, issue 33 item 6), and audio carries none on WhatsApp.
    const caption = kind === 'audio' ? '' : (media.caption?.trim() ?? '');
    const body = caption || (kind === 'document' ? (media.filename ?? '') : '');
    const id = await this.store(ticket, {
      channelMessageId: messageId,
      body,
      mediaType,
      mediaUrl: this.media.url(name),
      quotedMsgId: null,
      sentByUserId: media.sentBy?.id ?? null,
      senderKind: media.bot ? 'bot' : 'user',
      mediaDuration: duration,
      ...originOf(media),
    });
    const file: RoutedMedia = { mimetype: media.mimetype, filename: media.filename, caption: caption || undefined };
    try {
      if (driver) {
        const sent = await driver.sendMedia(chatIdOf(ticket), outboundMedia(data, file), { messageId });
        await this.networkNamed(id, messageId, sent.id);
      } else {
        // Media storage (DATA_DIR) is shared by the processes (docs/operations.md): the owner reads the file there.
        await this.router!.send(id, ticket, file);
      }
    } catch (err) {
      // The message stays on the ticket with why it failed, its file with it.
      await this.failed(id, ticket, lastMessageOf({ body, mediaType, filename: media.filename, duration }), err);
    }
    return this.announce(id, ticket, lastMessageOf({ body, mediaType, filename: media.filename, duration }), !!media.bot);
  }

  /**
   * Sends the file a URL names (§7 `mediaUrl`): fetched server-side with the rules of remote-media.ts, then
   * sent like an upload, `caption` under it. ERR_VALIDATION for a URL that is not http(s);
   * ERR_WAPP_DOWNLOAD_MEDIA when the file cannot be fetched (refused address, status, timeout, size).
   */
  async sendMediaFromUrl(
    ticket: TicketDto,
    input: { url: string; caption?: string; sentBy?: AuthUser | null; bot?: boolean; origin?: MessageOrigin; originId?: number | null },
  ): Promise<MessageDto> {
    // A connection that is down fails now, before any download.
    if (this.routed(ticket.whatsappId)) await this.connectedElsewhere(ticket.whatsappId);
    else this.sessions.driver(ticket.whatsappId);
    const spool = await this.media.uploadSpool();
    try {
      let file: RemoteMedia;
      try {
        file = await fetchRemoteMedia(input.url, spool, this.remoteMedia);
      } catch (err) {
        if (!(err instanceof RemoteMediaError)) throw err;
        if (err.reason === 'invalid-url') {
          throw new AppError('ERR_VALIDATION', err.message, { issues: [{ path: 'mediaUrl', message: err.message.replace(/^mediaUrl: /, '') }] });
        }
        throw new AppError('ERR_WAPP_DOWNLOAD_MEDIA', err.message);
      }
      return await this.sendMedia(ticket, { path: file.path, mimetype: file.mimetype, filename: file.filename, caption: input.caption, sentBy: input.sentBy, bot: input.bot, origin: input.origin, originId: input.originId });
    } finally {
      await spool.discard();
    }
  }

  /**
   * Reacts to a message of the ticket with an emoji, through the ticket's connection (every channel that offers
   * reactions; ERR_REACTION_NOT_OFFERED otherwise). Stored as inbound reactions are: a message of the emoji
   * replying to the one it reacts to (it replaces this device's earlier reaction, as on the network). An empty
   * emoji removes the reaction: the earlier one is marked deleted. Answers the reaction stored, or null on removal.
   */
  async react(messageId: number, ticket: TicketDto, emoji: string, sentBy?: Pick<AuthUser, 'id'> | null): Promise<MessageDto | null> {
    const repo = new MessagesRepository(this.db);
    const target = await repo.findRecord(messageId);
    if (!target || target.ticketId !== ticket.id) throw new AppError('ERR_NOT_FOUND', 'Message not found');
    if (target.isDeleted) throw new AppError('ERR_VALIDATION', 'messageId: the message was deleted', { issues: [{ path: 'messageId', message: 'The message was deleted' }] });
    // A reaction goes to the contact's phone; a note never does.
    if (target.private) throw new AppError('ERR_VALIDATION', 'messageId: an internal note', { issues: [{ path: 'messageId', message: 'Notes take no reactions' }] });
    if (emoji && !isReactionEmoji(emoji)) throw new AppError('ERR_VALIDATION', 'emoji: one emoji', { issues: [{ path: 'emoji', message: 'Must be one emoji' }] });
    if (this.routed(ticket.whatsappId)) {
      const id = await this.actElsewhere(ticket.whatsappId, { kind: 'react', messageId, ticketId: ticket.id, emoji, userId: sentBy?.id ?? null });
      return id ? repo.findDto(id) : null;
    }
    const driver = this.sessions.driver(ticket.whatsappId);
    if (!driver.sendReaction) throw new AppError('ERR_REACTION_NOT_OFFERED', 'This connection does not offer reactions.');
    const key: ReactionTarget = { id: target.channelMessageId, fromMe: target.fromMe };
    if (ticket.isGroup && !target.fromMe && target.contactId) {
      const participant = await repo.contactNumber(target.contactId);
      if (participant) key.participant = participant;
    }
    const earlier = await repo.findOwnReactions(ticket.id, target.id);
    let sent;
    try {
      sent = await driver.sendReaction(chatIdOf(ticket), key, emoji);
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw new AppError('ERR_SENDING_WAPP_MSG', err instanceof Error ? err.message : 'The network refused the reaction.');
    }
    // The network keeps one reaction per sender and message: the earlier ones are gone there, so here too.
    for (const id of earlier) {
      await repo.markDeleted(id);
      const message = await repo.findDto(id);
      if (message) this.events.emit('message.updated', { message, ticket });
    }
    if (!emoji) return null;
    const id = await this.store(ticket, {
      channelMessageId: sent.id,
      body: emoji,
      mediaType: null,
      mediaUrl: null,
      quotedMsgId: target.id,
      sentByUserId: sentBy?.id ?? null,
      senderKind: 'user',
    });
    await repo.setAck(id, 1);
    return this.announce(id, ticket, emoji);
  }

  /**
   * Deletes one of the caller's own sent messages for everyone; it stays stored as deleted. A note (never on the
   * network) is only marked deleted, by its author or an admin (`by`; the routed job passes none).
   */
  async delete(messageId: number, ticket: TicketDto, by?: Pick<AuthUser, 'id' | 'profile'>, options: { audited?: boolean } = {}): Promise<MessageDto> {
    // The audit entry is the caller's: written here, or by the process a routed delete came from (actStored).
    const audited = options.audited ?? true;
    const repo = new MessagesRepository(this.db);
    const record = await repo.findRecord(messageId);
    if (!record) throw new AppError('ERR_NOT_FOUND', 'Message not found');
    if (!record.fromMe) throw new AppError('ERR_NO_PERMISSION', 'Only messages sent from here can be deleted.');
    if (record.isDeleted) return (await repo.findDto(messageId))!;
    if (record.private) {
      if (by && by.id !== record.sentByUserId && !isAdmin(by)) throw new AppError('ERR_NO_PERMISSION', "Only a note's author or an admin deletes it.");
      await this.db.transaction(async (tx) => {
        await new MessagesRepository(tx).markDeleted(messageId);
        if (audited) await audit.record(tx, messageDeletedEntry(record));
      });
      const note = (await repo.findDto(messageId))!;
      this.events.emit('message.updated', { message: note, ticket });
      return note;
    }
    if (this.routed(record.whatsappId)) {
      await this.actElsewhere(record.whatsappId, { kind: 'delete', messageId });
      // Deleted by the process that runs the connection; recorded here, where the request's actor is known.
      if (audited) await this.db.transaction((tx) => audit.record(tx, messageDeletedEntry(record)));
      return (await repo.findDto(messageId))!; // its event was sent by the process that deleted it
    }
    await this.deleteOnNetwork(record, ticket, audited);
    const message = (await repo.findDto(messageId))!;
    this.events.emit('message.updated', { message, ticket });
    return message;
  }

  /** The network deletes the message for everyone, then it is stored as deleted. */
  private async deleteOnNetwork(
    record: { id: number; whatsappId: number; channelMessageId: string; ticketId: number; body: string; private: boolean; createdAt: Date },
    ticket: TicketDto,
    audited: boolean,
  ): Promise<void> {
    const driver = this.sessions.driver(record.whatsappId);
    try {
      await driver.deleteMessage(chatIdOf(ticket), record.channelMessageId, true);
    } catch (err) {
      if (err instanceof AppError) throw err; // e.g. the Cloud API, which cannot delete (ERR_CLOUD_API_CANNOT_DELETE)
      throw new AppError('ERR_DELETE_WAPP_MSG', 'The network refused to delete the message.');
    }
    await this.db.transaction(async (tx) => {
      await new MessagesRepository(tx).markDeleted(record.id);
      if (audited) await audit.record(tx, messageDeletedEntry(record));
    });
    // The ticket's newest message, deleted: its preview says so (issue 33 item 4).
    const tickets = new TicketsRepository(this.db);
    if (await tickets.previewDeleted(ticket.id, record.id)) {
      const updated = await tickets.findDto(ticket.id);
      if (updated) this.events.emit('ticket.updated', { ticket: updated, previous: { queueId: ticket.queueId, userId: ticket.userId, status: ticket.status } });
    }
  }

  /**
   * A delete, reaction or template for a connection another process runs: done there through the job queue; this
   * waits for the outcome and answers what the owner answered (the message it stored, or its error).
   */
  private async actElsewhere(whatsappId: number, action: RoutedAction): Promise<number | null> {
    await this.connectedElsewhere(whatsappId);
    const done = await this.router!.act(action, whatsappId);
    const fallback = action.kind === 'delete' ? 'ERR_DELETE_WAPP_MSG' : 'ERR_SENDING_WAPP_MSG';
    if (!done) throw new AppError(fallback, 'The server process that runs the connection did not answer in time; try again.');
    if (done.outcome !== 'done') throw new AppError(isErrorCode(done.error) ? done.error : fallback, done.message, { issues: done.issues });
    return done.messageId;
  }

  /**
   * A routed action's job, on whichever process takes it: done if this process runs the connection ('elsewhere' or
   * 'waiting' otherwise, for the job to be queued again), with the same checks and events as a call made here.
   */
  async actStored(action: RoutedAction, queuedAt: number, now: number): Promise<RoutedActionOutcome | 'elsewhere' | 'waiting'> {
    const repo = new MessagesRepository(this.db);
    const tickets = new TicketsRepository(this.db);
    const record = action.kind === 'template' ? null : await repo.findRecord(action.messageId);
    const ticketId = action.kind === 'delete' ? record?.ticketId : action.ticketId;
    const ticket = ticketId ? await tickets.findDto(ticketId) : null;
    if (!ticket || (action.kind !== 'template' && !record)) return { outcome: 'failed', error: 'ERR_NOT_FOUND', message: 'Message not found' };
    const status = this.sessions.status(ticket.whatsappId);
    if (status !== 'CONNECTED') {
      if (now - queuedAt < ROUTED_ACTION_GIVE_UP_MS) return status === null ? 'elsewhere' : 'waiting';
      return { outcome: 'gave-up', error: 'ERR_WAPP_NOT_INITIALIZED', message: 'The connection was not connected: nothing was sent.' };
    }
    const sentBy = 'userId' in action && action.userId !== null ? { id: action.userId } : null;
    try {
      if (action.kind === 'delete') return { outcome: 'done', messageId: (await this.delete(action.messageId, ticket, undefined, { audited: false })).id };
      if (action.kind === 'react') return { outcome: 'done', messageId: (await this.react(action.messageId, ticket, action.emoji, sentBy))?.id ?? null };
      const { name, language, variables } = action;
      const origin = { origin: action.origin ?? undefined, originId: action.originId ?? null };
      return { outcome: 'done', messageId: (await this.sendTemplate(ticket, { name, language, variables, sentBy, ...origin })).id };
    } catch (err) {
      const failure = err instanceof AppError ? err : new AppError('ERR_SENDING_WAPP_MSG', err instanceof Error ? err.message : 'The network refused it.');
      return { outcome: 'failed', error: failure.code, message: failure.message, issues: failure.issues };
    }
  }

  /** A connection another process runs must be connected for work routed to it (the status the owner stored). */
  private async connectedElsewhere(whatsappId: number): Promise<void> {
    const connection = await new WhatsappRepository(this.db).findSessionTarget(whatsappId);
    if (!connection) throw new AppError('ERR_NO_WAPP_FOUND');
    // The status the owner stored is the real one (it changes it first); a takeover in progress still shows CONNECTED.
    if (connection.status !== 'CONNECTED') throw new AppError('ERR_WAPP_NOT_INITIALIZED', 'The connection is not connected.');
  }

  /** A text for a connection another process runs: stored now (ack 0), announced, and queued for its owner. */
  private async sendTextElsewhere(ticket: TicketDto, text: OutgoingText): Promise<MessageDto> {
    await this.connectedElsewhere(ticket.whatsappId);
    const repo = new MessagesRepository(this.db);
    const quoted = text.quotedMessageId ? await repo.findRecord(text.quotedMessageId) : null;
    if (text.quotedMessageId && (!quoted || quoted.ticketId !== ticket.id)) {
      throw new AppError('ERR_VALIDATION', 'quotedMsg: not a message of this ticket');
    }
    // A quote travels to the contact's phone with its text: an internal note is never quoted to them.
    if (quoted?.private) throw new AppError('ERR_VALIDATION', 'quotedMsg: an internal note', { issues: [{ path: 'quotedMsg', message: 'An internal note cannot be quoted to the contact' }] });
    const id = await this.store(ticket, {
      channelMessageId: newChannelMessageId(),
      body: text.body,
      mediaType: null,
      mediaUrl: null,
      quotedMsgId: quoted?.id ?? null,
      sentByUserId: text.sentBy?.id ?? null,
      senderKind: text.bot ? 'bot' : text.auto ? 'auto' : 'user',
      ...originOf(text),
    });
    try {
      await this.router!.send(id, ticket);
    } catch (err) {
      await this.failed(id, ticket, text.body, err);
    }
    return this.announce(id, ticket, text.body, answersCustomer(text));
  }

  /**
   * A routed send's job: sends the stored message if this process runs its connection and it was not sent
   * yet (acked or failed); answers 'elsewhere' or 'waiting' for the job to be queued again. A job for a
   * message already sent does nothing, so a retried or repeated job never sends twice.
   */
  async sendStored(messageId: number, queuedAt: number, now: number, media?: RoutedMedia): Promise<RoutedSendOutcome> {
    const repo = new MessagesRepository(this.db);
    const record = await repo.findRecord(messageId);
    if (!record || !record.fromMe || record.isDeleted || record.ack > 0 || record.sendError) return 'already-done';
    const status = this.sessions.status(record.whatsappId);
    if (status !== 'CONNECTED') {
      if (now - queuedAt < ROUTED_SEND_GIVE_UP_MS) return status === null ? 'elsewhere' : 'waiting';
      await this.applySendError(record.whatsappId, record.channelMessageId, 'The connection was not connected: the message was not sent.');
      return 'gave-up';
    }
    const driver = this.sessions.driver(record.whatsappId);
    const ticket = await new TicketsRepository(this.db).findDto(record.ticketId);
    if (!ticket) return 'already-done';
    const options: SendOptions = { messageId: record.channelMessageId };
    const quoted = record.quotedMsgId ? await repo.findRecord(record.quotedMsgId) : null;
    if (quoted) options.quoted = { id: quoted.channelMessageId, fromMe: quoted.fromMe, body: quoted.body };
    try {
      const sent = media ? await this.sendStoredFile(driver, chatIdOf(ticket), record, media, options) : await driver.sendText(chatIdOf(ticket), record.body, options);
      await this.networkNamed(messageId, record.channelMessageId, sent.id);
      // Handed to the network (ack 1, "sent"): a later job for it does nothing. Acks never move backwards.
      await this.applyAck(record.whatsappId, sent.id || record.channelMessageId, 1);
      return 'sent';
    } catch (err) {
      await this.applySendError(record.whatsappId, record.channelMessageId, err instanceof Error ? err.message : 'The network refused the message.');
      return 'failed';
    }
  }

  /** A routed file: read from media storage, where the process that stored it put it. */
  private async sendStoredFile(
    driver: ReturnType<SessionManager['driver']>,
    chatId: string,
    record: { mediaUrl: string | null },
    media: RoutedMedia,
    options: SendOptions,
  ) {
    const name = record.mediaUrl ? this.media.nameOf(record.mediaUrl) : null;
    const data = name ? await this.media.read(name) : null;
    if (!data) throw new Error('The file is gone from media storage: is DATA_DIR shared by the server processes?');
    return driver.sendMedia(chatId, outboundMedia(data, media), { messageId: options.messageId });
  }

  async messageRecord(id: number) {
    return new MessagesRepository(this.db).findRecord(id);
  }

  async markRead(ticket: TicketDto): Promise<void> {
    if (ticket.unreadMessages === 0) return;
    await new MessagesRepository(this.db).markTicketRead(ticket.id);
    this.events.emit('ticket.read', { ticket: { ...ticket, unreadMessages: 0 } });
  }

  /** Applies a delivery ack from the network; never moves backwards. */
  async applyAck(whatsappId: number, channelMessageId: string, ack: number): Promise<void> {
    const changed = await new MessagesRepository(this.db).updateAck(whatsappId, channelMessageId, ack);
    if (changed?.ticket) this.events.emit('message.updated', { message: changed.message, ticket: changed.ticket });
  }

  /** A sent message the network could not deliver (the Cloud API's `failed` status): stored with why, shown to the attendant. */
  async applySendError(whatsappId: number, channelMessageId: string, error: string): Promise<void> {
    const repo = new MessagesRepository(this.db);
    const id = await repo.setSendError(whatsappId, channelMessageId, error);
    if (!id) return;
    const message = (await repo.findDto(id))!;
    const ticket = await new TicketsRepository(this.db).findDto(message.ticketId);
    if (ticket) this.events.emit('message.updated', { message, ticket });
  }

  /** A network that names its own messages (the Cloud API) answered another id than ours: the stored message takes it. */
  private async networkNamed(id: number, ours: string, theirs: string): Promise<void> {
    if (theirs && theirs !== ours) await new MessagesRepository(this.db).setChannelMessageId(id, theirs);
  }

  private async store(
    ticket: TicketDto,
    data: Pick<MessageWrite, 'channelMessageId' | 'body' | 'mediaType' | 'mediaUrl' | 'quotedMsgId' | 'sentByUserId' | 'senderKind' | 'mediaDuration' | 'origin' | 'originId'>,
  ): Promise<number> {
    const id = await new MessagesRepository(this.db).insertOnce({
      ...data,
      whatsappId: ticket.whatsappId,
      ticketId: ticket.id,
      contactId: null,
      fromMe: true,
      read: true,
      ack: 0,
      participantName: null,
    });
    if (!id) throw new AppError('ERR_CREATING_MESSAGE');
    return id;
  }

  /**
   * A send the network refused: the message stays on the ticket with why ("Not delivered: …", issue 33 item 25), so
   * a failed greeting or reply is seen there and not only in the log; then the caller hears the error.
   */
  private async failed(id: number, ticket: TicketDto, lastMessage: string, err: unknown): Promise<never> {
    const error = err instanceof AppError ? err : new AppError('ERR_SENDING_WAPP_MSG', err instanceof Error ? err.message : 'The network refused the message.');
    await new MessagesRepository(this.db).setSendErrorById(id, error.message);
    await this.announce(id, ticket, lastMessage);
    throw error;
  }

  /** `auto`: sent by the desk itself or the chatbot in answer to the customer, which does not take the preview from the customer's message. */
  private async announce(id: number, ticket: TicketDto, lastMessage: string, auto = false): Promise<MessageDto> {
    const recorded = await new MessagesRepository(this.db).recordSent(id, ticket.id, lastMessage, auto);
    if (!recorded) throw new AppError('ERR_NO_TICKET_FOUND', 'The ticket was deleted while its message was sent.');
    const { message } = recorded;
    const updated = recorded.ticket ?? ticket;
    this.events.emit('message.created', { message, ticket: updated });
    // A message does not move its ticket: where it was is where it is (no socket is told to drop it).
    this.events.emit('ticket.updated', { ticket: updated, previous: { queueId: ticket.queueId, userId: ticket.userId, status: ticket.status } });
    return message;
  }
}

/** A file as drivers take it: its bytes, kind and name; audio goes as a voice note. */
function outboundMedia(data: Buffer, media: RoutedMedia): OutboundMedia {
  const kind = mediaTypeOf(media.mimetype);
  return { kind, data, mimetype: media.mimetype, filename: media.filename, caption: media.caption, ptt: kind === 'audio' };
}

/**
 * A message the desk sends by itself in answer to the customer (greeting, queue menu, rejected-call answer, the
 * chatbot): not an attendant's action (a farewell or transfer message has the attendant as `sentBy`, and previews).
 */
function answersCustomer(text: { auto?: boolean; bot?: boolean; sentBy?: unknown }): boolean {
  return !!text.bot || (!!text.auto && !text.sentBy);
}

/** Where a message sent through this service came from: given, or implied by the chatbot and the desk's own messages. */
function originOf(sent: { bot?: boolean; auto?: boolean; origin?: MessageOrigin; originId?: number | null }): Pick<MessageWrite, 'origin' | 'originId'> {
  return { origin: sent.origin ?? (sent.bot ? 'bot' : sent.auto ? 'system' : null), originId: sent.originId ?? null };
}

/** The chat a ticket talks to: the contact's number, or the group id. */
export function chatIdOf(ticket: TicketDto): string {
  return ticket.contact.number;
}

/** The audit entry of a message (or note) deleted (issue 37 §2). */
function messageDeletedEntry(record: { id: number; ticketId: number; whatsappId: number; body: string; private: boolean; createdAt: Date }) {
  return {
    action: 'message.delete' as const,
    targetType: 'message',
    targetId: record.id,
    before: { id: record.id, ticketId: record.ticketId, whatsappId: record.whatsappId, private: record.private, body: record.body, createdAt: record.createdAt.toISOString() },
  };
}
