import { BusinessHoursSchema } from '@wadesk/contracts';
import { describe, expect, it } from 'vitest';
import type { BusinessHours } from '../../db/schema.js';
import { closedSince, isOpenAt, noticeDue, zonedInstant } from './business-hours.js';

const weekdays = (start: string, end: string, days = [1, 2, 3, 4, 5]) => days.map((weekday) => ({ weekday, start, end }));
const at = (iso: string) => new Date(iso);

describe('business hours: open or closed at an instant', () => {
  const saoPaulo: BusinessHours = { timeZone: 'America/Sao_Paulo', days: weekdays('09:00', '18:00'), holidays: ['2026-12-25'] };

  it('is always open without a schedule', () => {
    expect(isOpenAt(null, at('2026-11-29T03:00:00Z'))).toBe(true);
    expect(closedSince(null, at('2026-11-29T03:00:00Z'))).toBeNull();
  });

  it('reads the wall clock of the schedule’s zone (start included, end excluded)', () => {
    // Friday 2026-11-27: São Paulo is UTC−3 (no DST since 2019).
    expect(isOpenAt(saoPaulo, at('2026-11-27T11:59:00Z'))).toBe(false); // 08:59
    expect(isOpenAt(saoPaulo, at('2026-11-27T12:00:00Z'))).toBe(true); // 09:00
    expect(isOpenAt(saoPaulo, at('2026-11-27T20:59:00Z'))).toBe(true); // 17:59
    expect(isOpenAt(saoPaulo, at('2026-11-27T21:00:00Z'))).toBe(false); // 18:00
    expect(isOpenAt(saoPaulo, at('2026-11-28T15:00:00Z'))).toBe(false); // Saturday noon
  });

  it('is closed all day on a holiday, in the zone’s calendar', () => {
    // Friday 2026-12-25 noon in São Paulo; 2026-12-26T01:00Z is still the 25th there (22:00).
    expect(isOpenAt(saoPaulo, at('2026-12-25T15:00:00Z'))).toBe(false);
    expect(isOpenAt(saoPaulo, at('2026-12-24T15:00:00Z'))).toBe(true);
    // The closed period began when Thursday the 24th closed, at 18:00 local.
    expect(closedSince(saoPaulo, at('2026-12-26T01:00:00Z'))).toEqual(at('2026-12-24T21:00:00Z'));
  });

  it('dates a closed period from the end of the last open interval, across the weekend', () => {
    // Sunday night: closed since Friday 18:00 local.
    expect(closedSince(saoPaulo, at('2026-11-30T02:00:00Z'))).toEqual(at('2026-11-27T21:00:00Z'));
    // Monday 07:00 local: the same period.
    expect(closedSince(saoPaulo, at('2026-11-30T10:00:00Z'))).toEqual(at('2026-11-27T21:00:00Z'));
    expect(closedSince(saoPaulo, at('2026-11-30T13:00:00Z'))).toBeNull();
  });

  it('treats a lunch break as a closed period of its own', () => {
    const split: BusinessHours = { timeZone: 'UTC', days: [...weekdays('08:00', '12:00'), ...weekdays('13:00', '17:00')], holidays: [] };
    expect(isOpenAt(split, at('2026-11-27T12:30:00Z'))).toBe(false);
    expect(closedSince(split, at('2026-11-27T12:30:00Z'))).toEqual(at('2026-11-27T12:00:00Z'));
    expect(closedSince(split, at('2026-11-27T18:00:00Z'))).toEqual(at('2026-11-27T17:00:00Z'));
  });

  it('joins a night shift written as 22:00–24:00 and 00:00–06:00 of the next day', () => {
    const night: BusinessHours = { timeZone: 'Europe/Lisbon', days: [{ weekday: 1, start: '22:00', end: '24:00' }, { weekday: 2, start: '00:00', end: '06:00' }], holidays: [] };
    expect(isOpenAt(night, at('2026-11-30T23:59:00Z'))).toBe(true); // Monday 23:59 (Lisbon is UTC in winter)
    expect(isOpenAt(night, at('2026-12-01T00:00:00Z'))).toBe(true); // Tuesday 00:00
    expect(isOpenAt(night, at('2026-12-01T06:00:00Z'))).toBe(false);
    expect(closedSince(night, at('2026-12-01T07:00:00Z'))).toEqual(at('2026-12-01T06:00:00Z'));
  });

  it('follows Lisbon’s spring-forward day (01:00 UTC jumps to 02:00 local)', () => {
    // Sunday 2026-03-29, open 00:00–03:00 local: 00:00Z to 02:00Z, two real hours.
    const lisbon: BusinessHours = { timeZone: 'Europe/Lisbon', days: [{ weekday: 0, start: '00:00', end: '03:00' }], holidays: [] };
    expect(isOpenAt(lisbon, at('2026-03-29T00:30:00Z'))).toBe(true); // 00:30 WET
    expect(isOpenAt(lisbon, at('2026-03-29T01:30:00Z'))).toBe(true); // 02:30 WEST
    expect(isOpenAt(lisbon, at('2026-03-29T02:00:00Z'))).toBe(false); // 03:00 WEST
    expect(closedSince(lisbon, at('2026-03-29T05:00:00Z'))).toEqual(at('2026-03-29T02:00:00Z'));
    // A skipped time is the instant after the jump.
    expect(zonedInstant('2026-03-29', 90, 'Europe/Lisbon')).toEqual(at('2026-03-29T01:30:00Z'));
  });

  it('follows Lisbon’s fall-back day (02:00 local goes back to 01:00)', () => {
    // Sunday 2026-10-25: 09:00–18:00 local is 09:00Z–18:00Z (WET), the day before 08:00Z–17:00Z (WEST).
    const lisbon: BusinessHours = { timeZone: 'Europe/Lisbon', days: weekdays('09:00', '18:00', [0, 6]), holidays: [] };
    expect(isOpenAt(lisbon, at('2026-10-24T08:00:00Z'))).toBe(true);
    expect(isOpenAt(lisbon, at('2026-10-25T08:30:00Z'))).toBe(false);
    expect(isOpenAt(lisbon, at('2026-10-25T09:00:00Z'))).toBe(true);
    expect(closedSince(lisbon, at('2026-10-25T03:00:00Z'))).toEqual(at('2026-10-24T17:00:00Z'));
    expect(closedSince(lisbon, at('2026-10-25T19:00:00Z'))).toEqual(at('2026-10-25T18:00:00Z'));
  });

  it('follows São Paulo’s last DST start (2018-11-04: midnight did not exist)', () => {
    // Sunday 2018-11-04 the clocks jumped from 00:00 −03 to 01:00 −02. Open 00:00–12:00 local.
    const sunday: BusinessHours = { timeZone: 'America/Sao_Paulo', days: [{ weekday: 0, start: '00:00', end: '12:00' }], holidays: [] };
    expect(isOpenAt(sunday, at('2018-11-04T02:59:00Z'))).toBe(false); // Saturday 23:59 −03
    expect(isOpenAt(sunday, at('2018-11-04T03:00:00Z'))).toBe(true); // Sunday 01:00 −02
    expect(isOpenAt(sunday, at('2018-11-04T13:59:00Z'))).toBe(true); // 11:59 −02
    expect(closedSince(sunday, at('2018-11-04T14:00:00Z'))).toEqual(at('2018-11-04T14:00:00Z'));
    expect(zonedInstant('2018-11-04', 0, 'America/Sao_Paulo')).toEqual(at('2018-11-04T03:00:00Z'));
    // And its end, 2019-02-17: 00:00 −02 went back to 23:00 −03 of the 16th.
    const saturday: BusinessHours = { timeZone: 'America/Sao_Paulo', days: [{ weekday: 6, start: '20:00', end: '24:00' }], holidays: [] };
    expect(isOpenAt(saturday, at('2019-02-17T01:30:00Z'))).toBe(true); // 23:30 −02
    expect(isOpenAt(saturday, at('2019-02-17T02:30:00Z'))).toBe(true); // 23:30 −03, the hour that came twice
    expect(closedSince(saturday, at('2019-02-17T04:00:00Z'))).toEqual(at('2019-02-17T03:00:00Z'));
  });

  it('is closed since the epoch for a schedule with no interval', () => {
    const never: BusinessHours = { timeZone: 'UTC', days: [], holidays: [] };
    expect(isOpenAt(never, at('2026-11-27T12:00:00Z'))).toBe(false);
    expect(closedSince(never, at('2026-11-27T12:00:00Z'))).toEqual(new Date(0));
  });
});

describe('business hours: the out-of-hours notice', () => {
  const office: BusinessHours = { timeZone: 'UTC', days: weekdays('09:00', '18:00'), holidays: [] };

  it('is due once per closed period', () => {
    const night = at('2026-11-26T22:00:00Z');
    expect(noticeDue(office, night, null)).toBe(true);
    expect(noticeDue(office, at('2026-11-26T23:00:00Z'), night)).toBe(false);
    expect(noticeDue(office, at('2026-11-27T08:00:00Z'), night)).toBe(false);
    expect(noticeDue(office, at('2026-11-27T12:00:00Z'), night)).toBe(false); // open
    expect(noticeDue(office, at('2026-11-27T19:00:00Z'), night)).toBe(true); // a new night
  });

  it('is never due while open or without a schedule', () => {
    expect(noticeDue(office, at('2026-11-27T10:00:00Z'), null)).toBe(false);
    expect(noticeDue(null, at('2026-11-27T22:00:00Z'), null)).toBe(false);
  });
});

describe('business hours: the schedule as written', () => {
  const parse = (value: unknown) => BusinessHoursSchema.safeParse(value);

  it('accepts weekday intervals, a time zone and holidays', () => {
    expect(parse({ timeZone: 'America/Sao_Paulo', days: weekdays('09:00', '18:00'), holidays: ['2026-12-25'] }).success).toBe(true);
    expect(parse({ timeZone: 'UTC', days: [{ weekday: 1, start: '22:00', end: '24:00' }] }).success).toBe(true);
  });

  it('refuses an unknown time zone, a bad time, an interval past midnight and overlaps', () => {
    const issues = (value: unknown) => parse(value).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(issues({ timeZone: 'Mars/Olympus', days: [], holidays: [] })).toEqual(['timeZone: Must be a time zone like America/Sao_Paulo']);
    expect(issues({ timeZone: 'UTC', days: [{ weekday: 1, start: '9:00', end: '18:00' }], holidays: [] })).toEqual(['days.0.start: Must be a time like 09:00']);
    expect(issues({ timeZone: 'UTC', days: [{ weekday: 1, start: '22:00', end: '06:00' }], holidays: [] })).toEqual([
      'days.0.end: Must end after it starts (split a night shift at 24:00)',
    ]);
    expect(issues({ timeZone: 'UTC', days: [{ weekday: 1, start: '09:00', end: '12:00' }, { weekday: 1, start: '11:00', end: '14:00' }], holidays: [] })).toEqual([
      'days.1.start: Overlaps another interval of the same day',
    ]);
    expect(issues({ timeZone: 'UTC', days: [{ weekday: 7, start: '09:00', end: '12:00' }], holidays: ['2026-02-30'] })?.length).toBe(2);
  });
});
