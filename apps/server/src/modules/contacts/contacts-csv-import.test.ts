import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { contacts } from '../../db/schema.js';
import { withAttendantTools } from '../../test/desk-factories.js';
import { useTestApp } from '../../test/test-app.js';

const t = useTestApp({ admin: true, user: true });

let seq = 0;
/** A fresh number for this file (prefix 5521 is not used by the other contact tests), a mobile with its ninth digit. */
function newNumber(): string {
  seq += 1;
  return `5521998${String(seq).padStart(6, '0')}`;
}

interface ImportResult {
  /** Set on refusals. */
  error?: string;
  dryRun: boolean;
  created: number;
  skipped: number;
  errors: { line: number; reason: string; message: string }[];
  preview?: { line: number; name: string; number: string; email: string; extraInfo: { name: string; value: string }[]; status: string; reasons: string[] }[];
}

/** Sends the text as a text/csv body. */
function importCsv(body: string | Buffer, { dryRun = false, token = t.admin } = {}) {
  return t.call<ImportResult>('POST', `/api/contacts/import/csv${dryRun ? '?dryRun=1' : ''}`, {
    token,
    body,
    headers: { 'content-type': 'text/csv; charset=utf-8' },
  });
}

/** Sends the text as a multipart upload, as the web app does. */
function importMultipart(text: string, { dryRun = false, token = t.admin } = {}) {
  const boundary = '----wadesk-test-boundary';
  const body = [
    `--${boundary}`,
    'Content-Disposition: form-data; name="file"; filename="contacts.csv"',
    'Content-Type: text/csv',
    '',
    text,
    `--${boundary}--`,
    '',
  ].join('\r\n');
  return t.call<ImportResult>('POST', `/api/contacts/import/csv${dryRun ? '?dryRun=1' : ''}`, {
    token,
    body,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
}

async function contactByNumber(number: string) {
  const [row] = await t.app.database.db.select().from(contacts).where(eq(contacts.number, number));
  if (!row) return undefined;
  return (await t.call('GET', `/api/contacts/${row.id}`, { token: t.admin })).body as {
    id: number;
    name: string;
    email: string;
    extraInfo: { name: string; value: string }[];
  };
}

describe('POST /api/contacts/import/csv', () => {
  it('previews a file with errors on a dry run, line by line, and writes nothing', async () => {
    const [ok, dup, existing] = [newNumber(), newNumber(), newNumber()];
    await t.call('POST', '/api/contacts', { token: t.admin, body: { name: 'Already here', number: existing } });
    const csv = [
      'name,number,email,City',
      `Ana Souza,${ok},ana@example.com,Recife`,
      `B,${newNumber()},`,
      `Carla,12ab,`,
      `Duda,${dup},not-an-email`,
      `Eva,${dup},`,
      `Eva again,${dup},`,
      `Fábio,${existing},`,
      `Gil,123,`,
    ].join('\n');
    const res = await importCsv(csv, { dryRun: true });
    expect(res.status).toBe(200);
    expect(res.body.dryRun).toBe(true);
    expect(res.body.created).toBe(2); // Ana and Eva (line 6, the first valid line with that number)
    expect(res.body.skipped).toBe(1);
    expect(res.body.errors.map(({ line, reason }) => ({ line, reason }))).toEqual([
      { line: 3, reason: 'nameTooShort' },
      { line: 4, reason: 'numberInvalid' },
      { line: 5, reason: 'emailInvalid' },
      { line: 7, reason: 'duplicateInFile' },
      { line: 9, reason: 'numberTooShort' },
    ]);
    expect(res.body.errors[0]!.message).toMatch(/Name/);
    const preview = res.body.preview!;
    expect(preview[0]).toMatchObject({ line: 2, name: 'Ana Souza', number: ok, email: 'ana@example.com', status: 'new', extraInfo: [{ name: 'City', value: 'Recife' }] });
    expect(preview.find((p) => p.line === 8)).toMatchObject({ status: 'exists', reasons: ['exists'] });
    expect(await contactByNumber(ok)).toBeUndefined();
  });

  it('imports the valid lines with their extra columns as extra info, skipping existing numbers', async () => {
    const [a, b, existing] = [newNumber(), newNumber(), newNumber()];
    await t.call('POST', '/api/contacts', { token: t.admin, body: { name: 'Kept as is', number: existing } });
    const csv = `Name,Number,E-mail,Plan,Notes\r\nAna Lima,${a},ANA@Example.com,Gold,\r\nBeto Reis,+55 21 ${b.slice(4)},,,"call after 6pm, not before"\r\nOther,${existing},x@example.com,,\r\nBad,1,,,\r\n`;
    const res = await importCsv(csv);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ dryRun: false, created: 2, skipped: 1 });
    expect(res.body.errors).toEqual([{ line: 5, reason: 'numberTooShort', message: expect.any(String) }]);
    expect(res.body.preview).toBeUndefined();
    expect(await contactByNumber(a)).toMatchObject({ name: 'Ana Lima', email: 'ana@example.com', extraInfo: [{ name: 'Plan', value: 'Gold' }] });
    expect(await contactByNumber(b)).toMatchObject({ name: 'Beto Reis', extraInfo: [{ name: 'Notes', value: 'call after 6pm, not before' }] });
    expect(await contactByNumber(existing)).toMatchObject({ name: 'Kept as is', email: '' });
  });

  it('creates no duplicates when the same file is imported twice', async () => {
    const number = newNumber();
    const csv = `name,number\nOnce Only,${number}\n`;
    const results = await Promise.all([importCsv(csv), importCsv(csv)]);
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    expect(results.map((r) => r.body.created).sort()).toEqual([0, 1]);
    expect(results.map((r) => r.body.skipped).sort()).toEqual([0, 1]);
    const rows = await t.app.database.db.select().from(contacts).where(eq(contacts.number, number));
    expect(rows).toHaveLength(1);
  });

  it('reads UTF-8 with a byte order mark and semicolon separators (Excel in Brazil)', async () => {
    const number = newNumber();
    const csv = `\uFEFFnome;número;email;Observação\r\nJoão Ção;${number};joao@example.com;"Cliente; VIP"\r\n`;
    const res = await importCsv(Buffer.from(csv, 'utf8'));
    expect(res.body).toMatchObject({ created: 1, errors: [] });
    expect(await contactByNumber(number)).toMatchObject({ name: 'João Ção', extraInfo: [{ name: 'Observação', value: 'Cliente; VIP' }] });
  });

  it('reads a file that is not UTF-8 as Windows-1252 (older Excel)', async () => {
    const number = newNumber();
    const res = await importCsv(Buffer.from(`nome;numero\r\nJos\xe9 Concei\xe7\xe3o;${number}\r\n`, 'latin1'));
    expect(res.body).toMatchObject({ created: 1 });
    expect(await contactByNumber(number)).toMatchObject({ name: 'José Conceição' });
  });

  it('accepts a multipart upload (field file)', async () => {
    const number = newNumber();
    const dry = await importMultipart(`name,number\nMulti Part,${number}\n`, { dryRun: true });
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ dryRun: true, created: 1 });
    const res = await importMultipart(`name,number\nMulti Part,${number}\n`);
    expect(res.body).toMatchObject({ dryRun: false, created: 1 });
  });

  it('round-trips the export: exported contacts come back as skipped, and into an empty desk unchanged', async () => {
    const number = newNumber();
    const created = await t.call('POST', '/api/contacts', {
      token: t.admin,
      body: { name: '=Formula, "Quoted"', number, email: 'round@example.com', extraInfo: [{ name: 'CPF', value: '123' }, { name: 'City', value: 'São Paulo' }] },
    });
    expect(created.status).toBe(201);
    const exported = await t.app.http.inject({ method: 'GET', url: '/api/contacts/export.csv', headers: { authorization: `Bearer ${t.admin}` } });
    expect(exported.statusCode).toBe(200);

    const again = await importCsv(exported.rawPayload, { dryRun: true });
    expect(again.status).toBe(200);
    expect(again.body.errors).toEqual([]);
    expect(again.body.created).toBe(0);
    const line = again.body.preview!.find((p) => p.number === number);
    expect(line).toMatchObject({ status: 'exists', name: '=Formula, "Quoted"', email: 'round@example.com', extraInfo: [{ name: 'CPF', value: '123' }, { name: 'City', value: 'São Paulo' }] });

    // Into a desk without that contact: the same fields come back.
    await t.call('DELETE', `/api/contacts/${(created.body as { id: number }).id}`, { token: t.admin });
    const res = await importCsv(exported.rawPayload);
    expect(res.body.created).toBeGreaterThanOrEqual(1);
    expect(await contactByNumber(number)).toMatchObject({ name: '=Formula, "Quoted"', email: 'round@example.com', extraInfo: [{ name: 'CPF', value: '123' }, { name: 'City', value: 'São Paulo' }] });
  });

  it('refuses a user with 403 ERR_NO_PERMISSION while attendantTools leaves contactsImport out, and creates nothing', async () => {
    const number = newNumber();
    await withAttendantTools(t, 'contactsExport', async () => {
      const res = await importCsv(`name,number\nNot Allowed,${number}\n`, { token: t.user });
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('ERR_NO_PERMISSION');
    });
    expect(await contactByNumber(number)).toBeUndefined();
  });

  it('lets a user import by default (issue 32: attendantTools opens every tool)', async () => {
    const number = newNumber();
    const res = await importCsv(`name,number\nAllowed,${number}\n`, { token: t.user });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await contactByNumber(number)).toBeDefined();
  });

  it('refuses a file without a name or number column, an open quote, and other content types', async () => {
    const noNumber = await importCsv('name,email\nAna,ana@example.com\n');
    expect(noNumber.status).toBe(400);
    expect(noNumber.body.error).toBe('ERR_VALIDATION');
    const openQuote = await importCsv('name,number\n"Ana,55119\n');
    expect(openQuote.status).toBe(400);
    const empty = await importCsv('');
    expect(empty.status).toBe(400);
    const json = await t.call('POST', '/api/contacts/import/csv', { token: t.admin, body: { name: 'x' } });
    expect(json.status).toBe(415);
    expect(json.body.error).toBe('ERR_VALIDATION');
  });

  it('refuses files over 10,000 lines or 5 MB with 413 ERR_PAYLOAD_TOO_LARGE', async () => {
    const many = ['name,number', ...Array.from({ length: 10_001 }, (_, i) => `Person ${i},55219${String(i).padStart(8, '0')}`)].join('\n');
    const tooMany = await importCsv(many, { dryRun: true });
    expect(tooMany).toMatchObject({ status: 413, body: { error: 'ERR_PAYLOAD_TOO_LARGE' } });
    const big = await importCsv(`name,number,notes\nAna,5521900000001,${'x'.repeat(5 * 1024 * 1024)}\n`, { dryRun: true });
    expect(big).toMatchObject({ status: 413, body: { error: 'ERR_PAYLOAD_TOO_LARGE' } });
  });

  it('keeps text/csv refused on other routes', async () => {
    const res = await t.call('POST', '/api/contacts', { token: t.admin, body: 'name,number', headers: { 'content-type': 'text/csv' } });
    expect(res.status).toBe(400);
    expect(await contactByNumber('name,number')).toBeUndefined();
  });
});
