import { describe, expect, it } from 'vitest';
import { ContactInput } from './schemas/contacts.js';
import { SimulatorInboundInput } from './schemas/simulator.js';
import { UserCreateInput } from './schemas/users.js';
import {
  calendarDateField,
  dayOfInstant,
  idField,
  INPUT_MESSAGES,
  isCalendarDate,
  isTimeZone,
  isWellFormedDataUrl,
  MAX_ID,
  MESSAGES,
  pageNumberField,
} from './validation.js';

const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) => result.error?.issues[0]?.message;

describe('idField', () => {
  it('accepts positive integers up to 2147483647, as numbers or digit strings', () => {
    expect(idField.parse(1)).toBe(1);
    expect(idField.parse('42')).toBe(42);
    expect(idField.parse(' 7 ')).toBe(7);
    expect(idField.parse(MAX_ID)).toBe(MAX_ID);
    expect(idField.parse(String(MAX_ID))).toBe(MAX_ID);
  });

  it('refuses ids PostgreSQL cannot hold and numbers in other spellings with Invalid id', () => {
    for (const bad of [MAX_ID + 1, '2147483648', '1e10', 1e10, 0, -1, '-1', 1.5, '1.5', '0x10', true, [5], {}, Infinity, NaN, '9'.repeat(400)]) {
      const result = idField.safeParse(bad);
      expect(result.success, JSON.stringify(bad)).toBe(false);
      expect(firstMessage(result)).toBe(INPUT_MESSAGES.invalidId);
    }
  });

  it('says Required when the id is missing or blank', () => {
    for (const blank of [undefined, null, '', '  ']) expect(firstMessage(idField.safeParse(blank))).toBe(MESSAGES.required);
  });

  it('bounds ids inside lists and bodies (queueIds, whatsappId)', () => {
    const base = { name: 'Ana', email: 'ana@example.com', password: 'secret' };
    expect(UserCreateInput.safeParse({ ...base, queueIds: [2147483648] }).success).toBe(false);
    expect(UserCreateInput.safeParse({ ...base, whatsappId: '1e10' }).success).toBe(false);
    expect(UserCreateInput.parse({ ...base, queueIds: ['3'], whatsappId: null })).toMatchObject({ queueIds: [3], whatsappId: null });
  });
});

describe('pageNumberField', () => {
  it('defaults to 1 and refuses exponents and out-of-range pages', () => {
    expect(pageNumberField.parse(undefined)).toBe(1);
    expect(pageNumberField.parse('3')).toBe(3);
    for (const bad of ['1e10', '0', '100001', 'abc', '2.5']) expect(pageNumberField.safeParse(bad).success, bad).toBe(false);
  });
});

describe('text fields', () => {
  it("refuse the NUL character with 'Invalid character', keeping the specification's messages first", () => {
    const result = ContactInput.safeParse({ name: 'Ana\u0000', number: '5511999990000' });
    expect(firstMessage(result)).toBe(INPUT_MESSAGES.invalidCharacter);
    expect(firstMessage(ContactInput.safeParse({ name: 'A', number: '5511999990000' }))).toBe(MESSAGES.tooShort);
    expect(ContactInput.safeParse({ name: 'Ana', number: '5511999990000', extraInfo: [{ name: 'x', value: 'a\u0000' }] }).success).toBe(false);
    expect(ContactInput.safeParse({ name: 'Ana', number: '5511999990000', extraInfo: [{ name: 'x', value: 'ok' }] }).success).toBe(true);
  });
});

describe('dates', () => {
  it('accept real calendar days only', () => {
    for (const good of ['2024-02-29', '2024-12-31', '0001-01-01', '9999-12-31']) expect(isCalendarDate(good), good).toBe(true);
    for (const bad of ['2024-13-45', '2023-02-29', '2024-00-10', '2024-04-31', '0000-01-01', '2024-1-1', 'x']) {
      expect(isCalendarDate(bad), bad).toBe(false);
    }
    expect(firstMessage(calendarDateField.safeParse('2024-13-45'))).toBe(INPUT_MESSAGES.invalidDate);
    expect(firstMessage(calendarDateField.safeParse('24-1-1'))).toBe(INPUT_MESSAGES.dateFormat);
  });
});

describe('data: URLs', () => {
  it('accept base64 and percent-encoded payloads, refuse malformed ones', () => {
    expect(isWellFormedDataUrl('data:image/png;base64,iVBORw0KGgo=')).toBe(true);
    expect(isWellFormedDataUrl('data:,hello%20world')).toBe(true);
    expect(isWellFormedDataUrl('data:text/plain,%E0%A4%A')).toBe(false);
    expect(isWellFormedDataUrl('data:image/png;base64')).toBe(false);
    expect(isWellFormedDataUrl('data:image/png;base64,%%%')).toBe(false);
    const inbound = SimulatorInboundInput.safeParse({ from: '5511999990000', mediaType: 'image', mediaUrl: 'data:text/plain,%' });
    expect(firstMessage(inbound)).toBe(INPUT_MESSAGES.invalidDataUrl);
  });
});

describe('time zones', () => {
  it('tells IANA names from others, the same however often and in whatever order it is asked', () => {
    for (let round = 0; round < 3; round += 1) {
      expect(isTimeZone('America/Sao_Paulo')).toBe(true);
      expect(isTimeZone('Etc/GMT+3')).toBe(true);
      expect(isTimeZone('UTC')).toBe(true);
      expect(isTimeZone('America/Atlantis')).toBe(false);
      expect(isTimeZone('../../etc/passwd')).toBe(false);
      expect(isTimeZone('')).toBe(false);
    }
  });

  it('reads an instant\'s day in each zone asked, each zone with its own formatter', () => {
    const instant = new Date('2026-11-28T01:30:00Z');
    for (let round = 0; round < 2; round += 1) {
      expect(dayOfInstant(instant, 'America/Sao_Paulo')).toBe('2026-11-27');
      expect(dayOfInstant(instant, 'Asia/Tokyo')).toBe('2026-11-28');
      expect(dayOfInstant(instant)).toBe('2026-11-28');
    }
    expect(() => dayOfInstant(instant, 'America/Atlantis')).toThrow(RangeError);
  });
});
