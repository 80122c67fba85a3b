/**
 * Times of scheduled messages are entered and shown in the browser's time zone and travel (and are stored) in UTC.
 */

const pad = (n: number) => String(n).padStart(2, '0');

/** A `datetime-local` value (`YYYY-MM-DDTHH:mm:ss`) of `date` in the browser's time zone. */
export function toLocalInput(date: Date): string {
  return `${toLocalDay(date)}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** The day (`YYYY-MM-DD`) of `date` in the browser's time zone. */
export function toLocalDay(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The UTC instant (ISO) of a `datetime-local` value read in the browser's time zone; null when it is not one. */
export function fromLocalInput(value: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value.trim());
  if (!match) return null;
  const [y, mo, d, h, mi, s] = match.slice(1).map((part) => Number(part ?? 0));
  const date = new Date(y!, mo! - 1, d!, h!, mi!, s!);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** The next whole hour from `now`, as a `datetime-local` value: the time a new schedule starts with. */
export function defaultSendAt(now: Date = new Date()): string {
  const next = new Date(now);
  next.setMinutes(0, 0, 0);
  next.setHours(next.getHours() + 1);
  return toLocalInput(next);
}
