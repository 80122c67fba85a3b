import { AppError } from '../../http/app-error.js';
import type { Ack, GroupInfo, InboundCall, InboundMessage, InboundOutcome } from '../channel-driver.js';
import { toDataUrl } from './simulator-media.js';
import type { SimulatorOutboxFiles } from './simulator-outbox-files.js';
import { chatIdOf } from './simulator.driver.js';
import type { SimulatorDevicesRepository, SimulatorDeviceState } from './simulator-devices.repository.js';

/** What the simulated device sent. */
export interface OutboxEntry {
  id: string;
  to: string;
  body: string;
  mediaType: string | null;
  /** A signed URL of the sent file (null once the file was dropped to keep the device within its limits). */
  mediaUrl: string | null;
  ack: Ack;
  isDeleted: boolean;
  createdAt: Date;
}

/** The device side the simulator's HTTP routes act on (implemented by the simulator driver). */
export interface SimulatorLink {
  readonly connected: boolean;
  readonly pendingQr: string | null;
  pair(): Promise<boolean>;
  /** Hands a contact's message to the desk; resolves once the desk stored it (or knew it). */
  receive(message: InboundMessage): Promise<InboundOutcome>;
  /** A contact calls: resolves true when the desk rejects the call. */
  call(call: InboundCall): Promise<boolean>;
  acked(entry: OutboxEntry): void;
  /** Hands the phone's history to the desk (as a device does on pairing); resolves once it is kept. */
  history(messages: InboundMessage[]): Promise<void>;
}

const HISTORY_LIMIT = 2000;
const OUTBOX_LIMIT = 5000;
/** A change is written to the database this long after it (changes in between are written together). */
const SAVE_DELAY_MS = 250;

/**
 * One simulated phone: its outbox, chats, groups and the driver currently attached to it. Kept in memory and, when
 * a store is given, in the database a moment after each change (issue 33 item 25: customers, their messages and
 * the groups survive a restart); the files it sent go to disk (bounded) when a file store is given.
 */
export class SimulatorDevice {
  readonly outbox: OutboxEntry[] = [];
  readonly history: InboundMessage[] = [];
  readonly groups = new Map<string, GroupInfo>();
  link: SimulatorLink | null = null;
  private groupCounter = 0;
  private loading: Promise<void> | null = null;
  private saveTimer: NodeJS.Timeout | null = null;
  private saving: Promise<void> = Promise.resolve();

  constructor(
    readonly whatsappId: number,
    private readonly files: SimulatorOutboxFiles | null = null,
    private readonly store: SimulatorDevicesRepository | null = null,
  ) {}

  /** Reads what the phone kept before a restart (once); what happened since comes after it. */
  load(): Promise<void> {
    this.loading ??= this.restore();
    return this.loading;
  }

  private async restore(): Promise<void> {
    const state = await this.store?.load(this.whatsappId);
    if (!state) return;
    const known = new Set(this.history.map((m) => m.id));
    this.history.unshift(...state.history.filter((m) => !known.has(m.id)).map((m) => ({ ...m, timestamp: new Date(m.timestamp) })));
    const sent = new Set(this.outbox.map((e) => e.id));
    this.outbox.unshift(...state.outbox.filter((e) => !sent.has(e.id)).map((e) => ({ ...e, createdAt: new Date(e.createdAt) })));
    for (const group of state.groups) if (!this.groups.has(group.id)) this.groups.set(group.id, group);
    this.groupCounter = Math.max(this.groupCounter, state.groupCounter);
  }

  /** Something changed: written to the database shortly (one write for a burst of changes). */
  changed(): void {
    if (!this.store || this.saveTimer) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = null;
      void this.flush();
    }, SAVE_DELAY_MS);
    this.saveTimer.unref();
  }

  /** Writes the state now (when the connection stops, so nothing waits in a timer). */
  async flush(): Promise<void> {
    if (!this.store) return;
    if (this.saveTimer) {
      clearTimeout(this.saveTimer);
      this.saveTimer = null;
    }
    await this.load();
    const state = this.snapshot();
    this.saving = this.saving.then(() => this.store!.save(this.whatsappId, state)).catch(() => undefined);
    await this.saving;
  }

  private snapshot(): SimulatorDeviceState {
    return {
      history: this.history.map(({ media: _media, timestamp, ...m }) => ({ ...m, timestamp: timestamp.toISOString() })),
      outbox: this.outbox.map((e) => ({ ...e, createdAt: e.createdAt.toISOString() })),
      groups: [...this.groups.values()],
      groupCounter: this.groupCounter,
    };
  }

  /** The device's own number once paired. */
  get number(): string {
    return `5511900${String(this.whatsappId).padStart(6, '0')}`;
  }

  /** Pairs the pending QR code; false when no QR code is waiting. */
  async scan(): Promise<boolean> {
    return (await this.link?.pair()) ?? false;
  }

  get connected(): boolean {
    return this.link?.connected ?? false;
  }

  /**
   * Delivers a contact's message and waits until the desk stored it: 'duplicate' when that network id was
   * stored before. Rejects when the device is not connected or the desk could not store it.
   */
  async deliver(message: InboundMessage): Promise<InboundOutcome> {
    const link = this.link;
    if (!link?.connected) throw new AppError('ERR_WAPP_NOT_INITIALIZED', 'The simulator device is not connected.');
    const outcome = await link.receive(message);
    if (outcome !== 'duplicate') this.remember(message);
    return outcome;
  }

  /** Adds messages to the phone's history and sends them to the desk, as a phone does when it pairs. */
  async seedHistory(messages: InboundMessage[]): Promise<void> {
    const link = this.link;
    if (!link?.connected) throw new AppError('ERR_WAPP_NOT_INITIALIZED', 'The simulator device is not connected.');
    const known = new Set(this.history.map((m) => m.id));
    for (const m of [...messages].sort((a, b) => a.timestamp.getTime() - b.timestamp.getTime())) if (!known.has(m.id)) this.remember(m);
    await link.history(messages);
  }

  /** A contact calls the device; resolves whether the desk rejected the call. */
  async call(call: InboundCall): Promise<boolean> {
    const link = this.link;
    if (!link?.connected) throw new AppError('ERR_WAPP_NOT_INITIALIZED', 'The simulator device is not connected.');
    return link.call(call);
  }

  remember(message: InboundMessage): void {
    this.history.push(message);
    if (this.history.length > HISTORY_LIMIT) this.history.splice(0, this.history.length - HISTORY_LIMIT);
    this.changed();
  }

  /** Keeps a sent file (on disk when a file store is set) and answers the URL the outbox lists. */
  async keepFile(mimetype: string, data: Buffer): Promise<string> {
    if (!this.files) return toDataUrl(mimetype, data);
    const { name, dropped } = await this.files.save(this.whatsappId, data, mimetype);
    if (dropped.length > 0) {
      const gone = dropped.map((old) => `/files/${old}?`);
      for (const entry of this.outbox) {
        if (entry.mediaUrl && gone.some((g) => entry.mediaUrl!.includes(g))) entry.mediaUrl = null;
      }
    }
    return this.files.url(this.whatsappId, name);
  }

  /**
   * A group the phone is in, as its creator (admin): an `@g.us` id, the phone's own number first, then the
   * participants (digits, each once).
   */
  createGroup(subject: string, participants: string[], description?: string): GroupInfo {
    this.groupCounter += 1;
    const id = `120363${Date.now()}${String(this.groupCounter).padStart(3, '0')}@g.us`;
    const members = [...new Set(participants.map((p) => chatIdOf(p)).filter((n) => n && n !== this.number))];
    const group: GroupInfo = {
      id,
      subject,
      ...(description ? { description } : {}),
      announce: false,
      participants: [{ number: this.number, isAdmin: true }, ...members.map((number) => ({ number, isAdmin: false }))],
    };
    this.groups.set(id, group);
    this.changed();
    return group;
  }

  /** A group the phone may change (title, description, who sends): it must be one of its admins, as on WhatsApp. */
  groupToChange(groupId: string): GroupInfo {
    const group = this.groups.get(groupId);
    if (!group) throw new AppError('ERR_VALIDATION', 'Unknown group.');
    if (!this.isAdminOf(group)) throw new Error('not-authorized: the phone is not an admin of this group');
    return group;
  }

  isAdminOf(group: GroupInfo): boolean {
    return group.participants.some((p) => p.number === this.number && p.isAdmin);
  }

  send(entry: OutboxEntry): void {
    this.outbox.push(entry);
    if (this.outbox.length > OUTBOX_LIMIT) this.outbox.splice(0, this.outbox.length - OUTBOX_LIMIT);
    this.changed();
  }

  listOutbox(to?: string): OutboxEntry[] {
    if (!to) return [...this.outbox];
    const chatId = to.includes('@') ? to : chatIdOf(to);
    return this.outbox.filter((e) => e.to === chatId);
  }

  /** Moves a sent message's delivery state; null when no such message was sent. */
  setAck(id: string, ack: Ack): OutboxEntry | null {
    const entry = this.outbox.find((e) => e.id === id);
    if (!entry) return null;
    entry.ack = ack;
    this.changed();
    this.link?.acked(entry);
    return entry;
  }
}
