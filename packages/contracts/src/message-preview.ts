import type { MediaType } from './schemas/tickets.js';

/** m:ss (or h:mm:ss) of a duration in seconds. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/**
 * The ticket's last message for a media message, stored as a marker that clients render with an icon and
 * their own words: `[audio]`, `[audio 0:12]` (a voice note of 12 s), `[other] report.pdf` (a document),
 * `[image]`. Media with a caption (images, videos) show their caption instead.
 */
export function lastMessageOf(message: { body: string; mediaType: MediaType | null; filename?: string | null; duration?: number | null }): string {
  const { mediaType, body } = message;
  if (!mediaType) return body;
  if (mediaType === 'audio') return message.duration ? `[audio ${formatDuration(message.duration)}]` : '[audio]';
  if (mediaType === 'other' || mediaType === 'document') {
    const name = (message.filename || body).replace(/\s+/g, ' ').trim();
    return name ? `[${mediaType}] ${name}` : `[${mediaType}]`;
  }
  return body || `[${mediaType}]`;
}

export interface MediaPreview {
  mediaType: string;
  /** m:ss of a voice note, when known. */
  duration?: string;
  /** A document's name. */
  name?: string;
}

/** Reads a marker written by lastMessageOf; null for ordinary text. */
export function parseMediaPreview(text: string): MediaPreview | null {
  const match = /^\[([a-z]+)(?: (\d+(?::\d{2}){1,2}))?\](?: (.+))?$/s.exec(text.trim());
  if (!match) return null;
  const preview: MediaPreview = { mediaType: match[1]! };
  if (match[2]) preview.duration = match[2];
  if (match[3]) preview.name = match[3];
  return preview;
}
