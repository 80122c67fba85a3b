/**
 * Navigation state of View (the eye on a waiting ticket, §4): the chat opens without marking the ticket
 * read and without changing it, so it keeps its place and its unread count in the Queue.
 */
export const PEEK_STATE = { peek: true } as const;

export function isPeek(state: unknown): boolean {
  return !!state && typeof state === 'object' && (state as { peek?: unknown }).peek === true;
}

/** Navigation state of a search hit opened (issue 33 item 3): the message the chat scrolls to and highlights. */
export function focusedMessage(state: unknown): number | null {
  const id = state && typeof state === 'object' ? (state as { focusMessage?: unknown }).focusMessage : undefined;
  return typeof id === 'number' && Number.isInteger(id) && id > 0 ? id : null;
}
