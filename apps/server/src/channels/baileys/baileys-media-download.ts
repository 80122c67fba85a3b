import { downloadMediaMessage, extractMessageContent, getContentType, type WAMessage } from '@whiskeysockets/baileys';
import type { ILogger } from './baileys-logger.js';

/** The part of the socket a download needs: asking WhatsApp to upload an expired file again. */
interface ReuploadingSocket {
  updateMediaMessage(message: WAMessage): Promise<WAMessage>;
}

/** Baileys' own default host, used when a message names none. */
const DEFAULT_MEDIA_HOST = 'mmg.whatsapp.net';

/** An https URL on WhatsApp's media servers (*.whatsapp.net), without credentials or a port. */
export function isWhatsappMediaUrl(raw: string): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  return url.protocol === 'https:' && !url.username && !url.password && !url.port && url.hostname.endsWith('.whatsapp.net');
}

function hostOf(raw: string | null | undefined): string | undefined {
  if (!raw) return undefined;
  try {
    return new URL(raw).host;
  } catch {
    return undefined;
  }
}

/**
 * The URL Baileys (7.0.0-rc14, downloadMediaMessage → downloadContentFromMessage) will fetch for a media message:
 * `https://<host of the message's url><directPath>`, or the message's `url` itself when it has no directPath.
 * Both come from whoever sent the message. Undefined when the message carries no media (Baileys refuses it).
 */
export function mediaDownloadUrl(message: WAMessage): string | undefined {
  const content = extractMessageContent(message.message);
  const type = content ? getContentType(content) : undefined;
  const media = type ? (content as Record<string, unknown>)[type] : undefined;
  if (!media || typeof media !== 'object') return undefined;
  const fields = media as { url?: string | null; directPath?: string | null; thumbnailDirectPath?: string | null };
  const directPath = 'thumbnailDirectPath' in fields && !('url' in fields) ? fields.thumbnailDirectPath : fields.directPath;
  if (directPath) return `https://${hostOf(fields.url) ?? DEFAULT_MEDIA_HOST}${directPath}`;
  return fields.url ?? undefined;
}

/**
 * Downloads an inbound media message's bytes with Baileys, only from WhatsApp's media servers: a crafted message
 * whose `url` or `directPath` points elsewhere (`https://169.254.169.254/…`, `@10.0.0.5/…`, `.evil.test/…`) would
 * otherwise make the server fetch any address a stranger names.
 */
export function downloadWhatsappMedia(message: WAMessage, socket: ReuploadingSocket, logger: ILogger): Promise<Buffer> {
  const target = mediaDownloadUrl(message);
  if (target !== undefined && !isWhatsappMediaUrl(target)) {
    return Promise.reject(new Error("media refused: its URL is not on WhatsApp's media servers"));
  }
  return downloadMediaMessage(message, 'buffer', {}, { logger, reuploadRequest: (m) => socket.updateMediaMessage(m) });
}
