import {
  CONTACT_CSV_IMPORT_MAX_LINES,
  ContactInput,
  csvCellText,
  MESSAGES,
  NUMBER_PROBLEM_MESSAGES,
  type ContactCsvLineReason,
  type ContactCsvPreviewRow,
} from '@wadesk/contracts';
import { AppError } from '../../http/app-error.js';
import { CsvSyntaxError, parseCsv } from './csv-parse.js';

/** English text of each reason (API clients; the web translates the code). */
export const CSV_REASON_MESSAGES: Record<ContactCsvLineReason, string> = {
  nameRequired: 'Name: required',
  nameTooShort: 'Name: at least 2 characters',
  nameTooLong: 'Name: at most 50 characters',
  numberRequired: 'Number: required',
  numberInvalid: 'Number: not a phone number (international format, starting with the country code)',
  numberNoCountryCode: 'Number: start with the country code (55 for Brazil, 1 for the USA)',
  numberTooShort: 'Number: at least 8 digits',
  numberTooLong: 'Number: at most 50 digits',
  emailInvalid: 'Email: invalid',
  extraInfoInvalid: 'Extra information: a name of at most 100 characters, a value of at most 1000, at most 100 items',
  duplicateInFile: 'The number is on an earlier line of the file',
  exists: 'Skipped: the number is already a contact',
};

/** A data line read from the file, checked against the contact rules (§5) and the file's earlier lines. */
export type CsvContactLine = ContactCsvPreviewRow & { status: 'new' | 'invalid' };

type Column = 'name' | 'number' | 'email' | 'extraInfo';

/** Header names understood, compared without case, accents, spaces, dashes and underscores. */
const HEADER_ALIASES: Record<string, Column> = {
  name: 'name',
  nome: 'name',
  nombre: 'name',
  number: 'number',
  numero: 'number',
  phone: 'number',
  telefone: 'number',
  telefono: 'number',
  whatsapp: 'number',
  celular: 'number',
  mobile: 'number',
  email: 'email',
  mail: 'email',
  correo: 'email',
  correoelectronico: 'email',
  extrainfo: 'extraInfo',
};

const headerKey = (header: string) =>
  header
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[\s_-]/g, '');

/** Undoes the export's protection against spreadsheet formulas (`'=x` was written for `=x`): the writer's own inverse. */
const unneutralize = csvCellText;

/** Spaces, plus sign, dashes, dots and brackets that people and spreadsheets put in numbers. */
const NUMBER_DECORATION = /[\s+\-.()]/g;

/** The export's extra info cell, "name: value; name: value", back to a list. */
function parseExtraInfoCell(cell: string): { name: string; value: string }[] {
  return cell
    .split(/;\s*/)
    .filter((item) => item.trim() !== '')
    .map((item) => {
      const at = item.indexOf(':');
      return at < 0
        ? { name: item.trim(), value: '' }
        : { name: item.slice(0, at).trim(), value: item.slice(at + 1).trim() };
    });
}

/**
 * Decodes the uploaded bytes: UTF-8 (with or without a byte order mark); a file that is not valid UTF-8 is read
 * as Windows-1252, what older Excel versions write.
 */
export function decodeCsv(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

function invalidFile(message: string): AppError {
  return new AppError('ERR_VALIDATION', message, { issues: [{ path: 'file', message }] });
}

/**
 * Reads a contacts CSV: a header line naming the columns (name, number, email; the export's extraInfo; any other
 * column becomes an extra info item named after its header, when its cell is not empty), then one contact a
 * line. Each line is checked with the contact form's schema; a number seen on an earlier line is a duplicate.
 * Whether the number is already a contact is for the caller. Throws ERR_VALIDATION for an unreadable file.
 */
export function readContactsCsv(text: string): CsvContactLine[] {
  let records;
  try {
    records = parseCsv(text);
  } catch (err) {
    if (err instanceof CsvSyntaxError) throw invalidFile(err.message);
    throw err;
  }
  const [header, ...lines] = records;
  if (!header) throw invalidFile('The file is empty: it needs a header line with name and number columns.');
  if (lines.length > CONTACT_CSV_IMPORT_MAX_LINES) {
    const message = `At most ${CONTACT_CSV_IMPORT_MAX_LINES} contacts a file.`;
    throw new AppError('ERR_PAYLOAD_TOO_LARGE', message, { issues: [{ path: 'file', message }] });
  }

  const columns = new Map<Column, number>();
  const extraColumns: { index: number; name: string }[] = [];
  header.cells.forEach((raw, index) => {
    const title = unneutralize(raw).trim();
    const column = HEADER_ALIASES[headerKey(title)];
    if (column && !columns.has(column)) columns.set(column, index);
    else if (title !== '') extraColumns.push({ index, name: title.slice(0, 100) });
  });
  if (!columns.has('name') || !columns.has('number')) {
    throw invalidFile('The header line needs a name column and a number column.');
  }

  const firstLineOf = new Map<string, number>();
  return lines.map(({ line, cells }) => {
    const cell = (index: number | undefined) => (index === undefined ? '' : unneutralize(cells[index] ?? '').trim());
    const extraInfo = [
      ...(columns.has('extraInfo') ? parseExtraInfoCell(cell(columns.get('extraInfo'))) : []),
      ...extraColumns.map(({ index, name }) => ({ name, value: cell(index) })).filter((item) => item.value !== ''),
    ];
    const row = {
      name: cell(columns.get('name')),
      number: cell(columns.get('number')).replace(NUMBER_DECORATION, ''),
      email: cell(columns.get('email')),
      extraInfo,
    };
    const checked = ContactInput.safeParse(row);
    const reasons: ContactCsvLineReason[] = checked.success ? [] : [...new Set(checked.error.issues.map(reasonOf))];
    const number = checked.success ? checked.data.number : row.number;
    if (checked.success) {
      const first = firstLineOf.get(number);
      if (first !== undefined) reasons.push('duplicateInFile');
      else firstLineOf.set(number, line);
    }
    const data = checked.success ? checked.data : row;
    return {
      line,
      name: data.name,
      number,
      email: data.email,
      extraInfo: data.extraInfo.map(({ name, value }) => ({ name, value: value ?? '' })),
      status: reasons.length > 0 ? 'invalid' : 'new',
      reasons,
    };
  });
}

/** The reason behind one schema issue, from its field and the specification's message. */
function reasonOf(issue: { path: PropertyKey[]; message: string }): ContactCsvLineReason {
  const [field] = issue.path;
  const { message } = issue;
  switch (field) {
    case 'name':
      if (message === MESSAGES.tooLong) return 'nameTooLong';
      return message === MESSAGES.required ? 'nameRequired' : 'nameTooShort';
    case 'number':
      if (message === MESSAGES.tooLong || message === NUMBER_PROBLEM_MESSAGES.TOO_LONG) return 'numberTooLong';
      if (message === MESSAGES.tooShort || message === NUMBER_PROBLEM_MESSAGES.TOO_SHORT) return 'numberTooShort';
      if (message === NUMBER_PROBLEM_MESSAGES.NO_COUNTRY_CODE) return 'numberNoCountryCode';
      return message === MESSAGES.required ? 'numberRequired' : 'numberInvalid';
    case 'email':
      return 'emailInvalid';
    default:
      return 'extraInfoInvalid';
  }
}
