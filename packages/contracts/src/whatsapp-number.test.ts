import { describe, expect, it } from 'vitest';
import { normalizeWhatsappNumber, parseNumberLines, whatsappNumberForms } from './whatsapp-number.js';

describe('normalizeWhatsappNumber (§5)', () => {
  it.each([
    // Brazil, area code ≤ 30: the ninth digit is added before the last 8 digits when missing.
    ['5511987654321', '5511987654321'],
    ['551187654321', '5511987654321'],
    ['552187654321', '5521987654321'],
    ['553087654321', '5530987654321'],
    ['+55 (11) 98765-4321', '5511987654321'],
    ['55 21 8765.4321', '5521987654321'],
    ['5511987654321@c.us', '5511987654321'],
    // Brazil, area code > 30: rebuilt from the last 8 digits, without the 9.
    ['5531987654321', '553187654321'],
    ['553187654321', '553187654321'],
    ['5585912345678', '558512345678'],
    ['5571 9 1234-5678', '557112345678'],
    // Brazilian landlines (8 digits starting with 2 to 5) never get a ninth digit (issue 33 item 11).
    ['552133334444', '552133334444'],
    ['+55 11 3333-4444', '551133334444'],
    ['554132221111', '554132221111'],
    // The form every screen of the desk accepts.
    ['+55 11 95555-4444', '5511955554444'],
    // Other countries: as typed (digits only).
    ['14155552671', '14155552671'],
    ['+351 912 345 678', '351912345678'],
    ['447911123456', '447911123456'],
    ['4915123456789', '4915123456789'],
  ])('%s → %s', (input, expected) => {
    expect(normalizeWhatsappNumber(input)).toEqual({ ok: true, number: expected });
  });

  it.each([
    ['hello', 'NOT_A_NUMBER'],
    ['55119876abc21', 'NOT_A_NUMBER'],
    ['123-456', 'TOO_SHORT'],
    ['1234567', 'TOO_SHORT'],
    ['1234567890123456', 'TOO_LONG'],
    ['55119876543', 'BRAZIL_LENGTH'],
    ['55119876543210', 'BRAZIL_LENGTH'],
    ['5511187654321', 'BRAZIL_LENGTH'],
    ['120363025246125888@g.us', 'NOT_A_NUMBER'],
    // No country calling code starts this number (issue 33 item 11).
    ['99912345678', 'NO_COUNTRY_CODE'],
    ['+999 1234 5678', 'NO_COUNTRY_CODE'],
    // A country code, but not a length that country uses.
    ['12345678', 'COUNTRY_LENGTH'],
    ['4412345', 'TOO_SHORT'],
  ])('%s is refused: %s', (input, reason) => {
    expect(normalizeWhatsappNumber(input)).toEqual({ ok: false, reason });
  });
});

describe('whatsappNumberForms (item 12)', () => {
  it.each([
    ['+55 11 95555-4444', ['5511955554444', '551155554444']],
    ['551185554444', ['5511985554444', '551185554444']],
    ['5541987654321', ['554187654321', '5541987654321']],
    ['554187654321', ['554187654321', '5541987654321']],
    ['552133334444', ['552133334444']],
    ['14155552671', ['14155552671']],
  ])('%s is found as %j', (input, forms) => {
    expect(whatsappNumberForms(input)).toEqual(forms);
  });
});

describe('parseNumberLines', () => {
  it('keeps the order and the line of each number, skips blank lines and reports the rest', () => {
    const text = '5511987654321\n\n  551187654322  \r\nnot a number\n+55 11 98765-4321\n14155552671\r\n123';
    expect(parseNumberLines(text)).toEqual({
      numbers: [
        { line: 1, number: '5511987654321' },
        { line: 3, number: '5511987654322' },
        { line: 6, number: '14155552671' },
      ],
      invalid: [
        { line: 4, text: 'not a number', reason: 'NOT_A_NUMBER' },
        { line: 5, text: '+55 11 98765-4321', reason: 'DUPLICATE' },
        { line: 7, text: '123', reason: 'TOO_SHORT' },
      ],
    });
  });

  it('finds nothing in an empty text', () => {
    expect(parseNumberLines('  \n\n')).toEqual({ numbers: [], invalid: [] });
  });
});
