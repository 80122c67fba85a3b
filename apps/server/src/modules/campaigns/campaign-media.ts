import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { OutboundMedia } from '../../channels/channel-driver.js';
import { AppError } from '../../http/app-error.js';
import { MIME_BY_EXTENSION, mediaTypeOf, type MediaStorage } from '../../storage/media-storage.js';
import { checkMediaUrl, fetchRemoteMedia, RemoteMediaError } from '../../storage/remote-media.js';
import type { BulkMediaFolder } from './bulk-media-folder.js';
import type { CampaignRecord } from './campaigns.repository.js';

/** Largest file a bulk send carries, by URL or by path. */
export const BULK_MEDIA_MAX_BYTES = 16 * 1024 * 1024;
/** A bulk send's file by URL must arrive within this. */
export const BULK_MEDIA_TIMEOUT_MS = 30_000;

export interface CampaignMediaOptions {
  /** MEDIA_FETCH_PRIVATE=allow: URLs may reach loopback and private addresses (tests, development). */
  allowPrivate: boolean;
  maxBytes?: number;
  timeoutMs?: number;
}

/** Why a campaign's file cannot be had: the campaign pauses with this message, nothing is sent. */
export class CampaignMediaError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CampaignMediaError';
  }
}

/**
 * The file a campaign sends to every recipient, read or fetched once and kept while the campaign runs in this
 * process (one campaign's file at a time, at most BULK_MEDIA_MAX_BYTES).
 */
export class CampaignMedia {
  private cached: { campaignId: number; media: OutboundMedia; url?: string } | null = null;

  constructor(
    private readonly storage: MediaStorage,
    private readonly options: CampaignMediaOptions,
    private readonly bulkMedia: BulkMediaFolder,
  ) {}

  /** The file of a media campaign; null for a text campaign. Throws CampaignMediaError when it cannot be had. */
  async of(campaign: CampaignRecord): Promise<OutboundMedia | null> {
    if (campaign.kind === 'text') return null;
    if (this.cached?.campaignId === campaign.id) return this.cached.media;
    const media = campaign.kind === 'mediaPath' ? await this.fromPath(campaign) : await this.fromUrl(campaign);
    this.cached = { campaignId: campaign.id, media };
    return media;
  }

  /**
   * The campaign's file in media storage, saved once a campaign (in this process): what its messages show in the
   * conversations they were recorded in.
   */
  async storedUrl(campaignId: number, media: OutboundMedia): Promise<string> {
    if (this.cached?.campaignId === campaignId && this.cached.url) return this.cached.url;
    const url = this.storage.url(await this.storage.save(media.data, media.mimetype, media.filename));
    if (this.cached?.campaignId === campaignId) this.cached.url = url;
    return url;
  }

  forget(campaignId: number): void {
    if (this.cached?.campaignId === campaignId) this.cached = null;
  }

  private async fromPath(campaign: CampaignRecord): Promise<OutboundMedia> {
    const maxBytes = this.options.maxBytes ?? BULK_MEDIA_MAX_BYTES;
    let real: string;
    try {
      ({ real } = await this.bulkMedia.checkFile(campaign.path ?? '', maxBytes));
    } catch (err) {
      if (err instanceof AppError) throw new CampaignMediaError(err.message.replace(/^path: /, ''));
      throw err;
    }
    const filename = path.basename(real);
    const mimetype = MIME_BY_EXTENSION[path.extname(filename).slice(1).toLowerCase()] ?? 'application/octet-stream';
    const data = await readFile(real);
    const kind = mediaTypeOf(mimetype);
    // Audio carries no caption on WhatsApp (issue 33 item 6).
    return { kind, data, mimetype, filename, caption: kind === 'audio' ? undefined : (campaign.title ?? undefined) };
  }

  /**
   * Refuses, before a campaign is created, a URL its send would refuse (issue 33 item 14): 400 on the field
   * `url`, with what the web says of it (a private address is refused unless MEDIA_FETCH_PRIVATE=allow).
   */
  async checkUrl(raw: string): Promise<void> {
    try {
      await checkMediaUrl(raw, this.options.allowPrivate);
    } catch (err) {
      if (!(err instanceof RemoteMediaError)) throw err;
      const message = err.message.replace(/^mediaUrl: /, '');
      const code = err.reason === 'refused' ? 'mediaUrlPrivate' : err.reason === 'invalid-url' ? 'mediaUrlInvalid' : 'mediaUrlHost';
      throw new AppError('ERR_VALIDATION', `url: ${message}`, { issues: [{ path: 'url', message, code }] });
    }
  }

  private async fromUrl(campaign: CampaignRecord): Promise<OutboundMedia> {
    const spool = await this.storage.uploadSpool();
    try {
      const file = await fetchRemoteMedia(campaign.url ?? '', spool, {
        allowPrivate: this.options.allowPrivate,
        maxBytes: this.options.maxBytes ?? BULK_MEDIA_MAX_BYTES,
        timeoutMs: this.options.timeoutMs ?? BULK_MEDIA_TIMEOUT_MS,
      });
      const data = await readFile(file.path);
      if (campaign.kind === 'audio') {
        // §2: recorded audio, .ogg only, goes out as a voice note.
        return { kind: 'audio', data, mimetype: 'audio/ogg; codecs=opus', filename: file.filename, ptt: true };
      }
      return { kind: mediaTypeOf(file.mimetype), data, mimetype: file.mimetype, filename: file.filename, caption: campaign.title ?? undefined };
    } catch (err) {
      if (err instanceof RemoteMediaError) throw new CampaignMediaError(err.message.replace(/^mediaUrl: /, `url: `));
      throw err;
    } finally {
      await spool.discard();
    }
  }
}
