import { chatIdDigits, normalizeWhatsappNumber } from '@wadesk/contracts';
import { randomBytes, randomUUID } from 'node:crypto';
import { AppError } from '../../http/app-error.js';
import type {
  ChannelDriver,
  DriverContext,
  GroupInfo,
  InboundCall,
  InboundMessage,
  InboundOutcome,
  OutboundMedia,
  ReactionTarget,
  SendOptions,
  SentMessage,
} from '../channel-driver.js';
import type { OutboxEntry, SimulatorDevice, SimulatorLink } from './simulator-device.js';
import { simulatorMedia, type LocalFetch } from './simulator-media.js';

/** Auth-state key that survives restarts: a paired simulator connection comes back CONNECTED. */
export const PAIRED_KEY = 'simulator:paired';
/** The device reports "sent to server" (ack 1) this long after a send, once the sender has stored it. */
const SENT_ACK_DELAY_MS = 200;

/**
 * A chat id as the simulator keeps it: a group id as is, a contact as digits only. A Brazilian number is the id
 * WhatsApp gives it (decision 0031): area codes up to 30 with the ninth digit, above 30 without, so a customer who
 * writes from "+55 41 9…" is the chat a send to 5541… reaches (issue 33 item 12).
 */
export function chatIdOf(to: string): string {
  const digits = chatIdDigits(to);
  if (to.endsWith('@g.us') || !digits.startsWith('55')) return digits;
  const id = normalizeWhatsappNumber(digits);
  return id.ok ? id.number : digits;
}

/** The simulator's channel driver: a virtual WhatsApp device, driven through the simulator's HTTP routes. */
export class SimulatorDriver implements ChannelDriver, SimulatorLink {
  connected = false;
  pendingQr: string | null = null;

  constructor(
    private readonly context: DriverContext,
    private readonly device: SimulatorDevice,
    private readonly fetchLocal?: LocalFetch,
    /** The simulated network's time to answer a number check or take a text (SIMULATOR_LATENCY_MS; none by default). */
    private readonly latencyMs: { min: number; max: number } = { min: 0, max: 0 },
  ) {}

  /** Waits as long as the simulated network takes to answer (a random time within latencyMs). */
  private async networkLatency(): Promise<void> {
    const { min, max } = this.latencyMs;
    if (max <= 0) return;
    await new Promise((resolve) => setTimeout(resolve, min + Math.random() * (max - min)));
  }

  async start(): Promise<void> {
    this.device.link = this;
    this.context.listener.status('OPENING');
    await this.device.load();
    if (this.device.link !== this) return; // stopped meanwhile
    const paired = await this.context.authState.get<boolean>(PAIRED_KEY);
    if (this.device.link !== this) return; // stopped meanwhile
    if (paired) {
      this.connected = true;
      this.context.listener.status('CONNECTED', { number: this.device.number });
      return;
    }
    this.pendingQr = `SIM-${this.context.whatsappId}-${randomBytes(8).toString('hex')}`;
    this.context.listener.qr(this.pendingQr);
  }

  async pair(): Promise<boolean> {
    if (!this.pendingQr || this.device.link !== this) return false;
    this.pendingQr = null;
    this.context.listener.status('PAIRING');
    await this.context.authState.set({ [PAIRED_KEY]: true });
    this.connected = true;
    this.context.listener.status('CONNECTED', { number: this.device.number });
    return true;
  }

  async stop(): Promise<void> {
    this.connected = false;
    this.pendingQr = null;
    if (this.device.link === this) this.device.link = null;
    await this.device.flush();
  }

  async logout(): Promise<void> {
    await this.stop();
    await this.context.authState.clear();
  }

  receive(message: InboundMessage): Promise<InboundOutcome> {
    return this.context.listener.message(message);
  }

  history(messages: InboundMessage[]): Promise<void> {
    return this.context.listener.history(messages);
  }

  /** A seeded history message's media: its `ref` is the URL it was seeded with (a data: URL or a path of this app). */
  async downloadHistoryMedia(ref: string): Promise<Buffer> {
    return simulatorMedia('document', ref, this.fetchLocal).download();
  }

  call(call: InboundCall): Promise<boolean> {
    return this.context.listener.call(call);
  }

  acked(entry: OutboxEntry): void {
    if (this.connected) this.context.listener.ack({ id: entry.id, chatId: entry.to, ack: entry.ack });
  }

  async sendText(to: string, text: string, options?: SendOptions): Promise<SentMessage> {
    await this.networkLatency();
    return this.record(to, { body: text, mediaType: null, mediaUrl: null }, options);
  }

  async sendMedia(to: string, media: OutboundMedia, options?: SendOptions): Promise<SentMessage> {
    this.recipient(to);
    const mediaUrl = await this.device.keepFile(media.mimetype, media.data);
    // As WhatsApp shows it: a caption under an image or video, a document's name; a file name is never a caption (issue 33 item 6).
    const body = media.kind === 'audio' ? '' : (media.caption ?? (media.kind === 'document' ? (media.filename ?? '') : ''));
    return this.record(to, { body, mediaType: media.kind, mediaUrl }, options);
  }

  /** A reaction goes to the device's outbox as its emoji (mediaType 'reaction', body '' when removed). */
  async sendReaction(to: string, _target: ReactionTarget, emoji: string): Promise<SentMessage> {
    const chatId = this.recipient(to);
    const entry: OutboxEntry = { id: `SIM-OUT-${randomUUID()}`, to: chatId, body: emoji, mediaType: 'reaction', mediaUrl: null, ack: 1, isDeleted: false, createdAt: new Date() };
    this.device.send(entry);
    return { id: entry.id, timestamp: entry.createdAt };
  }

  async deleteMessage(_chatId: string, messageId: string, fromMe: boolean): Promise<void> {
    this.requireConnected();
    const entry = fromMe ? this.device.outbox.find((e) => e.id === messageId) : undefined;
    if (fromMe && !entry) throw new AppError('ERR_DELETE_WAPP_MSG');
    if (entry) {
      entry.isDeleted = true;
      this.device.changed();
    }
  }

  /** The phone's address book: everyone it has chatted with (groups excluded). */
  async listContacts(): Promise<{ number: string; name: string }[]> {
    this.requireConnected();
    const names = new Map<string, string>();
    for (const m of this.device.history) {
      if (m.isGroup) continue;
      const name = !m.fromMe && m.chatName ? m.chatName : (names.get(m.chatId) ?? m.chatId);
      names.set(m.chatId, name);
    }
    return [...names].map(([number, name]) => ({ number, name }));
  }

  async checkNumber(number: string): Promise<{ exists: boolean; number?: string }> {
    this.requireConnected();
    await this.networkLatency();
    const digits = chatIdOf(number);
    if (digits.length < 8 || digits.endsWith('0000')) return { exists: false };
    return { exists: true, number: digits };
  }

  async profilePictureUrl(): Promise<string | null> {
    return null;
  }

  async createGroup(subject: string, participants: string[]): Promise<GroupInfo> {
    this.requireConnected();
    return structuredClone(this.device.createGroup(subject, participants));
  }

  async listGroups(): Promise<GroupInfo[]> {
    this.requireConnected();
    return [...this.device.groups.values()].map((g) => structuredClone(g));
  }

  async updateGroupSubject(groupId: string, subject: string): Promise<void> {
    this.group(groupId).subject = subject;
    this.device.changed();
  }

  async updateGroupDescription(groupId: string, description: string): Promise<void> {
    this.group(groupId).description = description;
    this.device.changed();
  }

  async setGroupAnnounce(groupId: string, announce: boolean): Promise<void> {
    this.group(groupId).announce = announce;
    this.device.changed();
  }

  async fetchHistory(limit: number): Promise<InboundMessage[]> {
    this.requireConnected();
    return limit > 0 ? this.device.history.slice(-limit) : [];
  }

  /** A group the device may change (it must be an admin of it). */
  private group(groupId: string): GroupInfo {
    this.requireConnected();
    return this.device.groupToChange(groupId);
  }

  private requireConnected(): void {
    if (!this.connected) throw new AppError('ERR_WAPP_NOT_INITIALIZED', 'The simulator device is not connected.');
  }

  /** The chat id a send goes to; throws when the device cannot send or the number is not on the network. */
  private recipient(to: string): string {
    this.requireConnected();
    const chatId = chatIdOf(to);
    if (!chatId) throw new AppError('ERR_SENDING_WAPP_MSG', 'No recipient.');
    if (!chatId.endsWith('@g.us') && chatId.endsWith('0000')) throw new AppError('ERR_WAPP_INVALID_CONTACT');
    // A closed group (announce) takes messages from its admins only.
    const group = this.device.groups.get(chatId);
    if (group?.announce && !this.device.isAdminOf(group)) throw new AppError('ERR_SENDING_WAPP_MSG', 'Only admins may send messages to this group.');
    return chatId;
  }

  private record(
    to: string,
    content: Pick<OutboxEntry, 'body' | 'mediaType' | 'mediaUrl'>,
    options: SendOptions | undefined,
  ): SentMessage {
    const chatId = this.recipient(to);
    const entry: OutboxEntry = { id: options?.messageId ?? `SIM-OUT-${randomUUID()}`, to: chatId, ...content, ack: 1, isDeleted: false, createdAt: new Date() };
    this.device.send(entry);
    const kind = content.mediaType === null ? 'text' : (content.mediaType as InboundMessage['kind']);
    this.device.remember({
      id: entry.id,
      fromMe: true,
      chatId,
      isGroup: chatId.endsWith('@g.us'),
      kind,
      body: content.body,
      quotedId: options?.quoted?.id,
      timestamp: entry.createdAt,
    });
    const timer = setTimeout(() => this.acked(entry), SENT_ACK_DELAY_MS);
    timer.unref();
    return { id: entry.id, timestamp: entry.createdAt };
  }
}
