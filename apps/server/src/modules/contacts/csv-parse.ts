/** One record of a CSV document and the line of the file where it starts (1-based). */
export interface CsvRecord {
  line: number;
  cells: string[];
}

export type CsvSeparator = ',' | ';';

/** A quote left open at the end of the document: everything after it would be one cell. */
export class CsvSyntaxError extends Error {
  constructor(readonly line: number) {
    super(`line ${line}: a quoted cell is never closed`);
  }
}

/**
 * The separator of a document: the one that appears more often, outside quotes, in its first line (Excel in
 * Brazil writes semicolons, most other programs commas). Comma on a tie.
 */
export function detectSeparator(text: string): CsvSeparator {
  let commas = 0;
  let semicolons = 0;
  let quoted = false;
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) break;
    else if (!quoted && char === ',') commas += 1;
    else if (!quoted && char === ';') semicolons += 1;
  }
  return semicolons > commas ? ';' : ',';
}

/**
 * Parses CSV (RFC 4180): cells separated by `separator`, quoted cells may hold separators, line ends and
 * doubled quotes; lines end with CRLF, LF or CR. A leading byte order mark is dropped. Blank lines are left
 * out. A quote inside an unquoted cell is kept as it is (lenient, like spreadsheets). Throws CsvSyntaxError
 * when a quoted cell never closes.
 */
export function parseCsv(input: string, separator: CsvSeparator = detectSeparator(input.replace(/^\uFEFF/, ''))): CsvRecord[] {
  const text = input.replace(/^\uFEFF/, '');
  const records: CsvRecord[] = [];
  let cells: string[] = [];
  let cell = '';
  let line = 1;
  let recordLine = 1;
  let quoted = false;
  let quoteLine = 1;
  /** The cell began with a quote (its text is between quotes). */
  let cellWasQuoted = false;

  const endCell = () => {
    cells.push(cell);
    cell = '';
    cellWasQuoted = false;
  };
  const endRecord = () => {
    endCell();
    const blank = cells.length === 1 && cells[0] === '';
    if (!blank) records.push({ line: recordLine, cells });
    cells = [];
  };

  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i += 1;
        } else {
          quoted = false;
        }
      } else {
        if (char === '\n' || (char === '\r' && text[i + 1] !== '\n')) line += 1;
        cell += char;
      }
      continue;
    }
    if (char === '"' && cell === '' && !cellWasQuoted) {
      quoted = true;
      cellWasQuoted = true;
      quoteLine = line;
    } else if (char === separator) {
      endCell();
    } else if (char === '\r' || char === '\n') {
      if (char === '\r' && text[i + 1] === '\n') i += 1;
      endRecord();
      line += 1;
      recordLine = line;
    } else {
      cell += char;
    }
  }
  if (quoted) throw new CsvSyntaxError(quoteLine);
  if (cell !== '' || cells.length > 0 || cellWasQuoted) endRecord();
  return records;
}
