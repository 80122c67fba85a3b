import type { ContactDto } from '@wadesk/contracts';
import { describe, expect, it } from 'vitest';
import { contactsCsv } from './contacts-csv.js';

function contact(fields: Partial<Omit<ContactDto, 'extraInfo'>> & { extraInfo?: { name: string; value: string }[] }): ContactDto {
  const { extraInfo = [], ...rest } = fields;
  const at = '2024-01-01T00:00:00.000Z';
  return {
    id: 1,
    name: 'Ana',
    number: '5511999990000',
    email: '',
    profilePicUrl: '',
    isGroup: false,
    labels: [],
    createdAt: at,
    updatedAt: at,
    ...rest,
    extraInfo: extraInfo.map((info, i) => ({ id: i + 1, ...info })),
  };
}

describe('contactsCsv', () => {
  it('writes the header, then a line a contact: name, number, e-mail, extra info as "name: value; ..."', () => {
    const csv = contactsCsv([contact({ name: 'Silva, "Zé"', email: 'ze@example.com', extraInfo: [{ name: 'CPF', value: '123' }] })]);
    expect(csv).toBe('\uFEFFname,number,email,extraInfo\r\n"Silva, ""Zé""",5511999990000,ze@example.com,CPF: 123\r\n');
  });

  it('neutralizes formulas in every column, for `,` and `;` spreadsheets alike', () => {
    const csv = contactsCsv([
      contact({ name: '=cmd|calc', number: '+5511999990000', email: '@x', extraInfo: [{ name: 'Note', value: '=1+2' }, { name: 'Plan', value: 'Gold' }] }),
    ]);
    expect(csv.split('\r\n')[1]).toBe(`"'=cmd|calc","'+5511999990000","'@x","'Note: =1+2; Plan: Gold"`);
    const injected = contactsCsv([contact({ name: 'x;=HYPERLINK("http://evil")' })]);
    expect(injected.split('\r\n')[1]).toBe(`"'x;'=HYPERLINK(""http://evil"")",5511999990000,,`);
  });
});
