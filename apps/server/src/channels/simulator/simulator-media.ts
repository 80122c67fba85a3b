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

export function toDataUrl(mimetype: string, data: Buffer): string {
  return `data:${mimetype};base64,${data.toString('base64')}`;
}

/** The media of an inbound simulator message, from a data: URL or a path of this app. */
export function simulatorMedia(kind: string, mediaUrl: string, fetchLocal: LocalFetch | undefined): InboundMedia {
  const inline = parseDataUrl(mediaUrl);
  if (mediaUrl.startsWith('data:') && !inline) throw new AppError('ERR_VALIDATION', 'mediaUrl: not a valid data: URL');
  if (!inline && (!mediaUrl.startsWith('/') || mediaUrl.startsWith('//'))) {
    throw new AppError('ERR_VALIDATION', 'mediaUrl: must be a data: URL or a path of this app');
  }
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
