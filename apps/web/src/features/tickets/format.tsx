import { formatDuration, parseMediaPreview, type MessageDto, type SearchExcerpt } from '@wadesk/contracts';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';

const pad = (n: number) => String(n).padStart(2, '0');

/** HH:mm */
export function formatTime(iso: string): string {
  const d = new Date(iso);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** dd/MM/yyyy */
export function formatDate(iso: string): string {
  const d = new Date(iso);
  return `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()}`;
}

/** §2 ticket row: HH:mm when today, else dd/MM/yyyy. */
export function formatRowTime(iso: string, now = new Date()): string {
  const d = new Date(iso);
  const today = d.getFullYear() === now.getFullYear() && d.getMonth() === now.getMonth() && d.getDate() === now.getDate();
  return today ? formatTime(iso) : formatDate(iso);
}

const MEDIA_ICONS: Record<string, string> = {
  image: '📷',
  audio: '🎤',
  video: '🎥',
  sticker: '🖼️',
  document: '📎',
  other: '📎',
  location: '📍',
  vcard: '👤',
};

/** The last message as a row shows it: vcard and inline image data hidden. */
export function previewText(text: string): string {
  if (!text) return '';
  if (/BEGIN:VCARD/i.test(text)) {
    const name = /^FN[^:]*:(.+)$/im.exec(text)?.[1]?.trim();
    return name ? `👤 ${name}` : '👤';
  }
  if (/data:image\/[a-z+]+;base64,/i.test(text)) return '📷';
  const media = /^\[(\w+)\]$/.exec(text.trim())?.[1];
  if (media && media in MEDIA_ICONS) return MEDIA_ICONS[media];
  return text;
}

const MARK = /(\*[^*\n]+\*|~[^~\n]+~|_[^_\n]+_)/g;

/** The messaging app's basic markdown: *bold*, ~strikethrough~, _italic_. */
export function renderMarkdown(text: string): ReactNode[] {
  const out: ReactNode[] = [];
  let last = 0;
  let i = 0;
  for (const match of text.matchAll(MARK)) {
    const start = match.index;
    if (start > last) out.push(text.slice(last, start));
    const token = match[0];
    const inner = token.slice(1, -1);
    if (token.startsWith('*')) out.push(<strong key={i}>{inner}</strong>);
    else if (token.startsWith('~')) out.push(<s key={i}>{inner}</s>);
    else out.push(<em key={i}>{inner}</em>);
    i += 1;
    last = start + token.length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

/** A voice note or a document as previews show them: "🎤 Voice message (0:12)", "📎 report.pdf"; null for other kinds. */
export function mediaPreviewLabel(t: TFunction, mediaType: string | null | undefined, detail: { duration?: string; name?: string }): string | null {
  if (mediaType === 'audio') return `🎤 ${t('chat.preview.voice')}${detail.duration ? ` (${detail.duration})` : ''}`;
  if (mediaType === 'other' || mediaType === 'document') return `📎 ${detail.name?.trim() || t('chat.preview.file')}`;
  return null;
}

/** A ticket's last message: voice notes and documents in words (no markdown in a file name), other text as previewText. */
export function renderLastMessage(text: string, t: TFunction): ReactNode {
  const media = parseMediaPreview(text);
  const label = media ? mediaPreviewLabel(t, media.mediaType, media) : null;
  return label ?? renderMarkdown(previewText(text));
}

/** A quoted message: a voice note or document in words, else its text. */
export function renderQuotedBody(quoted: NonNullable<MessageDto['quotedMsg']>, t: TFunction): ReactNode {
  const duration = quoted.mediaDuration ? formatDuration(quoted.mediaDuration) : undefined;
  return mediaPreviewLabel(t, quoted.mediaType, { duration, name: quoted.body }) ?? renderMarkdown(quoted.body);
}

/** A search excerpt with its match in bold: text nodes and one <strong>, never HTML. */
export function renderSearchMatch(match: SearchExcerpt): ReactNode[] {
  return [match.text.slice(0, match.start), <strong key="match">{match.text.slice(match.start, match.end)}</strong>, match.text.slice(match.end)];
}
