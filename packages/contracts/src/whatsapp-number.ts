/**
 * Recipients' numbers for bulk sends and the send API (§5): one pure function shared by the server (what is sent)
 * and the web (the live count of valid and invalid lines).
 */

/** Why a line is not a number we send to. */
export type NumberProblem = 'NOT_A_NUMBER' | 'TOO_SHORT' | 'TOO_LONG' | 'BRAZIL_LENGTH' | 'DUPLICATE';

export type NumberResult = { ok: true; number: string } | { ok: false; reason: NumberProblem };

/** Characters people type around a number: spaces, dots, dashes, parentheses and a leading plus. */
const DECORATION = /[\s().-]/g;

/** E.164 allows at most 15 digits; the contact form asks for at least 8 (§5). */
const MIN_DIGITS = 8;
const MAX_DIGITS = 15;

/**
 * A typed number as WhatsApp knows it, digits only.
 * - `+55 (21) 99876-5432`, `5521998765432@c.us` and plain digits are the same number;
 * - Brazil (55): area codes up to 30 carry the ninth digit, so a 9 is put before the last 8 digits when missing;
 *   above 30 the number is rebuilt from its last 8 digits, without the 9 (§5);
 * - other countries are sent as typed.
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
  return { ok: true, number: value };
}

function brazilianNumber(digits: string): NumberResult {
  // 55 + two-digit area code + 8 or 9 digits.
  if (digits.length !== 12 && digits.length !== 13) return { ok: false, reason: 'BRAZIL_LENGTH' };
  const areaCode = digits.slice(2, 4);
  const subscriber = digits.slice(4);
  if (digits.length === 13 && !subscriber.startsWith('9')) return { ok: false, reason: 'BRAZIL_LENGTH' };
  const last8 = subscriber.slice(-8);
  const number = Number(areaCode) <= 30 ? `55${areaCode}9${last8}` : `55${areaCode}${last8}`;
  return { ok: true, number };
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
