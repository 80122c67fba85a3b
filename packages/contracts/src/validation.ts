import { z } from 'zod';
import { INPUT_MESSAGES, MESSAGES } from './validation-messages.js';

export { FIELD_MESSAGES, INPUT_MESSAGES, MESSAGES, SETTING_MESSAGES } from './validation-messages.js';

/** The largest value of PostgreSQL's `integer`: every id column and every small count. */
export const MAX_ID = 2_147_483_647;

/** An instant in an answer: ISO 8601 in UTC, as `Date.prototype.toISOString` writes it. */
export const dateTimeText = z.iso.datetime({ offset: true });

/** The answer of a deletion and of other actions that return no resource: `{ message }`, in English. */
export const MessageAnswer = z.object({ message: z.string() }).meta({ id: 'MessageAnswer' });
export type MessageAnswer = z.infer<typeof MessageAnswer>;

/** PostgreSQL cannot store the NUL character (U+0000) in text. */
export function hasNoNulCharacter(value: string): boolean {
  return !value.includes('\u0000');
}

/** A free text field of at most `max` characters that PostgreSQL can store (no NUL character). */
export function textField(max: number) {
  return z.string().max(max, MESSAGES.tooLong).refine(hasNoNulCharacter, INPUT_MESSAGES.invalidCharacter);
}

/** A required string between `min` and `max` characters, trimmed, without NUL characters. */
export function boundedString(min: number, max: number) {
  return z
    .string({ error: MESSAGES.required })
    .trim()
    .min(1, MESSAGES.required)
    .min(min, MESSAGES.tooShort)
    .max(max, MESSAGES.tooLong)
    .refine(hasNoNulCharacter, INPUT_MESSAGES.invalidCharacter);
}

export const emailField = z
  .string({ error: MESSAGES.required })
  .trim()
  .toLowerCase()
  .min(1, MESSAGES.required)
  .max(254, MESSAGES.tooLong)
  .pipe(z.email({ error: MESSAGES.invalidEmail }));

export const passwordField = z
  .string({ error: MESSAGES.required })
  .min(1, MESSAGES.required)
  .min(5, MESSAGES.tooShort)
  .max(50, MESSAGES.tooLong)
  .refine(hasNoNulCharacter, INPUT_MESSAGES.invalidCharacter);

/** Digits only (surrounding blanks allowed): the one string form of a whole number we accept. */
const WHOLE_NUMBER_TEXT = /^\s*\d+\s*$/;

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/**
 * A whole number between `min` and `max`, given as a number or a string of digits. Exponents (`1e10`), hex,
 * fractions, booleans and arrays are refused; so is anything beyond `max`, so it always fits PostgreSQL.
 */
export function integerField(min: number, max: number, message: string = INPUT_MESSAGES.invalidNumber) {
  return z.preprocess(
    (value) => (typeof value === 'string' && WHOLE_NUMBER_TEXT.test(value) ? Number(value) : value),
    z
      .number({ error: (issue) => (isBlank(issue.input) ? MESSAGES.required : message) })
      .int(message)
      .min(min, message)
      .max(max, message),
  );
}

/** An id in a path, query or body: a positive integer ≤ 2147483647, given as number or numeric string. */
export const idField = integerField(1, MAX_ID, INPUT_MESSAGES.invalidId);

/** The path parameter of a route about one row. */
export const IdParams = z.object({ id: idField });

/** `pageNumber` query parameter, 1-based. */
export const pageNumberField = integerField(1, 100000).default(1);

export const searchParamField = z
  .string()
  .trim()
  .max(200, MESSAGES.tooLong)
  .refine(hasNoNulCharacter, INPUT_MESSAGES.invalidCharacter)
  .transform((s) => s.toLowerCase())
  .default('');

/** Whether `YYYY-MM-DD` names a day of the calendar (no 2024-13-45, no 2023-02-29, no year 0). */
export function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const date = new Date(Date.UTC(2000, month - 1, 1));
  date.setUTCFullYear(year);
  date.setUTCDate(day);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** A calendar day written `YYYY-MM-DD`. */
export const calendarDateField = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, INPUT_MESSAGES.dateFormat)
  .refine(isCalendarDate, INPUT_MESSAGES.invalidDate);

/** An ISO 8601 date-time with its offset, as `Date.toISOString()` writes it (`2026-11-26T21:27:20.885Z`) or `+03:00`. */
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;
const DAY_MONTH_YEAR = /^(\d{2})\/(\d{2})\/(\d{4})$/;

/**
 * The day formatter of each zone asked for (`dayOfInstant`), which is also how `isTimeZone` checks a zone: building
 * an Intl.DateTimeFormat costs ~60 µs, on every request that sends a zone. A runtime knows about 600 names; the bound
 * only keeps a client that sends a new valid spelling each time from growing it without end.
 */
const dayFormatters = new Map<string, Intl.DateTimeFormat>();
const REMEMBERED_ZONES = 2000;

/** The formatter of days (`YYYY-MM-DD`) in `timeZone`; a RangeError for a zone this runtime does not know. */
function dayFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = dayFormatters.get(timeZone);
  if (!formatter) {
    // en-CA writes dates as YYYY-MM-DD.
    formatter = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    if (dayFormatters.size < REMEMBERED_ZONES) dayFormatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Whether `name` is an IANA time zone this runtime knows (`America/Sao_Paulo`, `Etc/GMT+3`, `UTC`). */
export function isTimeZone(name: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(name)) return false;
  try {
    dayFormatter(name);
    return true;
  } catch {
    return false;
  }
}

/** An IANA time zone name (the viewer's, which the web app sends in `X-Time-Zone`). */
export const timeZoneField = z.string().max(64, MESSAGES.tooLong).refine(isTimeZone, 'must be an IANA time zone, e.g. America/Sao_Paulo');

/**
 * The day (`YYYY-MM-DD`) an instant falls on in `timeZone` (UTC unless given). The one place that decides it: a date
 * filter given as an instant (whaticket's client sends `new Date().toISOString()`) names the caller's day, read in the
 * caller's time zone (issue 32 §5).
 */
export function dayOfInstant(instant: Date, timeZone = 'UTC'): string {
  return dayFormatter(timeZone).format(instant);
}

/** When `value` is an ISO date-time, the day it falls on in `timeZone`; null for any other text. */
export function dayOfIsoInstant(value: string, timeZone: string): string | null {
  const text = value.trim();
  if (!ISO_DATE_TIME.test(text)) return null;
  const instant = new Date(text);
  return Number.isNaN(instant.getTime()) ? null : dayOfInstant(instant, timeZone);
}

/**
 * A day as the specification's clients write it: `YYYY-MM-DD`, an ISO date-time (whaticket's client sends
 * `new Date().toISOString()`: the day of that instant, `dayOfInstant`), and with `dayMonthYear` also `dd/MM/yyyy`
 * (the scheduled messages page's 'Data de Envio'); null when it is none of these or not on the calendar.
 */
export function parseDay(value: string, options: { dayMonthYear?: boolean } = {}): string | null {
  const text = value.trim();
  if (isCalendarDate(text)) return text;
  if (ISO_DATE_TIME.test(text)) {
    const date = text.slice(0, 10);
    const instant = new Date(text);
    return isCalendarDate(date) && !Number.isNaN(instant.getTime()) ? dayOfInstant(instant) : null;
  }
  const dmy = options.dayMonthYear ? DAY_MONTH_YEAR.exec(text) : null;
  if (dmy) {
    const date = `${dmy[3]}-${dmy[2]}-${dmy[1]}`;
    return isCalendarDate(date) ? date : null;
  }
  return null;
}

/**
 * A day given as `YYYY-MM-DD` or an ISO date-time (and with `dayMonthYear`, `dd/MM/yyyy`), read as `YYYY-MM-DD`
 * (`parseDay`).
 */
export function dayField(options: { dayMonthYear?: boolean } = {}) {
  const formats = options.dayMonthYear ? 'YYYY-MM-DD, dd/MM/yyyy or an ISO date-time' : 'YYYY-MM-DD or an ISO date-time';
  return z
    .string({ error: MESSAGES.required })
    .max(40, MESSAGES.tooLong)
    .transform((value, ctx) => {
      const day = parseDay(value, options);
      if (day) return day;
      const wellFormed = /^\s*\d{4}-\d{2}-\d{2}(T|\s*$)/.test(value) || (options.dayMonthYear && DAY_MONTH_YEAR.test(value.trim()));
      ctx.addIssue({ code: 'custom', message: wellFormed ? INPUT_MESSAGES.invalidDate : `must be ${formats}` });
      return z.NEVER;
    });
}

/**
 * A day as `dayField` reads it, kept as written too (`{ text, day }`): an ISO date-time names the day of that instant
 * in the caller's time zone, which only the route knows (X-Time-Zone); `day` is the day read without it.
 */
export function dayAsWrittenField(options: { dayMonthYear?: boolean } = {}) {
  const day = dayField(options);
  return z.string({ error: MESSAGES.required }).transform((text, ctx) => {
    const result = day.safeParse(text);
    if (result.success) return { text, day: result.data };
    for (const issue of result.error.issues) ctx.addIssue({ code: 'custom', message: issue.message });
    return z.NEVER;
  });
}

/** Whether a `data:` URL is well formed: `data:[mime][;param]*,payload`, percent-escapes valid when not base64. */
export function isWellFormedDataUrl(url: string): boolean {
  const match = /^data:([^;,]*)((?:;[^;,]*)*),(.*)$/s.exec(url);
  if (!match) return false;
  if (!/^[\w.+-]*(\/[\w.+-]+)?$/.test(match[1] ?? '')) return false;
  const isBase64 = (match[2] ?? '').split(';').includes('base64');
  const payload = match[3] ?? '';
  if (isBase64) return /^[A-Za-z0-9+/=\s_-]*$/.test(payload);
  try {
    decodeURIComponent(payload);
    return true;
  } catch {
    return false;
  }
}
