/**
 * `@Name` in an internal note (issue 36 §1, decision 0038): the colleagues a note names. The server stores and
 * notifies them; the chat highlights them. The same rule on both sides, here.
 */
export interface Mentionable {
  id: number;
  name: string;
}

export interface FoundMention<T extends Mentionable> {
  person: T;
  /** Where `@Name` is in the text: text.slice(start, end), the `@` included. */
  start: number;
  end: number;
}

/** A letter or digit: what may not stand right before the `@` (an e-mail address) nor right after the name. */
const WORD = /[\p{L}\p{N}_]/u;

/** The text without case and accents, of the same length (a character whose folding changes its length stays). */
function fold(text: string): string {
  return Array.from(text, (c) => {
    const f = c.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
    return f.length === c.length ? f : c;
  }).join('');
}

/**
 * Each `@Name` of the text that names one of `people` (case and accents ignored), in the text's order: the longest
 * name wins ("@Ana Souza" is Ana Souza, not Ana), an `@` inside a word (an e-mail address) names no one, and the name
 * must end where a word ends. A person named twice is found twice.
 */
export function findMentions<T extends Mentionable>(text: string, people: readonly T[]): FoundMention<T>[] {
  if (!text.includes('@') || people.length === 0) return [];
  const haystack = fold(text);
  const names = people
    .map((person) => ({ person, name: fold(person.name.trim()) }))
    .filter((p) => p.name.length > 0)
    .sort((a, b) => b.name.length - a.name.length);
  const found: FoundMention<T>[] = [];
  for (let at = haystack.indexOf('@'); at >= 0; at = haystack.indexOf('@', at + 1)) {
    if (at > 0 && WORD.test(text[at - 1]!)) continue;
    const match = names.find(({ name }) => haystack.startsWith(name, at + 1) && !WORD.test(text[at + 1 + name.length] ?? ''));
    if (!match) continue;
    const end = at + 1 + match.name.length;
    found.push({ person: match.person, start: at, end });
    at = end - 1;
  }
  return found;
}

/** The distinct people `findMentions` finds, in the order first named. */
export function mentionedPeople<T extends Mentionable>(text: string, people: readonly T[]): T[] {
  const seen = new Map<number, T>();
  for (const { person } of findMentions(text, people)) if (!seen.has(person.id)) seen.set(person.id, person);
  return [...seen.values()];
}

/**
 * The `@` word being typed at the caret (the autocomplete's query): the text after the last `@` that starts a word,
 * up to the caret, when it holds at most two spaces and no line break; null otherwise.
 */
export function mentionQueryAt(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  const at = before.lastIndexOf('@');
  if (at < 0 || (at > 0 && WORD.test(before[at - 1]!))) return null;
  const query = before.slice(at + 1);
  if (/[\n\r@]/.test(query) || (query.match(/ /g)?.length ?? 0) > 2 || query.length > 40) return null;
  return { start: at, query };
}

/** Whether a name matches what was typed after `@` (case and accents ignored, any word's start). */
export function nameMatches(name: string, query: string): boolean {
  const q = fold(query.trim());
  if (!q) return true;
  const n = fold(name);
  return n.startsWith(q) || n.includes(` ${q}`);
}
