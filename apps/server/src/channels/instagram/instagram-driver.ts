import type { ChannelDriver, ChannelDriverFactory, DriverContext, DriverListener, InboundMessage, SentMessage } from '../channel-driver.js';

/** What the driver needs to send: Meta's Graph API send (modules/outreach/providers.ts). */
export interface InstagramSender {
  sendDirect(recipientId: string, text: string): Promise<{ id: string }>;
}

const NOT_SUPPORTED = 'Instagram direct connections send and receive text only.';

/**
 * The running Instagram connections of this process, for the webhook to hand them what Meta sends
 * (decision 0018: an `instagram` connection has no session; it receives by the webhook, sends by the Graph API).
 */
export class InstagramHub {
  private readonly listeners = new Map<number, DriverListener>();

  attach(whatsappId: number, listener: DriverListener): void {
    this.listeners.set(whatsappId, listener);
  }

  detach(whatsappId: number): void {
    this.listeners.delete(whatsappId);
  }

  /** The running connection that receives (the oldest), or null when none runs here. */
  receiver(): { whatsappId: number; listener: DriverListener } | null {
    const ids = [...this.listeners.keys()].sort((a, b) => a - b);
    const id = ids[0];
    return id === undefined ? null : { whatsappId: id, listener: this.listeners.get(id)! };
  }

  async deliver(message: InboundMessage): Promise<boolean> {
    const receiver = this.receiver();
    if (!receiver) return false;
    await receiver.listener.message(message);
    return true;
  }
}

class InstagramDriver implements ChannelDriver {
  constructor(
    private readonly context: DriverContext,
    private readonly hub: InstagramHub,
    private readonly sender: InstagramSender,
  ) {}

  async start(): Promise<void> {
    this.hub.attach(this.context.whatsappId, this.context.listener);
    this.context.listener.status('CONNECTED');
  }

  async stop(): Promise<void> {
    this.hub.detach(this.context.whatsappId);
  }

  async logout(): Promise<void> {
    this.hub.detach(this.context.whatsappId);
  }

  async sendText(to: string, text: string): Promise<SentMessage> {
    const sent = await this.sender.sendDirect(to, text);
    return { id: sent.id, timestamp: new Date() };
  }

  async sendMedia(): Promise<SentMessage> {
    throw new Error(NOT_SUPPORTED);
  }

  async deleteMessage(): Promise<void> {
    throw new Error(NOT_SUPPORTED);
  }

  async checkNumber(number: string): Promise<{ exists: boolean; number?: string }> {
    return /^\d{5,30}$/.test(number) ? { exists: true, number } : { exists: false };
  }

  async profilePictureUrl(): Promise<string | null> {
    return null;
  }

  async createGroup(): Promise<never> {
    throw new Error(NOT_SUPPORTED);
  }

  async listGroups() {
    return [];
  }

  async updateGroupSubject(): Promise<void> {
    throw new Error(NOT_SUPPORTED);
  }

  async updateGroupDescription(): Promise<void> {
    throw new Error(NOT_SUPPORTED);
  }

  async setGroupAnnounce(): Promise<void> {
    throw new Error(NOT_SUPPORTED);
  }

  async fetchHistory(): Promise<InboundMessage[]> {
    return [];
  }
}

export function instagramDriverFactory(hub: InstagramHub, sender: InstagramSender): ChannelDriverFactory {
  return (context) => new InstagramDriver(context, hub, sender);
}
