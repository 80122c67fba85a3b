/**
 * The one CSV writer of the desk (contacts export, campaign recipients, the chat export of the web app), safe to
 * open in a spreadsheet whether it splits lines on `,` or on `;` (the comma-decimal locales: pt-BR, es, most of
 * Europe). OWASP "CSV injection": a cell a spreadsheet would run as a formula gets a leading apostrophe and quotes.
 */

/** Byte order mark: spreadsheet programs then read the file as UTF-8. */
export const UTF8_BOM = '\uFEFF';

/**
 * What a spreadsheet reads as the start of a formula: `=`, `+`, `-`, `@`, tab and carriage return. The apostrophe
 * is here too, so that the one written in front of a formula is always told apart from a cell's own.
 */
const TRIGGER = "=+\\-@\\t\\r'";
const STARTS_WITH_TRIGGER = new RegExp(`^[${TRIGGER}]`);
/**
 * Where a `;` locale starts a new field or a line inside a quoted cell: it does not see our `,` and its quotes,
 * so the text after a `;` or a line end begins a cell of its own and needs the same apostrophe.
 */
const INNER_START = new RegExp(`([;\\r\\n])(?=[${TRIGGER}])`, 'g');
const NEUTRALIZED_INNER_START = new RegExp(`([;\\r\\n])'(?=[${TRIGGER}])`, 'g');
const NEUTRALIZED = new RegExp(`^'(?:[${TRIGGER}]|[^]*;)`);
const NEEDS_QUOTES = /[",;\r\n]/;

/**
 * One cell (RFC 4180). A cell starting with `=`, `+`, `-`, `@`, tab, CR (or an apostrophe), and a cell holding a
 * `;`, is prefixed with `'` and quoted; inside any cell, a `;` or line end followed by one of those characters gets
 * an apostrophe after it. A cell is also quoted when it holds a comma, quote or line end, or has spaces at an end.
 * `csvCellText` undoes the apostrophes exactly.
 */
export function csvCell(value: string | number | null | undefined): string {
  const text = value === null || value === undefined ? '' : String(value);
  const inner = text.replace(INNER_START, "$1'");
  if (STARTS_WITH_TRIGGER.test(text) || text.includes(';')) return quoted(`'${inner}`);
  return NEEDS_QUOTES.test(inner) || inner !== inner.trim() ? quoted(inner) : inner;
}

/** A cell as `csvCell` wrote it, parsed, back to its text: the apostrophes it added are taken out. */
export function csvCellText(cell: string): string {
  return (NEUTRALIZED.test(cell) ? cell.slice(1) : cell).replace(NEUTRALIZED_INNER_START, '$1');
}

/** A whole CSV document: BOM, `,` between cells, CRLF line ends, a final line end. */
export function toCsv(rows: readonly (readonly (string | number | null | undefined)[])[]): string {
  return UTF8_BOM + rows.map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

function quoted(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}
