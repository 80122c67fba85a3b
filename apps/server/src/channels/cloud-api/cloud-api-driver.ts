import { AppError } from '../../http/app-error.js';
import type { CloudApiConfig } from '../../db/schema.js';
import type { ChannelDriver, ChannelDriverFactory, DriverContext, OutboundMedia, ReactionTarget, SendOptions, SentMessage } from '../channel-driver.js';
import { GraphClient, type FetchLike } from './graph-client.js';

export interface CloudApiDriverOptions {
  /** The connection's credentials (null: not configured). */
  loadConfig(whatsappId: number): Promise<CloudApiConfig | null>;
  graphUrl: string;
  fetch?: FetchLike;
  /** "Now" for message timestamps. */
  now?: () => Date;
}

/**
 * The official WhatsApp Cloud API (issue 18). No QR and no socket: it "connects" by a test call to the Graph API
 * (`GET /{phone-number-id}`) and sends by HTTP; what it receives arrives by webhook (cloud-api.routes.ts), which
 * feeds the same inbound pipeline as the other drivers.
 */
export function cloudApiDriverFactory(options: CloudApiDriverOptions): ChannelDriverFactory {
  return (context) => new CloudApiDriver(context, options);
}

function notOffered(what: string): AppError {
  return new AppError('ERR_CLOUD_API_ERROR', `The WhatsApp Cloud API does not offer ${what}.`);
}

export class CloudApiDriver implements ChannelDriver {
  private graph: GraphClient | null = null;

  constructor(
    private readonly context: DriverContext,
    private readonly options: CloudApiDriverOptions,
  ) {}

  /** The client of the stored credentials, read again on every start (a changed token takes effect on "try again"). */
  private async client(): Promise<GraphClient> {
    if (this.graph) return this.graph;
    const config = await this.options.loadConfig(this.context.whatsappId);
    if (!config) throw new AppError('ERR_CLOUD_API_CONFIG');
    this.graph = new GraphClient(this.options.graphUrl, config, this.options.fetch);
    return this.graph;
  }

  async start(): Promise<void> {
    this.graph = null;
    const graph = await this.client();
    // Throws with the Graph API's reason in words: the session manager shows it and tries again with backoff.
    const phone = await graph.phoneNumber();
    const number = phone.display_phone_number?.replace(/\D/g, '') || undefined;
    this.context.listener.status('CONNECTED', { number });
  }

  async stop(): Promise<void> {
    this.graph = null;
  }

  async logout(): Promise<void> {
    this.graph = null;
  }

  private sent(id: string): SentMessage {
    return { id, timestamp: this.options.now?.() ?? new Date() };
  }

  private context_(options?: SendOptions): Record<string, unknown> {
    return options?.quoted ? { context: { message_id: options.quoted.id } } : {};
  }

  async sendText(to: string, text: string, options?: SendOptions): Promise<SentMessage> {
    const graph = await this.client();
    const id = await graph.sendMessage({ to, type: 'text', text: { body: text, preview_url: /https?:\/\//.test(text) }, ...this.context_(options) });
    return this.sent(id);
  }

  async sendMedia(to: string, media: OutboundMedia, options?: SendOptions): Promise<SentMessage> {
    const graph = await this.client();
    const filename = media.filename ?? `${media.kind}`;
    const mediaId = await graph.uploadMedia(media.data, media.mimetype, filename);
    const object: Record<string, unknown> = { id: mediaId };
    if (media.caption && media.kind !== 'audio') object.caption = media.caption;
    if (media.kind === 'document') object.filename = filename;
    const id = await graph.sendMessage({ to, type: media.kind, [media.kind]: object, ...this.context_(options) });
    return this.sent(id);
  }

  /** Sends a file the Graph API fetches itself, by link. */
  async sendMediaLink(to: string, kind: OutboundMedia['kind'], link: string, caption?: string, filename?: string): Promise<SentMessage> {
    const graph = await this.client();
    const object: Record<string, unknown> = { link };
    if (caption && kind !== 'audio') object.caption = caption;
    if (filename && kind === 'document') object.filename = filename;
    return this.sent(await graph.sendMessage({ to, type: kind, [kind]: object }));
  }

  /** Reacts to a message with an emoji (an empty emoji removes the reaction). */
  async sendReaction(to: string, target: ReactionTarget, emoji: string): Promise<SentMessage> {
    const graph = await this.client();
    return this.sent(await graph.sendMessage({ to, type: 'reaction', reaction: { message_id: target.id, emoji } }));
  }

  /** Sends an approved template with its body's variables, in order. */
  async sendTemplate(to: string, name: string, language: string, variables: string[]): Promise<SentMessage> {
    const graph = await this.client();
    const components = variables.length > 0 ? [{ type: 'body', parameters: variables.map((text) => ({ type: 'text', text })) }] : [];
    return this.sent(await graph.sendMessage({ to, type: 'template', template: { name, language: { code: language }, components } }));
  }

  async templates() {
    return (await this.client()).templates();
  }

  async deleteMessage(): Promise<void> {
    throw new AppError('ERR_CLOUD_API_CANNOT_DELETE');
  }

  /** The Cloud API has no lookup of numbers: every number is taken as it is (a send to a number off WhatsApp fails by status). */
  async checkNumber(number: string): Promise<{ exists: boolean; number?: string }> {
    const digits = number.replace(/\D/g, '');
    return { exists: digits.length > 0, number: digits };
  }

  async profilePictureUrl(): Promise<string | null> {
    return null;
  }

  createGroup(): Promise<never> {
    return Promise.reject(notOffered('groups'));
  }

  listGroups(): Promise<never> {
    return Promise.reject(notOffered('groups'));
  }

  updateGroupSubject(): Promise<never> {
    return Promise.reject(notOffered('groups'));
  }

  updateGroupDescription(): Promise<never> {
    return Promise.reject(notOffered('groups'));
  }

  setGroupAnnounce(): Promise<never> {
    return Promise.reject(notOffered('groups'));
  }

  async fetchHistory(): Promise<[]> {
    return [];
  }
}
