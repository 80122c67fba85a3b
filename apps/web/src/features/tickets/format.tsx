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
