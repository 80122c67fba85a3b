import type { ContactDto } from '@wadesk/contracts';

/** Byte order mark: spreadsheet programs then read the file as UTF-8. */
export const UTF8_BOM = '\uFEFF';

/** Cells a spreadsheet would run as a formula (CSV injection); they get a leading apostrophe. */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n;]/;

/** One CSV cell (RFC 4180): formula starts neutralized, quoted when it holds a comma, quote, semicolon or newline. */
export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(safe) || safe !== safe.trim() ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** A whole CSV document: BOM, CRLF line ends, a final line end. */
export function toCsv(rows: readonly (readonly string[])[]): string {
  return UTF8_BOM + rows.map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

export const CONTACTS_CSV_HEADER = ['name', 'number', 'email', 'extraInfo'] as const;

/** All contacts as CSV: name, number, e-mail and extra info flattened as "name: value; ...". */
export function contactsCsv(contacts: readonly ContactDto[]): string {
  const rows = contacts.map((c) => [
    c.name,
    c.number,
    c.email,
    c.extraInfo.map((info) => `${info.name}: ${info.value}`).join('; '),
  ]);
  return toCsv([[...CONTACTS_CSV_HEADER], ...rows]);
}
