import type { ValidationIssue } from '@wadesk/contracts';

/** The instants a webhook may stamp an event with: from 2000 to 2100 (anything else is not a time of a message). */
const EARLIEST_MS = Date.UTC(2000, 0, 1);
const LATEST_MS = Date.UTC(2100, 0, 1);

/**
 * The instant of a webhook's Unix timestamp (Cloud API: seconds as a string; Instagram: milliseconds as a number),
 * or null when it is not one: not an integer, or outside 2000–2100.
 */
export function webhookTime(value: unknown, unit: 'seconds' | 'milliseconds'): Date | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,16}$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n)) return null;
  const ms = unit === 'seconds' ? n * 1000 : n;
  return ms >= EARLIEST_MS && ms < LATEST_MS ? new Date(ms) : null;
}

/** The issue of a timestamp field that `webhookTime` does not take (its path in the body, dotted). */
export function timestampIssue(value: unknown, unit: 'seconds' | 'milliseconds', path: string): ValidationIssue | null {
  return webhookTime(value, unit) ? null : { path, message: `Not a Unix time in ${unit} between 2000 and 2100` };
}

/** The items of a field that should be an array (anything else: none). */
export function itemsOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** A field of a value that should be an object (anything else: undefined). */
export function fieldOf(value: unknown, key: string): unknown {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined;
}
