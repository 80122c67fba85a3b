import { AppError } from '../../http/app-error.js';
import type { InboundMedia } from '../channel-driver.js';

/** Reads a path on the app's own origin (the simulator fetches nothing from the network). */
export type LocalFetch = (path: string) => Promise<{ status: number; contentType: string | undefined; body: Buffer }>;

const DEFAULT_MIME: Record<string, string> = {
  image: 'image/jpeg',
  audio: 'audio/ogg',
  video: 'video/mp4',
  document: 'application/octet-stream',
  sticker: 'image/webp',
};

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'audio/ogg': 'ogg',
  'audio/mpeg': 'mp3',
  'video/mp4': 'mp4',
  'application/pdf': 'pdf',
};

/** Decodes a `data:` URL; null when it is not one. */
export function parseDataUrl(url: string): { mimetype: string; data: Buffer } | null {
  const match = /^data:([^;,]*)((?:;[^;,]*)*),(.*)$/s.exec(url);
  if (!match) return null;
  const mimetype = match[1] || 'text/plain';
  const isBase64 = (match[2] ?? '').split(';').includes('base64');
  const payload = match[3] ?? '';
  const data = isBase64 ? Buffer.from(payload, 'base64') : Buffer.from(decodeURIComponent(payload), 'utf8');
  return { mimetype, data };
}

/** A signed media file of this app, exactly as MediaStorage.url writes it. */
const SIGNED_MEDIA_PATH = /^\/api\/media\/[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}\?sig=[A-Za-z0-9_-]{1,100}$/;
/**
 * A static file of the web app: plain segments (letters, digits, `._~-`, none starting with a dot, so no
 * `.`/`..` and no dotfiles), no query, no `%` escapes, nothing under /api or /socket.io, no empty segment.
 */
const STATIC_FILE_PATH = /^\/(?!api|socket\.io)[A-Za-z0-9_~-][A-Za-z0-9._~-]*(?:\/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)*$/i;

/**
 * Checks a path the simulator may read on the app's own origin: a signed media file (`/api/media/<name>?sig=`)
 * or a static file of the web app, nothing else of the API (`/api/users`, `//api/users`, `/%61pi/users`...).
 */
export function assertLocalMediaPath(url: string): void {
  if (url.length <= 512 && (SIGNED_MEDIA_PATH.test(url) || STATIC_FILE_PATH.test(url))) return;
  const message = 'must be a data: URL, a signed /api/media/ URL or a file of the web app';
  throw new AppError('ERR_VALIDATION', `mediaUrl: ${message}`, { issues: [{ path: 'mediaUrl', message }] });
}

export function toDataUrl(mimetype: string, data: Buffer): string {
  return `data:${mimetype};base64,${data.toString('base64')}`;
}

/** The media of an inbound simulator message, from a data: URL or a path of this app. */
export function simulatorMedia(kind: string, mediaUrl: string, fetchLocal: LocalFetch | undefined): InboundMedia {
  const inline = parseDataUrl(mediaUrl);
  if (mediaUrl.startsWith('data:') && !inline) throw new AppError('ERR_VALIDATION', 'mediaUrl: not a valid data: URL');
  if (!inline) assertLocalMediaPath(mediaUrl);
  const pathName = inline ? undefined : mediaUrl.split(/[?#]/)[0]!.split('/').pop() || undefined;
  const byExtension = Object.entries(EXTENSIONS).find(([, ext]) => pathName?.toLowerCase().endsWith(`.${ext}`))?.[0];
  const mimetype = inline?.mimetype ?? byExtension ?? DEFAULT_MIME[kind] ?? 'application/octet-stream';
  const extension = EXTENSIONS[mimetype] ?? 'bin';
  return {
    mimetype,
    filename: pathName ?? `${kind}.${extension}`,
    ptt: kind === 'audio' ? true : undefined,
    async download() {
      if (inline) return inline.data;
      if (!fetchLocal) throw new AppError('ERR_WAPP_DOWNLOAD_MEDIA');
      const res = await fetchLocal(mediaUrl);
      if (res.status !== 200) throw new AppError('ERR_WAPP_DOWNLOAD_MEDIA', `GET ${mediaUrl} answered ${res.status}`);
      return res.body;
    },
  };
}
