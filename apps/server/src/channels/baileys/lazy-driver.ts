import { AppError } from '../../http/app-error.js';
import type { ChannelDriver, ChannelDriverFactory, DriverContext, HistoryAnchor, OutboundMedia, ReactionTarget, SendOptions } from '../channel-driver.js';

/**
 * The Baileys driver, loaded when a Baileys connection first needs it: Baileys and its protocol buffers hold
 * about 60 MB of resident memory, which a desk on the simulator (or, later, the Cloud API) never needs.
 */
export const createLazyBaileysDriver: ChannelDriverFactory = (context) => new LazyBaileysDriver(context);

class LazyBaileysDriver implements ChannelDriver {
  private loaded?: Promise<ChannelDriver>;

  constructor(private readonly context: DriverContext) {}

  private driver(): Promise<ChannelDriver> {
    this.loaded ??= import('./index.js').then((baileys) => baileys.createBaileysDriver(this.context));
    return this.loaded;
  }

  async start() {
    return (await this.driver()).start();
  }

  /** Never started: nothing runs, nothing to stop. */
  async stop() {
    if (this.loaded) await (await this.loaded).stop();
  }

  async logout() {
    return (await this.driver()).logout();
  }

  async sendText(to: string, text: string, options?: SendOptions) {
    return (await this.driver()).sendText(to, text, options);
  }

  async sendMedia(to: string, media: OutboundMedia, options?: SendOptions) {
    return (await this.driver()).sendMedia(to, media, options);
  }

  async sendReaction(chatId: string, target: ReactionTarget, emoji: string) {
    const driver = await this.driver();
    if (!driver.sendReaction) throw new AppError('ERR_REACTION_NOT_OFFERED');
    return driver.sendReaction(chatId, target, emoji);
  }

  async deleteMessage(chatId: string, messageId: string, fromMe: boolean) {
    return (await this.driver()).deleteMessage(chatId, messageId, fromMe);
  }

  async checkNumber(number: string) {
    return (await this.driver()).checkNumber(number);
  }

  async profilePictureUrl(chatId: string) {
    return (await this.driver()).profilePictureUrl(chatId);
  }

  async createGroup(subject: string, participants: string[]) {
    return (await this.driver()).createGroup(subject, participants);
  }

  async listGroups() {
    return (await this.driver()).listGroups();
  }

  async updateGroupSubject(groupId: string, subject: string) {
    return (await this.driver()).updateGroupSubject(groupId, subject);
  }

  async updateGroupDescription(groupId: string, description: string) {
    return (await this.driver()).updateGroupDescription(groupId, description);
  }

  async setGroupAnnounce(groupId: string, announce: boolean) {
    return (await this.driver()).setGroupAnnounce(groupId, announce);
  }

  async downloadHistoryMedia(ref: string) {
    const driver = await this.driver();
    if (!driver.downloadHistoryMedia) throw new Error('history media is not offered');
    return driver.downloadHistoryMedia(ref);
  }

  async requestOlderHistory(oldest: HistoryAnchor, count: number) {
    const driver = await this.driver();
    if (!driver.requestOlderHistory) throw new Error('older history is not offered');
    return driver.requestOlderHistory(oldest, count);
  }

  async fetchHistory(limit: number) {
    return (await this.driver()).fetchHistory(limit);
  }
}
