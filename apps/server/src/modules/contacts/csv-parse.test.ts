import { csvCellText, toCsv } from '@wadesk/contracts';
import { describe, expect, it } from 'vitest';
import { CsvSyntaxError, detectSeparator, parseCsv } from './csv-parse.js';

const cells = (text: string, separator?: ',' | ';') => parseCsv(text, separator).map((r) => r.cells);

describe('parseCsv', () => {
  it('splits lines and cells, with CRLF, LF or CR line ends', () => {
    expect(cells('a,b\r\nc,d\ne,f\rg,h')).toEqual([['a', 'b'], ['c', 'd'], ['e', 'f'], ['g', 'h']]);
  });

  it('reads quoted cells with separators, doubled quotes and line ends', () => {
    expect(cells('"Silva, Maria","say ""hi""","line 1\r\nline 2"\r\nx,"",y')).toEqual([
      ['Silva, Maria', 'say "hi"', 'line 1\r\nline 2'],
      ['x', '', 'y'],
    ]);
  });

  it('gives each record the line where it starts, skipping blank lines', () => {
    const records = parseCsv('h1,h2\n\n"a\nb",c\nd,e\n');
    expect(records.map((r) => r.line)).toEqual([1, 3, 5]);
  });

  it('drops a leading byte order mark', () => {
    expect(cells('\uFEFFname,number\nAna,5511')).toEqual([['name', 'number'], ['Ana', '5511']]);
  });

  it('keeps empty cells at the end of a line', () => {
    expect(cells('a,,\n')).toEqual([['a', '', '']]);
  });

  it('keeps a quote inside an unquoted cell', () => {
    expect(cells('5\'11",x')).toEqual([['5\'11"', 'x']]);
  });

  it('refuses a quoted cell that never closes, naming its line', () => {
    expect(() => parseCsv('a,b\n"open,c\nd')).toThrow(CsvSyntaxError);
    expect(() => parseCsv('a,b\n"open,c\nd')).toThrow(/line 2/);
  });

  it('reads semicolons when the header has more of them than commas', () => {
    expect(detectSeparator('nome;número;email\r\n')).toBe(';');
    expect(detectSeparator('name,number\n')).toBe(',');
    expect(detectSeparator('"a;b;c",d\n')).toBe(',');
    expect(cells('nome;número\nSilva, Maria;5511')).toEqual([['nome', 'número'], ['Silva, Maria', '5511']]);
  });

  it('reads back what toCsv writes (its formula apostrophes taken out by csvCellText)', () => {
    const rows = [['name', 'note'], ['Silva, Maria', 'say "hi"\r\nbye'], ['a; b', ' padded '], ['=1+2', 'x;@y']];
    expect(cells(toCsv(rows)).map((row) => row.map(csvCellText))).toEqual(rows);
  });
});
