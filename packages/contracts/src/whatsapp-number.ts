/**
 * The one phone-number rule of the desk (issue 33 item 11): every place a person types a number (contacts, new
 * ticket, bulk sends, schedules, groups, CSV import, the send API) turns it into the digits WhatsApp knows, with
 * this pure function shared by the server (what is stored and sent) and the web (what a form says at once).
 * Built on libphonenumber-js (country calling codes and the lengths each country allows) with the Brazilian rule of
 * §5 on top; decision 0031 says which Brazilian form is the WhatsApp id.
 */
import { validatePhoneNumberLength } from 'libphonenumber-js/min';

/** Why a line is not a number we send to. */
export type NumberProblem =
  | 'NOT_A_NUMBER'
  | 'TOO_SHORT'
  | 'TOO_LONG'
  | 'NO_COUNTRY_CODE'
  | 'COUNTRY_LENGTH'
  | 'BRAZIL_LENGTH'
  | 'DUPLICATE';

/** Each problem in English, for API answers and forms; the web translates them (validation.number.*). */
export const NUMBER_PROBLEM_MESSAGES: Record<NumberProblem, string> = {
  NOT_A_NUMBER: 'Not a phone number',
  TOO_SHORT: 'Too short for a phone number',
  TOO_LONG: 'Too long for a phone number',
  NO_COUNTRY_CODE: 'Start with the country code (55 for Brazil, 1 for the USA)',
  COUNTRY_LENGTH: 'Not the length of a phone number of that country',
  BRAZIL_LENGTH: 'A Brazilian number needs the area code and 8 or 9 digits',
  DUPLICATE: 'Repeats an earlier line',
};

export type NumberResult = { ok: true; number: string } | { ok: false; reason: NumberProblem };

/** Characters people type around a number: spaces, dots, dashes, parentheses and a leading plus. */
const DECORATION = /[\s().-]/g;

/** E.164 allows at most 15 digits; the contact form asks for at least 8 (§5). */
const MIN_DIGITS = 8;
const MAX_DIGITS = 15;

/** Brazilian area codes (DDD) up to this one carry the ninth digit in their WhatsApp id; above it they do not (§5). */
const LAST_NINTH_DIGIT_AREA = 30;

/**
 * A typed number as WhatsApp knows it, digits only.
 * - `+55 (21) 99876-5432`, `5521998765432@c.us` and plain digits are the same number;
 * - the number must start with a country calling code (`99912345678` has none) and have a length that country uses;
 * - Brazil (55), mobiles (8-digit subscriber starting with 6–9, or 9 digits starting with 9): area codes up to 30
 *   carry the ninth digit, so a 9 is put before the last 8 digits when missing; above 30 the number is rebuilt
 *   from its last 8 digits, without the 9 (§5). Landlines (8 digits starting with 2–5) never get a ninth digit;
 * - other countries are kept as typed (digits only).
 */
export function normalizeWhatsappNumber(text: string): NumberResult {
  let value = text.trim();
  if (value.toLowerCase().endsWith('@c.us')) value = value.slice(0, -'@c.us'.length);
  value = value.replace(DECORATION, '');
  if (value.startsWith('+')) value = value.slice(1);
  if (!/^\d+$/.test(value)) return { ok: false, reason: 'NOT_A_NUMBER' };
  if (value.length < MIN_DIGITS) return { ok: false, reason: 'TOO_SHORT' };
  if (value.length > MAX_DIGITS) return { ok: false, reason: 'TOO_LONG' };
  if (value.startsWith('55')) return brazilianNumber(value);
  switch (validatePhoneNumberLength(`+${value}`)) {
    case undefined:
      return { ok: true, number: value };
    case 'INVALID_COUNTRY':
      return { ok: false, reason: 'NO_COUNTRY_CODE' };
    case 'NOT_A_NUMBER':
      return { ok: false, reason: 'NOT_A_NUMBER' };
    default:
      return { ok: false, reason: 'COUNTRY_LENGTH' };
  }
}

function brazilianNumber(digits: string): NumberResult {
  // 55 + two-digit area code + 8 or 9 digits.
  if (digits.length !== 12 && digits.length !== 13) return { ok: false, reason: 'BRAZIL_LENGTH' };
  const areaCode = digits.slice(2, 4);
  const subscriber = digits.slice(4);
  if (subscriber.length === 9 && !subscriber.startsWith('9')) return { ok: false, reason: 'BRAZIL_LENGTH' };
  // A landline: eight digits starting with 2 to 5; it never had, and never gets, a ninth digit.
  if (subscriber.length === 8 && /^[2-5]/.test(subscriber)) return { ok: true, number: digits };
  const last8 = subscriber.slice(-8);
  const number = Number(areaCode) <= LAST_NINTH_DIGIT_AREA ? `55${areaCode}9${last8}` : `55${areaCode}${last8}`;
  return { ok: true, number };
}

/**
 * The forms one stored number may have in the contacts: a Brazilian mobile with and without its ninth digit (the
 * normalized form first); any other number only as itself. Contacts stored before the rule, or by a network that
 * reports the other form, are found by either (item 12).
 */
export function whatsappNumberForms(text: string): string[] {
  const result = normalizeWhatsappNumber(text);
  const digits = text.replace(/@.*$/, '').replace(/\D/g, '');
  if (!result.ok) return digits ? [digits] : [];
  const forms = [result.number];
  const n = result.number;
  if (n.startsWith('55') && (n.length === 13 || /^[6-9]/.test(n.slice(4)))) {
    const last8 = n.slice(-8);
    forms.push(n.length === 13 ? `${n.slice(0, 4)}${last8}` : `${n.slice(0, 4)}9${last8}`);
  }
  if (digits && !forms.includes(digits)) forms.push(digits);
  return forms;
}

export interface NumberLine {
  /** 1-based line of the text. */
  line: number;
  number: string;
}

export interface InvalidNumberLine {
  line: number;
  /** What the line held (trimmed, at most 100 characters). */
  text: string;
  reason: NumberProblem;
}

export interface NumberList {
  numbers: NumberLine[];
  invalid: InvalidNumberLine[];
}

/**
 * The recipients of a text with one number per line, in order. Blank lines are skipped; a number that repeats an
 * earlier line (after normalization) is reported as DUPLICATE and sent once.
 */
export function parseNumberLines(text: string): NumberList {
  const numbers: NumberLine[] = [];
  const invalid: InvalidNumberLine[] = [];
  const seen = new Set<string>();
  text.split(/\r\n|\r|\n/).forEach((raw, index) => {
    const line = index + 1;
    const trimmed = raw.trim();
    if (trimmed === '') return;
    const result = normalizeWhatsappNumber(trimmed);
    if (!result.ok) {
      invalid.push({ line, text: trimmed.slice(0, 100), reason: result.reason });
    } else if (seen.has(result.number)) {
      invalid.push({ line, text: trimmed.slice(0, 100), reason: 'DUPLICATE' });
    } else {
      seen.add(result.number);
      numbers.push({ line, number: result.number });
    }
  });
  return { numbers, invalid };
}

/**
 * A chat id as contacts are stored by it: a group id (`…@g.us`) as is, anything else as its digits (a `@c.us` or
 * `@s.whatsapp.net` suffix dropped).
 */
export function chatIdDigits(to: string): string {
  return to.endsWith('@g.us') ? to : to.replace(/@.*$/, '').replace(/\D/g, '');
}
