import { currentLanguage, type LanguageCode } from '../i18n';

/**
 * Every date and time the app shows, in one format per language (issue 33 item 16): `Intl.DateTimeFormat` with the
 * interface language's locale, in the browser's time zone (the user's, never the server's).
 * - date: 12/11/2026 (pt, es), 11/12/2026 (en): day, month and the whole year, always two digits each;
 * - time: the language's own short time (CLDR's): 09:05 (pt), 9:05 (es), 9:05 AM (en);
 * - timeSeconds: the same with seconds (a bulk send's log);
 * - dateTime: the date, then the time (12/11/2026, 09:05; 11/12/2026, 9:05 AM).
 */
export type DateStyle = 'date' | 'time' | 'timeSeconds' | 'dateTime';

const STYLES: Record<Exclude<DateStyle, 'dateTime'>, Intl.DateTimeFormatOptions> = {
  date: { day: '2-digit', month: '2-digit', year: 'numeric' },
  time: { timeStyle: 'short' },
  timeSeconds: { timeStyle: 'medium' },
};

/** The locale of each interface language (Portuguese here is Brazil's). */
export const DATE_LOCALES: Record<LanguageCode, string> = { pt: 'pt-BR', en: 'en-US', es: 'es' };

export interface DateFormatOptions {
  /** The language to write in; the interface's by default. */
  language?: LanguageCode;
  /** An IANA time zone; the browser's by default (tests set one). */
  timeZone?: string;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** One formatter per language, style and zone: building one costs far more than using it. */
function formatter(style: keyof typeof STYLES, { language = currentLanguage(), timeZone }: DateFormatOptions): Intl.DateTimeFormat {
  const key = `${language}|${style}|${timeZone ?? ''}`;
  let found = formatters.get(key);
  if (!found) {
    found = new Intl.DateTimeFormat(DATE_LOCALES[language], { ...STYLES[style], timeZone });
    formatters.set(key, found);
  }
  return found;
}

/** `value` (an ISO string, a Date or epoch milliseconds) in `style`; '' when it is no date. */
export function formatDateTime(value: string | number | Date, style: DateStyle, options: DateFormatOptions = {}): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  // Intl joins a date and a time with ", " in our three languages; the two parts keep their own styles.
  if (style === 'dateTime') return `${formatter('date', options).format(date)}, ${formatter('time', options).format(date)}`;
  return formatter(style, options).format(date);
}

/** The day: 12/11/2026 (pt, es), 11/12/2026 (en). */
export const formatDate = (value: string | number | Date, options?: DateFormatOptions) => formatDateTime(value, 'date', options);

/** The time of day: 14:05 (pt, es), 2:05 PM (en); 09:05 (pt), 9:05 (es), 9:05 AM (en). */
export const formatTime = (value: string | number | Date, options?: DateFormatOptions) => formatDateTime(value, 'time', options);

/** Whether two instants fall on the same day of the time zone (the browser's by default). */
export function isSameDay(a: string | number | Date, b: string | number | Date, timeZone?: string): boolean {
  const day = (v: string | number | Date) => formatDateTime(v, 'date', { language: 'en', timeZone });
  return day(a) === day(b);
}

/** §2 ticket row: the time when it is today, else the day. */
export function formatRowTime(value: string | number | Date, now: Date = new Date(), options: DateFormatOptions = {}): string {
  return isSameDay(value, now, options.timeZone) ? formatTime(value, options) : formatDate(value, options);
}

/** An hour slot of the day ("08:00", "19:00", as the dashboard's data names them) as the language writes it: 8:00 AM. */
export function formatHourSlot(slot: string, options: DateFormatOptions = {}): string {
  const match = /^(\d{1,2}):(\d{2})$/.exec(slot);
  if (!match) return slot;
  // A fixed day in UTC: only the hour and minute are written, in the same zone.
  const at = Date.UTC(2000, 0, 1, Number(match[1]), Number(match[2]));
  return formatDateTime(at, 'time', { ...options, timeZone: 'UTC' });
}
