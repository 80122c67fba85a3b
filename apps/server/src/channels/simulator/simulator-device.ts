import type { Ack, GroupInfo, InboundMessage } from '../channel-driver.js';

/** What the simulated device sent. */
export interface OutboxEntry {
  id: string;
  to: string;
  body: string;
  mediaType: string | null;
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
  receive(message: InboundMessage): void;
  acked(entry: OutboxEntry): void;
}

const HISTORY_LIMIT = 2000;
const SEEN_LIMIT = 10000;

/** One simulated phone: its outbox, chats, groups and the driver currently attached to it (in memory). */
export class SimulatorDevice {
  readonly outbox: OutboxEntry[] = [];
  readonly history: InboundMessage[] = [];
  readonly groups = new Map<string, GroupInfo>();
  private readonly seenInbound = new Set<string>();
  link: SimulatorLink | null = null;

  constructor(readonly whatsappId: number) {}

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

  /** Delivers a contact's message; false when the same network id was delivered before. */
  deliver(message: InboundMessage): boolean {
    if (!this.link?.connected) return false;
    if (this.seenInbound.has(message.id)) return false;
    this.seenInbound.add(message.id);
    if (this.seenInbound.size > SEEN_LIMIT) this.seenInbound.delete(this.seenInbound.values().next().value!);
    this.remember(message);
    this.link.receive(message);
    return true;
  }

  hasSeen(id: string): boolean {
    return this.seenInbound.has(id);
  }

  remember(message: InboundMessage): void {
    this.history.push(message);
    if (this.history.length > HISTORY_LIMIT) this.history.splice(0, this.history.length - HISTORY_LIMIT);
  }

  send(entry: OutboxEntry): void {
    this.outbox.push(entry);
  }

  listOutbox(to?: string): OutboxEntry[] {
    if (!to) return [...this.outbox];
    const digits = to.includes('@') ? to : to.replace(/\D/g, '');
    return this.outbox.filter((e) => e.to === digits);
  }

  /** Moves a sent message's delivery state; null when no such message was sent. */
  setAck(id: string, ack: Ack): OutboxEntry | null {
    const entry = this.outbox.find((e) => e.id === id);
    if (!entry) return null;
    entry.ack = ack;
    this.link?.acked(entry);
    return entry;
  }
}
