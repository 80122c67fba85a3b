import { randomBytes } from 'node:crypto';
import { lastMessageOf, PAGE_SIZE, type MediaType, type MessageDto, type MessagesPageDto, type TicketDto } from '@wadesk/contracts';
import type { OutboundMedia, SendOptions } from '../../channels/channel-driver.js';
import type { SessionManager } from '../../channels/session-manager.js';
import type { Database } from '../../db/client.js';
import type { DomainEvents } from '../../events/domain-events.js';
import { AppError } from '../../http/app-error.js';
import { mediaTypeOf, type MediaStorage } from '../../storage/media-storage.js';
import { fetchRemoteMedia, RemoteMediaError, type RemoteMedia, type RemoteMediaOptions } from '../../storage/remote-media.js';
import type { UploadSpool } from '../../storage/upload-spool.js';
import type { AuthUser } from '../auth/auth-user.js';
import { TicketEventsRepository } from '../tickets/ticket-events.repository.js';
import { TicketsRepository } from '../tickets/tickets.repository.js';
import { audioDurationSeconds } from './audio-duration.js';
import { MessagesRepository, type MessageWrite } from './messages.repository.js';

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
}

/** Messages of a ticket: reading pages, sending through the ticket's connection, deleting for everyone. */
export class MessagesService {
  constructor(
    private readonly db: Database,
    private readonly events: DomainEvents,
    private readonly sessions: SessionManager,
    private readonly media: MediaStorage,
    private readonly remoteMedia: Partial<RemoteMediaOptions> = {},
  ) {}

  /**
   * One page of messages with the ticket's events of the same span of time: from the page's oldest message
   * (from the beginning on the last page) to the next newer message (to now on page 1), so the pages'
   * events together are all of them, each once.
   */
  async listPage(ticket: TicketDto, pageNumber: number): Promise<Omit<MessagesPageDto, 'ticket'>> {
    const repo = new MessagesRepository(this.db);
    const { messages, count } = await repo.listPage(ticket.id, pageNumber, PAGE_SIZE.messages);
    const hasMore = count > pageNumber * PAGE_SIZE.messages;
    const oldest = messages[0];
    const until = await repo.newerNeighbourTime(ticket.id, pageNumber, PAGE_SIZE.messages);
    const beyondLastPage = messages.length === 0 && pageNumber > 1;
    const events = beyondLastPage
      ? []
      : await new TicketEventsRepository(this.db).listBetween(ticket.id, hasMore && oldest ? new Date(oldest.createdAt) : null, until);
    return { messages, events, count, hasMore };
  }

  /** Sends text through the ticket's connection: stored with ack 0 first, then sent. */
  async sendText(ticket: TicketDto, text: OutgoingText): Promise<MessageDto> {
    const driver = this.sessions.driver(ticket.whatsappId);
    const repo = new MessagesRepository(this.db);
    const quoted = text.quotedMessageId ? await repo.findRecord(text.quotedMessageId) : null;
    if (text.quotedMessageId && (!quoted || quoted.ticketId !== ticket.id)) {
      throw new AppError('ERR_VALIDATION', 'quotedMsg: not a message of this ticket');
    }
    const options: SendOptions = { messageId: newChannelMessageId() };
    if (quoted) options.quoted = { id: quoted.channelMessageId, fromMe: quoted.fromMe, body: quoted.body };
    const id = await this.store(ticket, {
      channelMessageId: options.messageId!,
      body: text.body,
      mediaType: null,
      mediaUrl: null,
      quotedMsgId: quoted?.id ?? null,
      sentByUserId: text.sentBy?.id ?? null,
      senderKind: text.auto ? 'auto' : 'user',
    });
    try {
      await driver.sendText(chatIdOf(ticket), text.body, options);
    } catch (err) {
      await this.failed(id, err);
    }
    return this.announce(id, ticket, text.body);
  }

  /** Where the files of one multipart request are written while it is read (see UploadSpool). */
  uploadSpool(): Promise<UploadSpool> {
    return this.media.uploadSpool();
  }

  async sendMedia(ticket: TicketDto, media: OutgoingMedia): Promise<MessageDto> {
    const driver = this.sessions.driver(ticket.whatsappId);
    const kind = mediaTypeOf(media.mimetype);
    const name = await this.media.adopt(media.path, media.mimetype, media.filename);
    // Drivers take bytes: read this one file just before sending it (one at a time, at most an upload's size).
    const data = await this.media.read(name);
    if (!data) throw new AppError('ERR_CREATING_MESSAGE', 'The uploaded file is gone.');
    const mediaType: MediaType = kind === 'document' ? 'other' : kind;
    // A voice note's length: given, or read from the file's headers (MP3, Ogg Opus, WAV).
    const duration = kind === 'audio' ? (media.duration ?? audioDurationSeconds(data, media.mimetype)) : null;
    const messageId = newChannelMessageId();
    const body = media.caption?.trim() || media.filename || '';
    const id = await this.store(ticket, {
      channelMessageId: messageId,
      body,
      mediaType,
      mediaUrl: this.media.url(name),
      quotedMsgId: null,
      sentByUserId: media.sentBy?.id ?? null,
      senderKind: 'user',
      mediaDuration: duration,
    });
    const outbound: OutboundMedia = {
      kind,
      data,
      mimetype: media.mimetype,
      filename: media.filename,
      caption: media.caption,
      ptt: kind === 'audio',
    };
    try {
      await driver.sendMedia(chatIdOf(ticket), outbound, { messageId });
    } catch (err) {
      await this.media.remove(name);
      await this.failed(id, err);
    }
    return this.announce(id, ticket, lastMessageOf({ body, mediaType, filename: media.filename, duration }));
  }

  /**
   * Sends the file a URL names (§7 `mediaUrl`): fetched server-side with the rules of remote-media.ts, then
   * sent like an upload, `caption` under it. ERR_VALIDATION for a URL that is not http(s);
   * ERR_WAPP_DOWNLOAD_MEDIA when the file cannot be fetched (refused address, status, timeout, size).
   */
  async sendMediaFromUrl(ticket: TicketDto, input: { url: string; caption?: string; sentBy?: AuthUser | null }): Promise<MessageDto> {
    this.sessions.driver(ticket.whatsappId); // a connection that is down fails now, before any download
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
      return await this.sendMedia(ticket, { path: file.path, mimetype: file.mimetype, filename: file.filename, caption: input.caption, sentBy: input.sentBy });
    } finally {
      await spool.discard();
    }
  }

  /** Deletes one of the caller's own sent messages for everyone; it stays stored as deleted. */
  async delete(messageId: number, ticket: TicketDto): Promise<MessageDto> {
    const repo = new MessagesRepository(this.db);
    const record = await repo.findRecord(messageId);
    if (!record) throw new AppError('ERR_NOT_FOUND', 'Message not found');
    if (!record.fromMe) throw new AppError('ERR_NO_PERMISSION', 'Only messages sent from here can be deleted.');
    if (!record.isDeleted) {
      const driver = this.sessions.driver(record.whatsappId);
      try {
        await driver.deleteMessage(chatIdOf(ticket), record.channelMessageId, true);
      } catch {
        throw new AppError('ERR_DELETE_WAPP_MSG', 'The network refused to delete the message.');
      }
      await repo.markDeleted(messageId);
    }
    const message = (await repo.findDto(messageId))!;
    this.events.emit('message.updated', { message, ticket });
    return message;
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
    const repo = new MessagesRepository(this.db);
    const id = await repo.updateAck(whatsappId, channelMessageId, ack);
    if (!id) return;
    const message = (await repo.findDto(id))!;
    const ticket = await new TicketsRepository(this.db).findDto(message.ticketId);
    if (ticket) this.events.emit('message.updated', { message, ticket });
  }

  private async store(
    ticket: TicketDto,
    data: Pick<MessageWrite, 'channelMessageId' | 'body' | 'mediaType' | 'mediaUrl' | 'quotedMsgId' | 'sentByUserId' | 'senderKind' | 'mediaDuration'>,
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

  private async failed(id: number, err: unknown): Promise<never> {
    await new MessagesRepository(this.db).remove(id);
    if (err instanceof AppError) throw err;
    throw new AppError('ERR_SENDING_WAPP_MSG', err instanceof Error ? err.message : 'The network refused the message.');
  }

  private async announce(id: number, ticket: TicketDto, lastMessage: string): Promise<MessageDto> {
    const tickets = new TicketsRepository(this.db);
    await tickets.touchWithMessage(ticket.id, lastMessage, false);
    const message = (await new MessagesRepository(this.db).findDto(id))!;
    const updated = (await tickets.findDto(ticket.id)) ?? ticket;
    this.events.emit('message.created', { message, ticket: updated });
    this.events.emit('ticket.updated', { ticket: updated });
    return message;
  }
}

/** The chat a ticket talks to: the contact's number, or the group id. */
export function chatIdOf(ticket: TicketDto): string {
  return ticket.contact.number;
}
