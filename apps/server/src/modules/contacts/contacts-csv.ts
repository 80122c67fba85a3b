import { toCsv, type ContactDto } from '@wadesk/contracts';

export const CONTACTS_CSV_HEADER = ['name', 'number', 'email', 'extraInfo'] as const;

/** All contacts as CSV (the desk's one writer): name, number, e-mail and extra info flattened as "name: value; ...". */
export function contactsCsv(contacts: readonly ContactDto[]): string {
  const rows = contacts.map((c) => [
    c.name,
    c.number,
    c.email,
    c.extraInfo.map((info) => `${info.name}: ${info.value}`).join('; '),
  ]);
  return toCsv([[...CONTACTS_CSV_HEADER], ...rows]);
}
