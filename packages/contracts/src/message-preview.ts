import type { MediaType } from './schemas/tickets.js';

/** m:ss (or h:mm:ss) of a duration in seconds. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** The preview of a ticket whose newest message was deleted (issue 33 item 4). */
export const DELETED_PREVIEW = '[deleted]';

/**
 * The ticket's last message for a media message, stored as a marker that clients render with an icon and
 * their own words: `[audio]`, `[audio 0:12]` (a voice note of 12 s), `[other] report.pdf` (a document),
 * `[image]`, `[image] Olha a foto` (with its caption), `[location] Av. Paulista` (with its description).
 * A contact card keeps its vCard (clients show its name).
 */
export function lastMessageOf(message: { body: string; mediaType: MediaType | null; filename?: string | null; duration?: number | null }): string {
  const { mediaType, body } = message;
  if (!mediaType || mediaType === 'vcard') return body;
  if (mediaType === 'audio') return message.duration ? `[audio ${formatDuration(message.duration)}]` : '[audio]';
  const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
  if (mediaType === 'other' || mediaType === 'document') {
    const name = oneLine(message.filename || body);
    return name ? `[${mediaType}] ${name}` : `[${mediaType}]`;
  }
  // "lat,lng|description": the description only.
  const text = oneLine(mediaType === 'location' ? body.split('|').slice(1).join('|') : body);
  return text ? `[${mediaType}] ${text}` : `[${mediaType}]`;
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
