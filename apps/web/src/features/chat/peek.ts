/**
 * Navigation state of View (the eye on a waiting ticket, §4): the chat opens without marking the ticket
 * read and without changing it, so it keeps its place and its unread count in the Queue.
 */
export const PEEK_STATE = { peek: true } as const;

export function isPeek(state: unknown): boolean {
  return !!state && typeof state === 'object' && (state as { peek?: unknown }).peek === true;
}
