/** A short piece of a text around a search match: `text.slice(start, end)` is the match. */
export interface SearchExcerpt {
  text: string;
  start: number;
  end: number;
}

/** Letters that unaccent() spells out rather than strips. */
const SPELLED: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i' };

/** Folded characters beyond ASCII, as met (bounded: any text could bring new ones). */
const foldedChars = new Map<string, string>();
const FOLDED_CHARS_KEPT = 10_000;

/**
 * A character lower-cased without its accents. ASCII directly: lower-casing, decomposing and stripping each character
 * of the 40 bodies of a search page cost ~0.5 ms of the server's CPU a request (issue 35).
 */
function foldChar(ch: string): string {
  const code = ch.charCodeAt(0);
  if (code < 128) return code >= 65 && code <= 90 ? String.fromCharCode(code + 32) : ch;
  let folded = foldedChars.get(ch);
  if (folded === undefined) {
    const lower = ch.toLowerCase();
    folded = SPELLED[lower] ?? lower.normalize('NFD').replace(/\p{M}/gu, '');
    if (foldedChars.size < FOLDED_CHARS_KEPT) foldedChars.set(ch, folded);
  }
  return folded;
}

/** Lower case without accents, as the database's f_unaccent(lower(...)) compares (close enough to show a match). */
export function foldForSearch(text: string): string {
  let out = '';
  for (const ch of text) out += foldChar(ch);
  return out;
}

/** The folded text, and for each folded unit the [start, end) of the original character it came from. */
function foldWithOrigins(text: string): { folded: string; from: number[]; to: number[] } {
  let folded = '';
  const from: number[] = [];
  const to: number[] = [];
  let i = 0;
  for (const ch of text) {
    const f = foldChar(ch);
    folded += f;
    for (let k = 0; k < f.length; k += 1) {
      from.push(i);
      to.push(i + ch.length);
    }
    i += ch.length;
  }
  return { folded, from, to };
}

const oneLine = (s: string) => s.replace(/\s+/g, ' ');

/**
 * The part of `text` around the first place `query` occurs, ignoring case and accents: a few words before
 * (about `before` characters, so the match shows even in a narrow ticket row) and more after, cut at spaces,
 * on one line, with '…' where it was cut. Null when it does not occur.
 */
export function searchExcerpt(text: string, query: string, { before = 16, after = 60 }: { before?: number; after?: number } = {}): SearchExcerpt | null {
  const q = foldForSearch(query.trim());
  if (!q) return null;
  const { folded, from, to } = foldWithOrigins(text);
  const at = folded.indexOf(q);
  if (at < 0) return null;
  const start = from[at]!;
  const end = to[at + q.length - 1]!;
  // Within a few characters of either end, keep the text whole rather than cut one word.
  let left = start - before <= 8 ? 0 : start - before;
  if (left > 0) {
    const space = text.slice(left, start).search(/\s/);
    left = space >= 0 ? left + space + 1 : left;
    if (/[\uDC00-\uDFFF]/.test(text[left] ?? '')) left += 1; // never half a surrogate pair
  }
  let right = end + after >= text.length - 8 ? text.length : end + after;
  if (right < text.length) {
    const tail = text.slice(end, right);
    const space = tail.search(/\s\S*$/);
    right = space >= 0 ? end + space : right;
    if (/[\uD800-\uDBFF]/.test(text[right - 1] ?? '')) right -= 1;
  }
  const head = (left > 0 ? '…' : '') + oneLine(text.slice(left, start)).trimStart();
  const match = oneLine(text.slice(start, end));
  const tail = oneLine(text.slice(end, right)).trimEnd() + (right < text.length ? '…' : '');
  return { text: head + match + tail, start: head.length, end: head.length + match.length };
}
