import { describe, expect, it } from 'vitest';
import { csvCell, toCsv, UTF8_BOM } from './contacts-csv.js';

describe('csvCell', () => {
  it('leaves plain text as it is', () => {
    expect(csvCell('Maria Silva')).toBe('Maria Silva');
    expect(csvCell('5511999990000')).toBe('5511999990000');
    expect(csvCell('')).toBe('');
  });

  it('quotes commas, semicolons and newlines', () => {
    expect(csvCell('Silva, Maria')).toBe('"Silva, Maria"');
    expect(csvCell('a; b')).toBe('"a; b"');
    expect(csvCell('line 1\nline 2')).toBe('"line 1\nline 2"');
    expect(csvCell('line 1\r\nline 2')).toBe('"line 1\r\nline 2"');
  });

  it('doubles quotes inside a quoted cell', () => {
    expect(csvCell('the "boss"')).toBe('"the ""boss"""');
  });

  it('keeps leading and trailing spaces by quoting', () => {
    expect(csvCell(' padded ')).toBe('" padded "');
  });

  it('neutralizes formula starts =, +, -, @, tab and carriage return with an apostrophe', () => {
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csvCell('+1+2')).toBe("'+1+2");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tcmd')).toBe("'\tcmd");
    expect(csvCell('\rcmd')).toBe(`"'\rcmd"`);
  });
});

describe('toCsv', () => {
  it('starts with a BOM and ends rows with CRLF', () => {
    expect(toCsv([['a', 'b'], ['c, d', 'e']])).toBe(`${UTF8_BOM}a,b\r\n"c, d",e\r\n`);
  });
});
