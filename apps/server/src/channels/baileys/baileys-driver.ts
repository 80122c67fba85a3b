import {
  Browsers,
  BufferJSON,
  DisconnectReason,
  fetchLatestWaWebVersion,
  generateMessageIDV2,
  makeCacheableSignalKeyStore,
  makeWASocket,
  toNumber,
  type AnyMessageContent,
  type GroupMetadata,
  type MiscMessageGenerationOptions,
  type proto,
  type UserFacingSocketConfig,
  type WAMessage,
  type WASocket,
  type WAVersion,
} from '@whiskeysockets/baileys';
import type { ErrorCode } from '@wadesk/contracts';
import { AppError } from '../../http/app-error.js';
import type {
  ChannelDriver,
  DriverContext,
  GroupInfo,
  HistoryAnchor,
  InboundMessage,
  OutboundMedia,
  ReactionTarget,
  SendOptions,
  SentMessage,
} from '../channel-driver.js';
import { toVoiceNote, VOICE_NOTE_MIMETYPE } from './baileys-audio.js';
import { loadBaileysAuthState, type BaileysAuthState } from './baileys-auth-state.js';
import { ackFromStatus, normalizeMessage, type InboundContext } from './baileys-inbound.js';
import { toGroupInfo } from './baileys-groups.js';
import { chatIdOfJid, groupJid, isGroupJid, jidUser, toJid } from './baileys-jid.js';
import { createBaileysLogger, type ILogger } from './baileys-logger.js';
import { downloadWhatsappMedia } from './baileys-media-download.js';

/** The part of a Baileys socket the driver uses; tests pass a fake with this shape. */
export type BaileysSocket = Pick<
  WASocket,
  | 'user'
  | 'sendMessage'
  | 'onWhatsApp'
  | 'profilePictureUrl'
  | 'groupCreate'
  | 'groupMetadata'
  | 'groupFetchAllParticipating'
  | 'groupUpdateSubject'
  | 'groupUpdateDescription'
  | 'groupSettingUpdate'
  | 'updateMediaMessage'
  | 'fetchMessageHistory'
  | 'rejectCall'
  | 'logout'
  | 'end'
> & {
  ev: Pick<WASocket['ev'], 'on' | 'off'>;
  signalRepository?: { lidMapping: { getPNForLID(lid: string): Promise<string | null> } };
};

export type BaileysSocketFactory = (config: UserFacingSocketConfig) => BaileysSocket;

export interface BaileysDriverOptions {
  /** Builds the socket; `makeWASocket` by default. */
  socketFactory?: BaileysSocketFactory;
  /** WhatsApp Web version to announce; by default the current one from web.whatsapp.com, else Baileys' own. */
  resolveVersion?: () => Promise<WAVersion | undefined>;
  /** Downloads a media message's bytes; Baileys' downloadMediaMessage (with re-upload), from WhatsApp's servers only, by default. */
  downloadMedia?: (message: WAMessage, socket: BaileysSocket, logger: ILogger) => Promise<Buffer>;
  /** Audio → ogg/opus voice note; by default with the process's ffmpeg (FFMPEG_PATH, system, bundled: ops/ffmpeg.ts). */
  convertVoiceNote?: (audio: Buffer) => Promise<Buffer>;
  /** History messages kept for fetchHistory (newest kept). */
  historyLimit?: number;
  /** Pauses between attempts to store an inbound message whose storing failed (tests shorten them). */
  handOverRetryMs?: number[];
}

const RECENT_SENT_LIMIT = 500;

let knownWebVersion: { version: WAVersion; at: number } | null = null;

/** The current WhatsApp Web version, looked up at most once an hour (Baileys' built-in one when offline). */
async function latestWebVersion(): Promise<WAVersion | undefined> {
  if (knownWebVersion && Date.now() - knownWebVersion.at < 3_600_000) return knownWebVersion.version;
  const { version, isLatest } = await fetchLatestWaWebVersion({ signal: AbortSignal.timeout(5000) });
  if (isLatest) knownWebVersion = { version, at: Date.now() };
  return version;
}

function defaultDownload(message: WAMessage, socket: BaileysSocket, logger: ILogger): Promise<Buffer> {
  return downloadWhatsappMedia(message, socket, logger);
}

function statusCodeOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null || !('output' in error)) return undefined;
  const output = (error as { output?: { statusCode?: unknown } }).output;
  return typeof output?.statusCode === 'number' ? output.statusCode : undefined;
}

function reasonName(code: number | undefined): string {
  if (code === undefined) return 'unknown';
  const name: unknown = (DisconnectReason as unknown as Record<number, unknown>)[code];
  return typeof name === 'string' ? name : `status ${code}`;
}

/** Real WhatsApp (multi-device) through Baileys. Status changes come from the network; stop/logout are silent. */
export class BaileysDriver implements ChannelDriver {
  private socket: BaileysSocket | null = null;
  private readonly logger: ILogger;
  private readonly history: InboundMessage[] = [];
  /** Messages this driver sent: Baileys echoes them as upserts, and resends them on retry receipts. */
  private readonly sent = new Map<string, proto.IMessage>();
  private readonly groupSubjects = new Map<string, string>();
  private credsSaved: Promise<void> = Promise.resolve();
  private inbound: Promise<void> = Promise.resolve();

  constructor(
    private readonly ctx: DriverContext,
    private readonly options: BaileysDriverOptions = {},
  ) {
    this.logger = createBaileysLogger(ctx.log, { whatsappId: ctx.whatsappId, channel: 'baileys' });
  }

  async start(): Promise<void> {
    if (this.socket) await this.stop();
    const auth = await loadBaileysAuthState(this.ctx.authState);
    const version = this.options.socketFactory
      ? await this.options.resolveVersion?.()
      : await (this.options.resolveVersion ?? latestWebVersion)().catch(() => undefined);
    const factory: BaileysSocketFactory = this.options.socketFactory ?? makeWASocket;
    const socket = factory({
      auth: { creds: auth.state.creds, keys: makeCacheableSignalKeyStore(auth.state.keys, this.logger) },
      logger: this.logger,
      browser: Browsers.ubuntu('Chrome'),
      ...(version ? { version } : {}),
      markOnlineOnConnect: false,
      syncFullHistory: false,
      printQRInTerminal: false,
      getMessage: (key) => Promise.resolve(key.id ? this.sent.get(key.id) : undefined),
    });
    this.socket = socket;
    this.listen(socket, auth);
  }

  async stop(): Promise<void> {
    const socket = this.socket;
    this.socket = null;
    if (!socket) return;
    await this.credsSaved;
    await socket.end(undefined).catch((err: unknown) => this.ctx.log.warn({ err }, 'closing the Baileys socket failed'));
  }

  async logout(): Promise<void> {
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      await socket.logout().catch((err: unknown) => this.ctx.log.warn({ err }, 'Baileys logout failed; clearing auth state anyway'));
    }
    await this.credsSaved;
    await this.ctx.authState.clear();
  }

  // ---- network events ----

  private listen(socket: BaileysSocket, auth: BaileysAuthState): void {
    const current = () => this.socket === socket;
    const { listener } = this.ctx;

    socket.ev.on('creds.update', (update) => {
      Object.assign(auth.state.creds, update);
      this.credsSaved = this.credsSaved
        .then(() => auth.saveCreds())
        .catch((err: unknown) => this.ctx.log.error({ err }, 'saving Baileys credentials failed'));
    });

    socket.ev.on('connection.update', (update) => {
      if (!current()) return;
      if (update.qr) {
        listener.qr(update.qr);
        listener.status('qrcode');
      }
      if (update.isNewLogin) listener.status('PAIRING');
      if (update.connection === 'connecting') listener.status('OPENING');
      if (update.connection === 'open') {
        const me = socket.user?.id ?? auth.state.creds.me?.id;
        listener.status('CONNECTED', me ? { number: jidUser(me) } : undefined);
      }
      if (update.connection === 'close') void this.onClose(auth, update.lastDisconnect?.error);
    });

    socket.ev.on('messages.upsert', ({ messages, type }) => {
      if (type !== 'notify' && type !== 'append') return;
      this.enqueue(async () => {
        for (const message of messages) {
          if (message.key.id && this.sent.has(message.key.id)) continue;
          const normalized = await normalizeMessage(message, this.inboundContext(socket, true));
          // Handled only once stored: the next message waits, and a failed store is tried again.
          if (normalized && current()) await this.handOver(normalized);
        }
      });
    });

    socket.ev.on('messages.update', (updates) => {
      for (const { key, update } of updates) {
        const ack = ackFromStatus(update.status);
        if (ack === null || !key.fromMe || !key.id || !key.remoteJid || !current()) continue;
        listener.ack({ id: key.id, chatId: chatIdOfJid(key.remoteJid, key.remoteJidAlt), ack });
      }
    });

    socket.ev.on('messaging-history.set', ({ messages, chats }) => {
      for (const chat of chats) if (isGroupJid(chat.id) && chat.name) this.groupSubjects.set(chat.id, chat.name);
      this.enqueue(async () => {
        const context = this.inboundContext(socket, false);
        const normalized: InboundMessage[] = [];
        for (const message of messages) {
          const one = await normalizeMessage(message, context);
          if (one) normalized.push(one);
        }
        if (normalized.length === 0 || !current()) return;
        normalized.sort((a, b) => a.timestamp.getTime() - b.timestamp.getTime());
        this.keepHistory(normalized);
        // Stored (device_history) before the next batch: the history import reads it from there.
        await listener.history(normalized);
      });
    });

    // Incoming calls: the desk decides (acceptCalls); a call it refuses is rejected on the network.
    socket.ev.on('call', (calls) => {
      for (const call of calls) {
        if (call.status !== 'offer' || call.isGroup || call.offline || !current()) continue;
        const from = chatIdOfJid(call.from, call.callerPn);
        void listener
          .call({ id: call.id, from, video: Boolean(call.isVideo) })
          .then(async (reject) => {
            if (reject && current()) await socket.rejectCall(call.id, call.from);
          })
          .catch((err: unknown) => this.ctx.log.warn({ err, callId: call.id }, 'rejecting a call failed'));
      }
    });

    const rememberSubject = (group: Partial<GroupMetadata>) => {
      if (group.id && group.subject) this.groupSubjects.set(group.id, group.subject);
    };
    socket.ev.on('groups.upsert', (groups) => groups.forEach(rememberSubject));
    socket.ev.on('groups.update', (groups) => groups.forEach(rememberSubject));
  }

  private async onClose(auth: BaileysAuthState, error: unknown): Promise<void> {
    this.socket = null;
    const code = statusCodeOf(error);
    if (code === DisconnectReason.loggedOut) {
      // The phone removed this device (or the credentials were refused): they are worthless now.
      await this.credsSaved;
      await this.ctx.authState.clear().catch((err: unknown) => this.ctx.log.error({ err }, 'clearing Baileys auth state failed'));
      this.ctx.listener.status('DISCONNECTED', { loggedOut: true, reason: 'loggedOut' });
      return;
    }
    // Baileys closes with 408 and "QR refs attempts ended" when nobody scanned the QR codes in time.
    const qrTimedOut = code === DisconnectReason.timedOut && error instanceof Error && /QR refs/i.test(error.message);
    const reason = qrTimedOut ? 'qrTimeout' : reasonName(code);
    const message = error instanceof Error ? error.message : undefined;
    this.ctx.log.info({ reason, code, error: message, registered: auth.state.creds.registered }, 'Baileys connection closed');
    this.ctx.listener.status('DISCONNECTED', { reason });
  }

  /**
   * Gives a received message to the pipeline and waits until it is stored; a failure (the database
   * briefly away) is retried with growing pauses, unless the connection no longer runs in this process.
   */
  private async handOver(message: InboundMessage): Promise<void> {
    const pauses = this.options.handOverRetryMs ?? [500, 2000, 5000];
    for (let attempt = 0; ; attempt += 1) {
      try {
        await this.ctx.listener.message(message);
        return;
      } catch (err) {
        const pause = pauses[attempt];
        const gone = err instanceof AppError && err.code === 'ERR_WAPP_NOT_INITIALIZED';
        if (pause === undefined || gone) {
          this.ctx.log.error({ err, id: message.id, attempts: attempt + 1 }, 'inbound message could not be stored');
          return;
        }
        this.ctx.log.warn({ err, id: message.id }, 'storing an inbound message failed: trying again');
        await new Promise((resolve) => setTimeout(resolve, pause).unref());
      }
    }
  }

  private enqueue(work: () => Promise<void>): void {
    this.inbound = this.inbound
      .then(work)
      .catch((err: unknown) => this.ctx.log.error({ err }, 'handling Baileys messages failed'));
  }

  private inboundContext(socket: BaileysSocket, live: boolean): InboundContext {
    const download = this.options.downloadMedia ?? defaultDownload;
    return {
      // History is stored raw and imported later: its media is fetched then, from the message's key and media keys.
      ...(live ? {} : { mediaRef: (message: WAMessage) => JSON.stringify({ key: message.key, message: message.message, messageTimestamp: message.messageTimestamp }, BufferJSON.replacer) }),
      download: async (message) => {
        try {
          return await download(message, socket, this.logger);
        } catch (err) {
          this.ctx.log.warn({ err, id: message.key.id }, 'downloading WhatsApp media failed');
          throw new AppError('ERR_WAPP_DOWNLOAD_MEDIA');
        }
      },
      phoneJidForLid: async (lid) => (socket.signalRepository ? socket.signalRepository.lidMapping.getPNForLID(lid) : null),
      groupSubject: async (jid) => {
        const known = this.groupSubjects.get(jid);
        if (known !== undefined || !live) return known;
        const meta = await socket.groupMetadata(jid);
        this.groupSubjects.set(jid, meta.subject);
        return meta.subject;
      },
    };
  }

  private keepHistory(messages: InboundMessage[]): void {
    const seen = new Set(this.history.map((m) => m.id));
    for (const m of messages) if (!seen.has(m.id)) this.history.push(m);
    this.history.sort((a, b) => a.timestamp.getTime() - b.timestamp.getTime());
    const limit = this.options.historyLimit ?? 5000;
    if (this.history.length > limit) this.history.splice(0, this.history.length - limit);
  }

  // ---- sending ----

  private requireSocket(): BaileysSocket {
    if (!this.socket) throw new AppError('ERR_WAPP_NOT_INITIALIZED');
    return this.socket;
  }

  private async send(to: string, content: AnyMessageContent, options?: SendOptions, code: ErrorCode = 'ERR_SENDING_WAPP_MSG'): Promise<SentMessage> {
    const socket = this.requireSocket();
    const jid = toJid(to);
    const misc: MiscMessageGenerationOptions = {};
    if (options?.quoted) {
      const { id, fromMe, body, participant } = options.quoted;
      misc.quoted = {
        key: { remoteJid: jid, id, fromMe, ...(participant ? { participant: toJid(participant) } : {}) },
        message: { conversation: body ?? '' },
      };
    }
    // Our own id, known before sending: Baileys echoes the send as an upsert, which must not come back inbound.
    misc.messageId = generateMessageIDV2(socket.user?.id);
    this.rememberSent(misc.messageId, {});
    let sent: WAMessage | undefined;
    try {
      sent = await socket.sendMessage(jid, content, misc);
    } catch (err) {
      this.ctx.log.warn({ err, jid }, 'sending a WhatsApp message failed');
      throw new AppError(code);
    }
    if (!sent?.key.id) throw new AppError(code);
    this.rememberSent(sent.key.id, sent.message ?? {});
    const seconds = toNumber(sent.messageTimestamp);
    return { id: sent.key.id, timestamp: seconds > 0 ? new Date(seconds * 1000) : new Date() };
  }

  private rememberSent(id: string, message: proto.IMessage): void {
    this.sent.set(id, message);
    if (this.sent.size > RECENT_SENT_LIMIT) {
      const oldest = this.sent.keys().next().value;
      if (oldest !== undefined) this.sent.delete(oldest);
    }
  }

  sendText(to: string, text: string, options?: SendOptions): Promise<SentMessage> {
    return this.send(to, { text }, options);
  }

  async sendMedia(to: string, media: OutboundMedia, options?: SendOptions): Promise<SentMessage> {
    const { data, mimetype, filename, caption } = media;
    let content: AnyMessageContent;
    switch (media.kind) {
      case 'image':
        content = { image: data, mimetype, caption };
        break;
      case 'video':
        content = { video: data, mimetype, caption };
        break;
      case 'document':
        content = { document: data, mimetype, fileName: filename, caption };
        break;
      case 'audio':
        if (media.ptt === false) {
          content = { audio: data, mimetype, ptt: false };
        } else {
          const convert = this.options.convertVoiceNote ?? ((audio: Buffer) => toVoiceNote(audio));
          content = { audio: await convert(data), mimetype: VOICE_NOTE_MIMETYPE, ptt: true };
        }
        break;
    }
    return this.send(to, content, options);
  }

  async deleteMessage(chatId: string, messageId: string, fromMe: boolean): Promise<void> {
    const jid = toJid(chatId);
    await this.send(chatId, { delete: { remoteJid: jid, id: messageId, fromMe } }, undefined, 'ERR_DELETE_WAPP_MSG');
  }

  /** A reaction (`react`), to a message of the chat; an empty text removes this device's reaction. */
  sendReaction(chatId: string, target: ReactionTarget, emoji: string): Promise<SentMessage> {
    const jid = toJid(chatId);
    const key = { remoteJid: jid, id: target.id, fromMe: target.fromMe, ...(target.participant ? { participant: toJid(target.participant) } : {}) };
    return this.send(chatId, { react: { text: emoji, key } });
  }

  async checkNumber(number: string): Promise<{ exists: boolean; number?: string }> {
    const socket = this.requireSocket();
    const digits = number.replace(/\D/g, '');
    let results: Awaited<ReturnType<BaileysSocket['onWhatsApp']>>;
    try {
      results = await socket.onWhatsApp(digits);
    } catch (err) {
      this.ctx.log.warn({ err }, 'checking a number on WhatsApp failed');
      throw new AppError('ERR_WAPP_CHECK_CONTACT');
    }
    const found = results?.find((r) => r.exists);
    return found ? { exists: true, number: jidUser(found.jid) } : { exists: false };
  }

  async profilePictureUrl(chatId: string): Promise<string | null> {
    try {
      return (await this.requireSocket().profilePictureUrl(toJid(chatId), 'image')) ?? null;
    } catch {
      return null;
    }
  }

  // ---- groups ----

  async createGroup(subject: string, participants: string[]): Promise<GroupInfo> {
    const meta = await this.requireSocket().groupCreate(subject, participants.map(toJid));
    this.groupSubjects.set(meta.id, meta.subject);
    return toGroupInfo(meta);
  }

  async listGroups(): Promise<GroupInfo[]> {
    const groups = Object.values(await this.requireSocket().groupFetchAllParticipating());
    for (const g of groups) this.groupSubjects.set(g.id, g.subject);
    return groups.map(toGroupInfo);
  }

  async updateGroupSubject(groupId: string, subject: string): Promise<void> {
    await this.requireSocket().groupUpdateSubject(groupJid(groupId), subject);
    this.groupSubjects.set(groupJid(groupId), subject);
  }

  async updateGroupDescription(groupId: string, description: string): Promise<void> {
    await this.requireSocket().groupUpdateDescription(groupJid(groupId), description);
  }

  async setGroupAnnounce(groupId: string, announce: boolean): Promise<void> {
    await this.requireSocket().groupSettingUpdate(groupJid(groupId), announce ? 'announcement' : 'not_announcement');
  }

  // ---- history ----

  fetchHistory(limit: number): Promise<InboundMessage[]> {
    return Promise.resolve(limit > 0 ? this.history.slice(-limit) : []);
  }

  /**
   * Asks the phone for older messages of a chat (Baileys' on-demand history sync, a peer data operation): the phone
   * answers later with a `messaging-history.set`, which is kept like the history of the pairing.
   */
  async requestOlderHistory(oldest: HistoryAnchor, count: number): Promise<void> {
    const socket = this.requireSocket();
    const remoteJid = oldest.isGroup ? groupJid(oldest.chatId) : toJid(oldest.chatId);
    await socket.fetchMessageHistory(count, { remoteJid, id: oldest.id, fromMe: oldest.fromMe }, oldest.timestamp.getTime());
  }

  /** A history message's media, from the reference kept with it (its key and media keys): WhatsApp re-uploads it if need be. */
  async downloadHistoryMedia(ref: string): Promise<Buffer> {
    const socket = this.requireSocket();
    const message = JSON.parse(ref, BufferJSON.reviver) as WAMessage;
    return (this.options.downloadMedia ?? defaultDownload)(message, socket, this.logger);
  }
}
