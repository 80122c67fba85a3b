import { minutesOfTime } from '@wadesk/contracts';
import type { BusinessHours } from '../../db/schema.js';

/**
 * Whether a queue (or a connection) is open at an instant, and since when it has been closed (issue 36 §3, decision
 * 0039). Pure: the instant is given (the caller's injected clock), the time zone's rules come from Intl (ICU's tz
 * data), so a schedule written "09:00–18:00 America/Sao_Paulo" means that wall clock there, across DST changes.
 */

interface LocalParts {
  /** YYYY-MM-DD in the zone. */
  date: string;
  /** 0 = Sunday … 6 = Saturday. */
  weekday: number;
  /** Minutes since local midnight. */
  minutes: number;
}

const DAY_MS = 86_400_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The wall clock in `timeZone` at `at`, as UTC milliseconds of the same fields (seconds kept). */
function wallClockMs(at: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(new Date(at))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour! % 24, parts.minute!, parts.second!);
}

function localParts(at: Date, timeZone: string): LocalParts {
  const wall = new Date(wallClockMs(at.getTime(), timeZone));
  return {
    date: wall.toISOString().slice(0, 10),
    weekday: wall.getUTCDay(),
    minutes: wall.getUTCHours() * 60 + wall.getUTCMinutes(),
  };
}

/**
 * The instant at which the wall clock of `timeZone` shows `minutes` after midnight of `date` (1440 is the next
 * midnight). A time skipped by a DST change (the clock jumps forward) is the instant just after the jump, at the same
 * distance from it (Lisbon 01:30 on the last Sunday of March is 01:30 UTC, 02:30 local); a time that happens twice
 * (the clock goes back) is its later occurrence.
 */
export function zonedInstant(date: string, minutes: number, timeZone: string): Date {
  const [y, m, d] = date.split('-').map(Number);
  const wall = Date.UTC(y!, m! - 1, d!, 0, minutes);
  const offset = (instant: number) => wallClockMs(instant, timeZone) - instant;
  // The offsets a day before and a day after: the instant is `wall` minus one of them (both when nothing changes).
  const before = wall - offset(wall - DAY_MS);
  const after = wall - offset(wall + DAY_MS);
  const shows = (instant: number) => wallClockMs(instant, timeZone) === wall;
  if (shows(after)) return new Date(shows(before) ? Math.max(before, after) : after);
  // Skipped: as far after the jump as the time is after the last wall clock before it, i.e. with the earlier offset.
  return new Date(before);
}

/** The intervals of one local date, in minutes; none on a holiday. */
function intervalsOn(hours: BusinessHours, date: string, weekday: number): { start: number; end: number }[] {
  if (hours.holidays.includes(date)) return [];
  return hours.days.filter((i) => i.weekday === weekday).map((i) => ({ start: minutesOfTime(i.start), end: minutesOfTime(i.end) }));
}

/** Open at `at`: the local wall clock is inside one of the day's intervals (start included, end excluded). null = always open. */
export function isOpenAt(hours: BusinessHours | null | undefined, at: Date): boolean {
  if (!hours) return true;
  const local = localParts(at, hours.timeZone);
  return intervalsOn(hours, local.date, local.weekday).some((i) => i.start <= local.minutes && local.minutes < i.end);
}

/** How far back a closed period is looked for: a year of holidays and a week. */
const LOOK_BACK_DAYS = 373;

/**
 * When the closed period that `at` is in began: the end of the last open interval before `at`; the epoch when the
 * schedule was never open in the last year (a schedule with no interval). null when open at `at`.
 */
export function closedSince(hours: BusinessHours | null | undefined, at: Date): Date | null {
  if (!hours || isOpenAt(hours, at)) return null;
  const today = localParts(at, hours.timeZone).date;
  const [y, m, d] = today.split('-').map(Number);
  for (let back = 0; back <= LOOK_BACK_DAYS; back += 1) {
    const day = new Date(Date.UTC(y!, m! - 1, d! - back));
    const date = day.toISOString().slice(0, 10);
    const ends = intervalsOn(hours, date, day.getUTCDay())
      .map((i) => zonedInstant(date, i.end, hours.timeZone))
      .filter((end) => end.getTime() <= at.getTime());
    if (ends.length > 0) return new Date(Math.max(...ends.map((e) => e.getTime())));
  }
  return new Date(0);
}

/**
 * Whether a conversation whose last out-of-hours notice went at `noticeAt` gets one now: the schedule is closed at
 * `at` and no notice went since this closed period began.
 */
export function noticeDue(hours: BusinessHours | null | undefined, at: Date, noticeAt: Date | null): boolean {
  const since = closedSince(hours, at);
  if (!since) return false;
  return noticeAt === null || noticeAt.getTime() < since.getTime();
}
