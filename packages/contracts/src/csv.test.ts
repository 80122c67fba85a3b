import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvCell, csvCellText, toCsv, UTF8_BOM } from './csv.js';

/** What a spreadsheet runs as a formula when a field starts with it. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * The fields a `;` locale sees in a document written with `,`: it splits every physical line on `;` and takes a
 * quote only at the start of a field (the `,` and the quotes in the middle are text to it).
 */
function semicolonLocaleFields(document: string): string[] {
  return document
    .replace(UTF8_BOM, '')
    .split(/\r\n|\r|\n/)
    .flatMap((line) => line.split(';'))
    .map((field) => field.replace(/^"/, ''));
}

/** The fields a `,` locale sees: RFC 4180 (quotes, doubled quotes, line ends inside quotes). */
function commaLocaleFields(document: string): string[] {
  const fields: string[] = [];
  const text = document.replace(UTF8_BOM, '');
  let i = 0;
  while (i < text.length) {
    let field = '';
    if (text[i] === '"') {
      i += 1;
      while (i < text.length && !(text[i] === '"' && text[i + 1] !== '"')) {
        field += text[i];
        i += text[i] === '"' ? 2 : 1;
      }
      i += 1;
    } else {
      while (i < text.length && !',\r\n'.includes(text[i]!)) field += text[i++];
    }
    fields.push(field);
    if (text.startsWith('\r\n', i)) i += 2;
    else i += 1;
  }
  return fields;
}

describe('csvCell', () => {
  it('leaves plain text and digits as they are', () => {
    expect(csvCell('Maria Silva')).toBe('Maria Silva');
    expect(csvCell('5511999990000')).toBe('5511999990000');
    expect(csvCell('')).toBe('');
    expect(csvCell(null)).toBe('');
    expect(csvCell(3)).toBe('3');
  });

  it('quotes commas, quotes, line ends and spaces at an end; doubles the quotes', () => {
    expect(csvCell('Silva, Maria')).toBe('"Silva, Maria"');
    expect(csvCell('line 1\r\nline 2')).toBe('"line 1\r\nline 2"');
    expect(csvCell('the "boss"')).toBe('"the ""boss"""');
    expect(csvCell(' padded ')).toBe('" padded "');
  });

  it('prefixes with an apostrophe and quotes a cell starting with =, +, -, @, tab or CR', () => {
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csvCell('+1+2')).toBe(`"'+1+2"`);
    expect(csvCell('-2+3')).toBe(`"'-2+3"`);
    expect(csvCell('@SUM(A1)')).toBe(`"'@SUM(A1)"`);
    expect(csvCell('\tcmd')).toBe(`"'\tcmd"`);
    expect(csvCell('\rcmd')).toBe(`"'\rcmd"`);
  });

  it('writes a number with a plus sign as text: apostrophe and quotes', () => {
    expect(csvCell('+5511999990000')).toBe(`"'+5511999990000"`);
  });

  it('prefixes and quotes a cell holding a semicolon, and neutralizes what follows each ; or line end', () => {
    expect(csvCell('a; b')).toBe(`"'a; b"`);
    expect(csvCell('x;=1+1;y')).toBe(`"'x;'=1+1;y"`);
    expect(csvCell('ok\n@cmd')).toBe(`"ok\n'@cmd"`);
  });
});

describe('toCsv', () => {
  it('starts with a BOM, separates cells with commas and ends rows with CRLF', () => {
    expect(toCsv([['a', 'b'], ['c, d', 'e']])).toBe(`${UTF8_BOM}a,b\r\n"c, d",e\r\n`);
  });

  it('gives no field that starts a formula to a `,` locale nor to a `;` locale, whatever the cells hold', () => {
    const cell = fc.oneof(fc.string(), fc.stringMatching(/^[=+\-@\t\r;'",\n a1]{0,12}$/));
    fc.assert(
      fc.property(fc.array(fc.array(cell, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 4 }), (rows) => {
        const document = toCsv(rows);
        for (const field of commaLocaleFields(document)) expect(field).not.toMatch(FORMULA_START);
        for (const field of semicolonLocaleFields(document)) expect(field).not.toMatch(FORMULA_START);
      }),
      { numRuns: 500 },
    );
  });

  it('is read back exactly: csvCellText takes out the apostrophes it added', () => {
    const cell = fc.oneof(fc.string(), fc.stringMatching(/^[=+\-@\t\r;'",\n a1]{0,12}$/));
    fc.assert(
      fc.property(fc.array(cell, { minLength: 1, maxLength: 5 }), (row) => {
        const back = commaLocaleFields(toCsv([row])).map(csvCellText);
        expect(back).toEqual(row);
      }),
      { numRuns: 500 },
    );
  });
});
