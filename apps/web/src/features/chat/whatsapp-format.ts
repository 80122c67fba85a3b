import { find } from 'linkifyjs';

/**
 * A message text as WhatsApp shows it (issue 33 item 2): links found by linkifyjs, and WhatsApp's own marks
 * `*bold*`, `_italic_`, `~strike~` and ```` ```mono``` ````, which count only at word boundaries: the opening mark
 * follows the start, a space or punctuation and comes before a non-space; the closing mark follows a non-space and
 * comes before the end, a space or punctuation. So `2*3*4` stays as typed, and marks inside a link (the underscores of
 * `https://x.com/my_file_name.pdf`) are the link's.
 */
export type FormatNode =
  | { kind: 'text'; text: string }
  | { kind: 'link'; text: string; href: string }
  | { kind: 'bold' | 'italic' | 'strike'; children: FormatNode[] }
  | { kind: 'mono'; text: string };

const INLINE: Record<string, 'bold' | 'italic' | 'strike'> = { '*': 'bold', _: 'italic', '~': 'strike' };
const FENCE = '```';

interface Link {
  start: number;
  end: number;
  href: string;
}

const isSpace = (ch: string | undefined) => ch !== undefined && /\s/u.test(ch);
/** A letter, digit or mark: what makes a word (a mark next to one is not a boundary). */
const isWordChar = (ch: string | undefined) => ch !== undefined && /[\p{L}\p{N}\p{M}]/u.test(ch);

/** Parses a message text into nodes; links keep their text and get an http(s) or mailto address. */
export function formatWhatsApp(text: string): FormatNode[] {
  const links: Link[] = find(text)
    .filter((l) => l.type === 'url' || l.type === 'email')
    .map((l) => {
      // A mark right after a link closes a formatting (`*https://x.com*`), linkifyjs takes it as the link's.
      let end = l.end;
      while (end > l.start + 1 && text[end - 1]! in INLINE) end -= 1;
      const cut = end - l.start;
      return { start: l.start, end, href: l.href.slice(0, l.href.length - (l.value.length - cut)) };
    });
  const linked = new Uint8Array(text.length);
  for (const l of links) linked.fill(1, l.start, l.end);
  const opens = (i: number, len: number) => !isWordChar(text[i - 1]) && text[i + len] !== undefined && !isSpace(text[i + len]);
  const closes = (i: number, len: number) => !isSpace(text[i - 1]) && !isWordChar(text[i + len]);

  // Where each mark may close, in order (a closing is looked up by binary search: long texts stay linear).
  const closers: Record<string, number[]> = { '*': [], _: [], '~': [], [FENCE]: [] };
  const lineEnd = new Int32Array(text.length + 1).fill(text.length);
  for (let i = text.length - 1; i >= 0; i -= 1) lineEnd[i] = text[i] === '\n' ? i : lineEnd[i + 1]!;
  for (let i = 0; i < text.length; i += 1) {
    if (linked[i]) continue;
    if (text.startsWith(FENCE, i) && closes(i, 3)) closers[FENCE]!.push(i);
    if (text[i]! in INLINE && closes(i, 1)) closers[text[i]!]!.push(i);
  }
  /** The first closing of `mark` in [from, to), before the line ends unless `multiline`; -1 if none. */
  const findClose = (mark: string, from: number, to: number, multiline: boolean): number => {
    const list = closers[mark]!;
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid]! < from) lo = mid + 1;
      else hi = mid;
    }
    const at = list[lo];
    if (at === undefined || at + mark.length > to) return -1;
    if (!multiline && lineEnd[from]! < at) return -1;
    return at;
  };

  /** Plain text of [from, to), cut where links begin and end. */
  const plain = (from: number, to: number): FormatNode[] => {
    const out: FormatNode[] = [];
    let at = from;
    for (const link of links) {
      if (link.end <= at || link.start >= to) continue;
      const start = Math.max(link.start, at);
      const end = Math.min(link.end, to);
      if (start > at) out.push({ kind: 'text', text: text.slice(at, start) });
      out.push({ kind: 'link', text: text.slice(start, end), href: link.href });
      at = end;
    }
    if (at < to) out.push({ kind: 'text', text: text.slice(at, to) });
    return out;
  };

  const parse = (from: number, to: number): FormatNode[] => {
    const out: FormatNode[] = [];
    let textStart = from;
    let i = from;
    while (i < to) {
      const ch = text[i]!;
      if (!linked[i]) {
        // ```mono```: may span lines; its inside is shown as typed.
        if (text.startsWith(FENCE, i) && opens(i, 3)) {
          const close = findClose(FENCE, i + 3, to, true);
          if (close > i + 3) {
            out.push(...plain(textStart, i), { kind: 'mono', text: text.slice(i + 3, close) });
            i = close + 3;
            textStart = i;
            continue;
          }
        }
        const kind = INLINE[ch];
        if (kind && opens(i, 1)) {
          const close = findClose(ch, i + 1, to, false);
          if (close > i + 1) {
            out.push(...plain(textStart, i), { kind, children: parse(i + 1, close) });
            i = close + 1;
            textStart = i;
            continue;
          }
        }
      }
      i += 1;
    }
    out.push(...plain(textStart, to));
    return out;
  };

  return parse(0, text.length);
}

/** Long texts fold after a few lines (issue 33 item 2): more than this many characters or lines. */
export const FOLD_CHARS = 700;
export const FOLD_LINES = 12;

export function foldsText(text: string): boolean {
  return text.length > FOLD_CHARS || text.split('\n').length > FOLD_LINES;
}
