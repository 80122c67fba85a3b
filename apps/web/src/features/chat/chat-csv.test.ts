import { csvCellText, type MessageDto, type TicketDto } from '@wadesk/contracts';
import { describe, expect, it } from 'vitest';
import { formatDate, formatTime } from '../../services/dates';
import { chatCsv } from './chat-csv';

const ticket = { id: 7, contact: { name: 'Cliente' } } as TicketDto;

function message(body: string, fromMe = false): MessageDto {
  return { body, fromMe, isDeleted: false, mediaType: null, participantName: null, contact: null, createdAt: '2024-03-05T14:07:00.000Z' } as unknown as MessageDto;
}

describe('the chat export (CSV)', () => {
  it('writes a BOM, a header and a line a message: date, time, sender, text', () => {
    const csv = chatCsv(ticket, [message('Olá, tudo bem?'), message('Sim', true)], 'Ana');
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe('\uFEFFdate,time,from,message');
    // The day and time as the desk shows them (the interface language, the browser's time zone).
    const at = '2024-03-05T14:07:00.000Z';
    expect(lines[1]).toBe(`${formatDate(at)},${formatTime(at)},Cliente,"Olá, tudo bem?"`);
    expect(lines[2]).toMatch(/,Ana,Sim$/);
  });

  it('marks an internal note as one, with its author (issue 36 §1)', () => {
    const note = { ...message('Cliente VIP', true), private: true, sentBy: { id: 3, name: 'Bia' } } as MessageDto;
    const lines = chatCsv(ticket, [note, message('Olá', true)], 'Ana', 'Nota').split('\r\n');
    expect(lines[1]).toMatch(/,Nota · Bia,Cliente VIP$/);
    expect(lines[2]).toMatch(/,Ana,Olá$/);
  });

  it("opens a customer's formula as text, in `,` and `;` spreadsheets alike", () => {
    const typed = ['=HYPERLINK("http://evil.example","click")', '+5511999990000', '-1+1', '@SUM(1)', 'ok;=cmd|calc', 'line\n=1+1'];
    const csv = chatCsv(ticket, typed.map((body) => message(body)), 'Ana');
    const lines = csv.split('\r\n');
    expect(lines[1]).toMatch(/,Cliente,"'=HYPERLINK\(""http:\/\/evil.example"",""click""\)"$/);
    expect(lines[2]).toMatch(/,Cliente,"'\+5511999990000"$/);
    expect(lines[5]).toMatch(/,Cliente,"'ok;'=cmd\|calc"$/);
    // A `;` spreadsheet splits each line on `;` (a quote counts only at a field's start): no field starts a formula.
    const fields = csv.replace('\uFEFF', '').split(/\r\n|\r|\n/).flatMap((l) => l.split(';')).map((f) => f.replace(/^"/, ''));
    for (const field of fields) expect(field).not.toMatch(/^[=+\-@\t\r]/);
    expect(csvCellText(`'ok;'=cmd|calc`)).toBe('ok;=cmd|calc');
  });
});
