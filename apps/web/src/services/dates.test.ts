import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import i18n from '../i18n';
import { formatDate, formatDateTime, formatHourSlot, formatRowTime, formatTime, isSameDay } from './dates';

// 12 November 2026, 14:05:09 in São Paulo (UTC-3): 17:05:09 UTC, already the 13th in Tokyo.
const AT = '2026-11-12T17:05:09.000Z';
const SAO_PAULO = { timeZone: 'America/Sao_Paulo' };
const TOKYO = { timeZone: 'Asia/Tokyo' };
/** Intl writes a narrow no-break space before AM/PM in recent ICU versions: compared as a plain space. */
const plain = (text: string) => text.replace(/[\u202f\u00a0]/g, ' ');

describe('dates: one format per language (issue 33 item 16)', () => {
  it('writes the day as each language does: day first in Portuguese and Spanish, month first in English', () => {
    expect(formatDate(AT, { language: 'pt', ...SAO_PAULO })).toBe('12/11/2026');
    expect(formatDate(AT, { language: 'es', ...SAO_PAULO })).toBe('12/11/2026');
    expect(formatDate(AT, { language: 'en', ...SAO_PAULO })).toBe('11/12/2026');
  });

  it('writes the time on a 24-hour clock in Portuguese and Spanish, with AM/PM in English', () => {
    expect(formatTime(AT, { language: 'pt', ...SAO_PAULO })).toBe('14:05');
    expect(formatTime(AT, { language: 'es', ...SAO_PAULO })).toBe('14:05');
    expect(plain(formatTime(AT, { language: 'en', ...SAO_PAULO }))).toBe('2:05 PM');
    expect(formatDateTime(AT, 'timeSeconds', { language: 'pt', ...SAO_PAULO })).toBe('14:05:09');
    expect(plain(formatDateTime(AT, 'timeSeconds', { language: 'en', ...SAO_PAULO }))).toBe('2:05:09 PM');
  });

  it('writes a date and time together', () => {
    expect(formatDateTime(AT, 'dateTime', { language: 'pt', ...SAO_PAULO })).toBe('12/11/2026, 14:05');
    expect(formatDateTime(AT, 'dateTime', { language: 'es', ...SAO_PAULO })).toBe('12/11/2026, 14:05');
    expect(plain(formatDateTime(AT, 'dateTime', { language: 'en', ...SAO_PAULO }))).toBe('11/12/2026, 2:05 PM');
  });

  it("reads the instant in the viewer's time zone, not the server's or UTC", () => {
    expect(formatDateTime(AT, 'dateTime', { language: 'pt', ...TOKYO })).toBe('13/11/2026, 02:05');
    expect(formatDateTime(AT, 'dateTime', { language: 'pt', timeZone: 'UTC' })).toBe('12/11/2026, 17:05');
  });

  it('takes an ISO string, a Date or milliseconds, and gives nothing for what is no date', () => {
    const options = { language: 'pt' as const, ...SAO_PAULO };
    expect(formatDate(new Date(AT), options)).toBe('12/11/2026');
    expect(formatDate(Date.parse(AT), options)).toBe('12/11/2026');
    expect(formatDate('nope', options)).toBe('');
  });

  it('writes in the interface language when none is named', async () => {
    const before = i18n.language;
    try {
      await i18n.changeLanguage('pt');
      expect(formatDate(AT, SAO_PAULO)).toBe('12/11/2026');
      await i18n.changeLanguage('en');
      expect(formatDate(AT, SAO_PAULO)).toBe('11/12/2026');
    } finally {
      await i18n.changeLanguage(before);
    }
  });
});

describe('the ticket row time (§2: the time when today, else the day)', () => {
  const now = new Date('2026-11-12T20:00:00.000Z'); // 17:00 in São Paulo

  it('shows the time for a message of today and the day for one before, in the language', () => {
    expect(formatRowTime('2026-11-12T12:05:00.000Z', now, { language: 'pt', ...SAO_PAULO })).toBe('09:05');
    expect(formatRowTime('2026-11-12T12:05:00.000Z', now, { language: 'es', ...SAO_PAULO })).toBe('9:05');
    expect(plain(formatRowTime('2026-11-12T12:05:00.000Z', now, { language: 'en', ...SAO_PAULO }))).toBe('9:05 AM');
    expect(formatRowTime('2026-11-11T12:05:00.000Z', now, { language: 'pt', ...SAO_PAULO })).toBe('11/11/2026');
    expect(formatRowTime('2026-11-11T12:05:00.000Z', now, { language: 'en', ...SAO_PAULO })).toBe('11/11/2026');
  });

  it("decides what is today in the viewer's zone: 02:00 UTC of the 12th is still the 11th in São Paulo", () => {
    expect(isSameDay('2026-11-12T02:00:00.000Z', now, 'America/Sao_Paulo')).toBe(false);
    expect(isSameDay('2026-11-12T02:00:00.000Z', now, 'UTC')).toBe(true);
    expect(formatRowTime('2026-11-12T02:00:00.000Z', now, { language: 'es', ...SAO_PAULO })).toBe('11/11/2026');
  });
});

describe("the dashboard's hour slots", () => {
  it('writes an hour slot as each language writes a time', () => {
    expect(formatHourSlot('08:00', { language: 'pt' })).toBe('08:00');
    expect(formatHourSlot('08:00', { language: 'es' })).toBe('8:00');
    expect(formatHourSlot('19:00', { language: 'es' })).toBe('19:00');
    expect(plain(formatHourSlot('08:00', { language: 'en' }))).toBe('8:00 AM');
    expect(plain(formatHourSlot('19:00', { language: 'en' }))).toBe('7:00 PM');
    expect(formatHourSlot('later', { language: 'en' })).toBe('later');
  });
});

afterAll(async () => {
  await i18n.changeLanguage('en');
});
beforeAll(async () => {
  await i18n.changeLanguage('en');
});
