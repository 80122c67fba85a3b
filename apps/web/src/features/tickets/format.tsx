import { formatDuration, parseMediaPreview, type MessageDto, type SearchExcerpt } from '@wadesk/contracts';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { formatWhatsApp, type FormatNode } from '../chat/whatsapp-format';

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
  const media = /^\[(\w+)\](?: (.+))?$/s.exec(text.trim());
  if (media?.[1] === 'deleted') return '🚫';
  if (media && media[1]! in MEDIA_ICONS) return media[2] ? `${MEDIA_ICONS[media[1]!]} ${media[2]}` : MEDIA_ICONS[media[1]!]!;
  return text;
}

function renderNodes(nodes: FormatNode[], links: boolean, key = ''): ReactNode[] {
  return nodes.map((n, i) => {
    const k = `${key}${i}`;
    switch (n.kind) {
      case 'text':
        return n.text;
      case 'link':
        return links ? (
          <a key={k} href={n.href} target="_blank" rel="noopener noreferrer" data-testid="message-link">
            {n.text}
          </a>
        ) : (
          n.text
        );
      case 'mono':
        return <code key={k}>{n.text}</code>;
      case 'bold':
        return <strong key={k}>{renderNodes(n.children, links, `${k}.`)}</strong>;
      case 'italic':
        return <em key={k}>{renderNodes(n.children, links, `${k}.`)}</em>;
      case 'strike':
        return <s key={k}>{renderNodes(n.children, links, `${k}.`)}</s>;
    }
  });
}

/**
 * WhatsApp's own formatting (*bold*, _italic_, ~strike~, ```mono```, at word boundaries: see formatWhatsApp);
 * with `links`, addresses in the text are links that open in a new tab (a chat bubble; not a preview in a clickable row).
 */
export function renderMarkdown(text: string, { links = false }: { links?: boolean } = {}): ReactNode[] {
  return renderNodes(formatWhatsApp(text), links);
}

/**
 * Media as previews show them: "🎤 Voice message (0:12)", "📎 report.pdf", "📷 Olha a foto" (its caption) or "📷 Photo",
 * "📍 Location"; "🚫 This message was deleted"; null for other kinds.
 */
export function mediaPreviewLabel(t: TFunction, mediaType: string | null | undefined, detail: { duration?: string; name?: string }): string | null {
  if (mediaType === 'audio') return `🎤 ${t('chat.preview.voice')}${detail.duration ? ` (${detail.duration})` : ''}`;
  if (mediaType === 'other' || mediaType === 'document') return `📎 ${detail.name?.trim() || t('chat.preview.file')}`;
  if (mediaType === 'deleted') return `🚫 ${t('chat.message.deleted')}`;
  if (mediaType === 'image' || mediaType === 'video' || mediaType === 'sticker' || mediaType === 'location') {
    return `${MEDIA_ICONS[mediaType]} ${detail.name?.trim() || t(`chat.preview.${mediaType}`)}`;
  }
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
