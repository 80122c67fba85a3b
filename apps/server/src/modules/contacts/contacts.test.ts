import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { contacts, messages, tickets, whatsapps } from '../../db/schema.js';
import { withAttendantTools } from '../../test/desk-factories.js';
import { nextEvent, useTestApp } from '../../test/test-app.js';
import { noDeviceContacts, uncheckedNumbers, type NumberChecker } from './contact-sources.js';
import { ContactsRepository } from './contacts.repository.js';

const t = useTestApp({ admin: true, user: true, restoreMocks: true });
afterEach(() => {
  t.app.services.contacts.setNumberChecker(uncheckedNumbers);
  t.app.services.contacts.setDeviceContactsSource(noDeviceContacts);
});

let seq = 0;
/** A fresh number (never ending in 0000). */
function newNumber(): string {
  seq += 1;
  return `55119${String(seq).padStart(7, '0')}1`;
}

interface Contact {
  id: number;
  name: string;
  number: string;
  email: string;
  extraInfo: { id: number; name: string; value: string }[];
}

async function createContact(extra: Record<string, unknown> = {}): Promise<Contact> {
  const res = await t.call('POST', '/api/contacts', {
    token: t.admin,
    body: { name: `Contact ${seq + 1}`, number: newNumber(), ...extra },
  });
  expect(res.status).toBe(201);
  return res.body as Contact;
}

/** Refuses numbers ending in 0000, like a device that does not find them on WhatsApp. */
const fakeChecker: NumberChecker = {
  checkNumber: (number) => Promise.resolve({ exists: !number.endsWith('0000') }),
};

describe('POST /api/contacts', () => {
  it('creates a contact with extra info', async () => {
    const number = newNumber();
    const res = await t.call('POST', '/api/contacts', {
      token: t.user,
      body: {
        name: 'Maria Silva',
        number,
        email: 'Maria@Example.com',
        extraInfo: [{ name: 'CPF', value: '123' }, { name: 'City', value: 'São Paulo' }],
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.any(Number),
      name: 'Maria Silva',
      number,
      email: 'maria@example.com',
      profilePicUrl: '',
      isGroup: false,
      extraInfo: [
        { id: expect.any(Number), name: 'CPF', value: '123' },
        { id: expect.any(Number), name: 'City', value: 'São Paulo' },
      ],
    });
    // The list carries each contact's extra info too, in the order it was given, by a search and in the whole list.
    const created = res.body as { id: number; extraInfo: unknown[] };
    const found = await t.call('GET', `/api/contacts?searchParam=${number}`, { token: t.user });
    expect(found.body.contacts).toEqual([expect.objectContaining({ id: created.id, extraInfo: created.extraInfo })]);
    for (let page = 1; ; page += 1) {
      const all = await t.call('GET', `/api/contacts?pageNumber=${page}`, { token: t.user });
      const listed = (all.body.contacts as { id: number; extraInfo: unknown[] }[]).find((c) => c.id === created.id);
      if (listed) {
        expect(listed.extraInfo).toEqual(created.extraInfo);
        break;
      }
      expect(all.body.hasMore).toBe(true);
    }
  });

  it('validates name 2–50, the number by the phone-number rule (issue 33 item 11), and the e-mail', async () => {
    const res = await t.call('POST', '/api/contacts', { token: t.admin, body: { name: 'M', number: '+5511999', email: 'nope' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_VALIDATION');
    expect(res.body.issues).toEqual([
      { path: 'name', message: 'Too Short!' },
      { path: 'number', message: 'Too short for a phone number' },
      { path: 'email', message: 'Invalid email' },
    ]);
    const short = await t.call('POST', '/api/contacts', { token: t.admin, body: { name: 'Short', number: '1234567' } });
    expect(short.body.issues).toEqual([{ path: 'number', message: 'Too short for a phone number' }]);
    const long = await t.call('POST', '/api/contacts', { token: t.admin, body: { name: 'x'.repeat(51), number: '1'.repeat(51) } });
    expect(long.body.issues).toEqual([
      { path: 'name', message: 'Too Long!' },
      { path: 'number', message: 'Too Long!' },
    ]);
    const empty = await t.call('POST', '/api/contacts', { token: t.admin, body: {} });
    expect(empty.body.issues).toEqual([
      { path: 'name', message: 'Required' },
      { path: 'number', message: 'Required' },
    ]);
  });

  it('refuses a number that exists with ERR_DUPLICATED_CONTACT (409)', async () => {
    const contact = await createContact();
    const res = await t.call('POST', '/api/contacts', { token: t.admin, body: { name: 'Again', number: contact.number } });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'ERR_DUPLICATED_CONTACT', message: 'A contact with this number already exists.' });
  });

  it('lets only one of two concurrent creates of one number win', async () => {
    const number = newNumber();
    const results = await Promise.all([
      t.call('POST', '/api/contacts', { token: t.admin, body: { name: 'First', number } }),
      t.call('POST', '/api/contacts', { token: t.admin, body: { name: 'Second', number, extraInfo: [{ name: 'a', value: 'b' }] } }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(results.find((r) => r.status === 409)!.body.error).toBe('ERR_DUPLICATED_CONTACT');
  });

  it('maps the unique index to ERR_DUPLICATED_CONTACT when a race gets past the friendly check', async () => {
    const contact = await createContact();
    vi.spyOn(ContactsRepository.prototype, 'numberTaken').mockResolvedValue(false);
    const res = await t.call('POST', '/api/contacts', { token: t.admin, body: { name: 'Racer', number: contact.number } });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('ERR_DUPLICATED_CONTACT');
  });

  it('refuses a number the default connection does not find on WhatsApp with ERR_WAPP_INVALID_CONTACT', async () => {
    t.app.services.contacts.setNumberChecker(fakeChecker);
    const res = await t.call('POST', '/api/contacts', { token: t.admin, body: { name: 'Nobody', number: '5511988880000' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'ERR_WAPP_INVALID_CONTACT', message: 'This is not a valid whatsapp number.' });
    const ok = await t.call('POST', '/api/contacts', { token: t.admin, body: { name: 'Somebody', number: '5511988881234' } });
    expect(ok.status).toBe(201);
  });

  it('accepts a number unchecked when no default connection can check it', async () => {
    t.app.services.contacts.setNumberChecker({ checkNumber: () => Promise.resolve(null) });
    const res = await t.call('POST', '/api/contacts', { token: t.admin, body: { name: 'Unchecked', number: '5511977770000' } });
    expect(res.status).toBe(201);
  });

  it('stores the canonical number the connection answers', async () => {
    t.app.services.contacts.setNumberChecker({
      checkNumber: (number) => Promise.resolve({ exists: true, number: number.replace(/^55119/, '5511') }),
    });
    const res = await t.call('POST', '/api/contacts', { token: t.admin, body: { name: 'Canonical', number: '5511966665555' } });
    expect(res.status).toBe(201);
    expect(res.body.number).toBe('551166665555');
  });

  it('answers ERR_WAPP_CHECK_CONTACT when the check itself fails', async () => {
    t.app.services.contacts.setNumberChecker({ checkNumber: () => Promise.reject(new Error('socket closed')) });
    const res = await t.call('POST', '/api/contacts', { token: t.admin, body: { name: 'Broken', number: newNumber() } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_WAPP_CHECK_CONTACT');
  });
});

describe('POST /api/contact', () => {
  it('creates a contact without extra info, ignoring any sent', async () => {
    const number = newNumber();
    const res = await t.call('POST', '/api/contact', {
      token: t.user,
      body: { name: 'From new ticket', number, email: '', extraInfo: [{ name: 'x', value: 'y' }] },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'From new ticket', number, extraInfo: [] });
  });

  it('applies the same rules: validation, duplicates and the WhatsApp check', async () => {
    const invalid = await t.call('POST', '/api/contact', { token: t.user, body: { name: 'No country', number: '99912345678' } });
    expect(invalid.status).toBe(400);
    const contact = await createContact();
    const duplicate = await t.call('POST', '/api/contact', { token: t.user, body: { name: 'Dup', number: contact.number } });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error).toBe('ERR_DUPLICATED_CONTACT');
    t.app.services.contacts.setNumberChecker(fakeChecker);
    const notOnWhatsapp = await t.call('POST', '/api/contact', { token: t.user, body: { name: 'Nope', number: '5511955550000' } });
    expect(notOnWhatsapp.status).toBe(400);
    expect(notOnWhatsapp.body.error).toBe('ERR_WAPP_INVALID_CONTACT');
  });
});

describe('GET /api/contacts', () => {
  it('searches name, number and e-mail, lowercased, from 3 characters on, ordered by name', async () => {
    const zeta = await createContact({ name: 'Zeta Searchable' });
    const alpha = await createContact({ name: 'alpha searchable' });
    const beta = await createContact({ name: 'Beta SEARCHABLE' });
    const byName = await t.call('GET', '/api/contacts?searchParam=%20SEARCHABLE%20', { token: t.user });
    expect(byName.status).toBe(200);
    expect(byName.body.contacts.map((c: Contact) => c.id)).toEqual([alpha.id, beta.id, zeta.id]);
    expect(byName.body).toMatchObject({ count: 3, hasMore: false });

    const byNumber = await t.call('GET', `/api/contacts?searchParam=${beta.number.slice(-9)}`, { token: t.user });
    expect(byNumber.body.contacts.map((c: Contact) => c.id)).toEqual([beta.id]);

    const mail = await createContact({ name: 'Mailed', email: 'unique.mailbox@example.org' });
    const byEmail = await t.call('GET', '/api/contacts?searchParam=UNIQUE.MAILBOX', { token: t.user });
    expect(byEmail.body.contacts.map((c: Contact) => c.id)).toEqual([mail.id]);
  });

  it('ignores a search shorter than 3 characters after trimming', async () => {
    const all = await t.call('GET', '/api/contacts', { token: t.user });
    const short = await t.call('GET', '/api/contacts?searchParam=%20zq%20', { token: t.user });
    expect(short.status).toBe(200);
    expect(short.body.count).toBe(all.body.count);
    const three = await t.call('GET', '/api/contacts?searchParam=zqx', { token: t.user });
    expect(three.body).toEqual({ contacts: [], hasMore: false, count: 0 });
  });

  it('treats % and _ in the search as plain text', async () => {
    const res = await t.call('GET', '/api/contacts?searchParam=%25%25%25', { token: t.user });
    expect(res.body.contacts).toEqual([]);
  });

  it('gives 20 contacts a page with hasMore and count', async () => {
    for (let i = 0; i < 23; i += 1) await createContact({ name: `Pager ${String(i).padStart(2, '0')}` });
    const page1 = await t.call('GET', '/api/contacts?searchParam=pager&pageNumber=1', { token: t.user });
    expect(page1.body.contacts).toHaveLength(20);
    expect(page1.body).toMatchObject({ hasMore: true, count: 23 });
    expect(page1.body.contacts[0].name).toBe('Pager 00');
    const page2 = await t.call('GET', '/api/contacts/?searchParam=pager&pageNumber=2', { token: t.user });
    expect(page2.body.contacts.map((c: Contact) => c.name)).toEqual(['Pager 20', 'Pager 21', 'Pager 22']);
    expect(page2.body.hasMore).toBe(false);
  });

  it('needs a signed-in user', async () => {
    const res = await t.call('GET', '/api/contacts');
    expect(res.status).toBe(401);
  });
});

describe('GET /api/contacts/:id', () => {
  it('gives the contact with its extra info, or ERR_NO_CONTACT_FOUND (404)', async () => {
    const contact = await createContact({ extraInfo: [{ name: 'Plan', value: 'Gold' }] });
    const res = await t.call('GET', `/api/contacts/${contact.id}`, { token: t.user });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: contact.id, extraInfo: [{ name: 'Plan', value: 'Gold' }] });
    const missing = await t.call('GET', '/api/contacts/999999', { token: t.user });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('ERR_NO_CONTACT_FOUND');
  });
});

describe('PUT /api/contacts/:id', () => {
  it('replaces the extra info: items with an id are updated, new ones inserted, missing ones deleted', async () => {
    const contact = await createContact({
      extraInfo: [
        { name: 'Keep', value: 'old' },
        { name: 'Drop 1', value: 'x' },
        { name: 'Drop 2', value: 'y' },
      ],
    });
    const [keep] = contact.extraInfo;
    const res = await t.call('PUT', `/api/contacts/${contact.id}`, {
      token: t.user,
      body: {
        name: 'Renamed',
        number: contact.number,
        email: 'renamed@example.com',
        extraInfo: [
          { id: keep!.id, name: 'Keep', value: 'new' },
          { name: 'Added', value: 'z' },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Renamed', email: 'renamed@example.com' });
    expect(res.body.extraInfo).toEqual([
      { id: keep!.id, name: 'Keep', value: 'new' },
      { id: expect.any(Number), name: 'Added', value: 'z' },
    ]);
    const stored = await t.call('GET', `/api/contacts/${contact.id}`, { token: t.user });
    expect(stored.body.extraInfo).toEqual(res.body.extraInfo);
  });

  it("keeps the extra info when none is sent, and never touches another contact's items", async () => {
    const other = await createContact({ extraInfo: [{ name: 'Theirs', value: '1' }] });
    const contact = await createContact({ extraInfo: [{ name: 'Mine', value: '2' }] });
    const kept = await t.call('PUT', `/api/contacts/${contact.id}`, { token: t.user, body: { name: 'Same', number: contact.number } });
    expect(kept.body.extraInfo).toEqual(contact.extraInfo);
    const foreignId = other.extraInfo[0]!.id;
    const res = await t.call('PUT', `/api/contacts/${contact.id}`, {
      token: t.user,
      body: { name: 'Same', number: contact.number, extraInfo: [{ id: foreignId, name: 'Stolen', value: 'x' }] },
    });
    expect(res.status).toBe(200);
    expect(res.body.extraInfo).toEqual([{ id: expect.any(Number), name: 'Stolen', value: 'x' }]);
    expect(res.body.extraInfo[0].id).not.toBe(foreignId);
    const theirs = await t.call('GET', `/api/contacts/${other.id}`, { token: t.user });
    expect(theirs.body.extraInfo).toEqual(other.extraInfo);
  });

  it("refuses another contact's number with ERR_DUPLICATED_CONTACT, and checks a changed number on WhatsApp", async () => {
    const first = await createContact();
    const second = await createContact();
    const dup = await t.call('PUT', `/api/contacts/${second.id}`, { token: t.admin, body: { name: 'Second', number: first.number } });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toBe('ERR_DUPLICATED_CONTACT');
    t.app.services.contacts.setNumberChecker(fakeChecker);
    const invalid = await t.call('PUT', `/api/contacts/${second.id}`, { token: t.admin, body: { name: 'Second', number: '5511944440000' } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error).toBe('ERR_WAPP_INVALID_CONTACT');
  });

  it("refuses a user's change of number with 403 ERR_NO_PERMISSION and keeps the stored contact", async () => {
    const contact = await createContact({ name: 'Target' });
    const res = await t.call('PUT', `/api/contacts/${contact.id}`, { token: t.user, body: { name: 'Target', number: newNumber() } });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('ERR_NO_PERMISSION');
    const stored = await t.call('GET', `/api/contacts/${contact.id}`, { token: t.admin });
    expect(stored.body).toMatchObject({ name: 'Target', number: contact.number });
    const byAdmin = await t.call('PUT', `/api/contacts/${contact.id}`, { token: t.admin, body: { name: 'Target', number: newNumber() } });
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body.number).not.toBe(contact.number);
  });

  it('does not re-check an unchanged number', async () => {
    const contact = await createContact();
    const checkNumber = vi.fn(() => Promise.resolve({ exists: false }));
    t.app.services.contacts.setNumberChecker({ checkNumber });
    const res = await t.call('PUT', `/api/contacts/${contact.id}`, { token: t.user, body: { name: 'Unchanged', number: contact.number } });
    expect(res.status).toBe(200);
    expect(checkNumber).not.toHaveBeenCalled();
  });

  it('validates and answers ERR_NO_CONTACT_FOUND for an unknown id', async () => {
    const contact = await createContact();
    const invalid = await t.call('PUT', `/api/contacts/${contact.id}`, { token: t.user, body: { name: 'Ok name', number: '12ab5678' } });
    expect(invalid.status).toBe(400);
    const missing = await t.call('PUT', '/api/contacts/999999', { token: t.user, body: { name: 'Ghost', number: newNumber() } });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('ERR_NO_CONTACT_FOUND');
  });
});

describe('DELETE /api/contacts/:id', () => {
  it('is refused to a user with 403 ERR_NO_PERMISSION (rule contacts-page:deleteContact)', async () => {
    const contact = await createContact();
    const res = await t.call('DELETE', `/api/contacts/${contact.id}`, { token: t.user });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('ERR_NO_PERMISSION');
    expect((await t.call('GET', `/api/contacts/${contact.id}`, { token: t.user })).status).toBe(200);
  });

  it('deletes the contact with its tickets and messages for an admin', async () => {
    const contact = await createContact({ extraInfo: [{ name: 'a', value: 'b' }] });
    const { db } = t.app.database;
    const [w] = await db.insert(whatsapps).values({ name: 'Phone' }).returning();
    const [ticket] = await db.insert(tickets).values({ contactId: contact.id, whatsappId: w!.id, status: 'open' }).returning();
    const [message] = await db
      .insert(messages)
      .values({ channelMessageId: 'MSG-1', whatsappId: w!.id, ticketId: ticket!.id, contactId: contact.id, body: 'hi' })
      .returning();
    const res = await t.call('DELETE', `/api/contacts/${contact.id}`, { token: t.admin });
    expect(res.status).toBe(200);
    expect((await t.call('GET', `/api/contacts/${contact.id}`, { token: t.admin })).status).toBe(404);
    expect(await db.select().from(tickets).where(eq(tickets.id, ticket!.id))).toEqual([]);
    expect(await db.select().from(messages).where(eq(messages.id, message!.id))).toEqual([]);
  });

  it('answers ERR_NO_CONTACT_FOUND for an unknown id', async () => {
    const res = await t.call('DELETE', '/api/contacts/999999', { token: t.admin });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('ERR_NO_CONTACT_FOUND');
  });
});

describe('POST /api/contacts/import', () => {
  it("creates the device's new contacts, skips existing and invalid numbers, and answers how many", async () => {
    const existing = await createContact({ name: 'Already here' });
    t.app.services.contacts.setDeviceContactsSource({
      listContacts: () =>
        Promise.resolve([
          { number: existing.number, name: 'Device name for existing' },
          { number: '5511933331111@c.us', name: 'Imported One' },
          { number: '+55 11 93333-2222', name: '  Imported Two  ' },
          { number: '5511933332222', name: 'Same number again' },
          { number: '5511933333333', name: '' },
          { number: '123', name: 'Too short' },
        ]),
    });
    const res = await t.call('POST', '/api/contacts/import', { token: t.admin });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ imported: 3 });
    const rows = await t.app.database.db.select().from(contacts);
    const byNumber = new Map(rows.map((r) => [r.number, r.name]));
    expect(byNumber.get(existing.number)).toBe('Already here');
    expect(byNumber.get('5511933331111')).toBe('Imported One');
    expect(byNumber.get('5511933332222')).toBe('Imported Two');
    expect(byNumber.get('5511933333333')).toBe('5511933333333');
    expect(byNumber.has('123')).toBe(false);

    const again = await t.call('POST', '/api/contacts/import', { token: t.admin });
    expect(again.body).toEqual({ imported: 0 });
  });

  it('answers ERR_NO_DEF_WAPP_FOUND when no default connection can list contacts', async () => {
    const res = await t.call('POST', '/api/contacts/import', { token: t.admin });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('ERR_NO_DEF_WAPP_FOUND');
  });

  it('is refused to a user (403) while attendantTools leaves contactsImport out', async () => {
    await withAttendantTools(t, 'contactsExport', async () => {
      const res = await t.call('POST', '/api/contacts/import', { token: t.user });
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('ERR_NO_PERMISSION');
    });
  });
});

describe('GET /api/contacts/export.csv', () => {
  async function download(token?: string) {
    return t.app.http.inject({
      method: 'GET',
      url: '/api/contacts/export.csv',
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
  }

  it('downloads every contact as UTF-8 CSV with BOM, header, flattened extra info and proper quoting', async () => {
    const tricky = await createContact({
      name: 'Silva, "Zé"',
      email: 'ze@example.com',
      extraInfo: [
        { name: 'Note', value: '=1+2' },
        { name: 'Line', value: 'a\nb' },
      ],
    });
    const res = await download(t.admin);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="contacts.csv"');
    const raw = res.rawPayload;
    expect([...raw.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = raw.toString('utf8');
    expect(text.startsWith('\uFEFFname,number,email,extraInfo\r\n')).toBe(true);
    expect(text).toContain(`"Silva, ""Zé""",${tricky.number},ze@example.com,"'Note: =1+2; Line: a\nb"\r\n`);
    const { count } = (await t.call('GET', '/api/contacts', { token: t.admin })).body as { count: number };
    const lines = text.split('\r\n').filter((l) => l !== '');
    expect(lines).toHaveLength(count + 1);
  });

  it('neutralizes cells that a spreadsheet would run as formulas', async () => {
    const contact = await createContact({ name: '=cmd|calc', extraInfo: [] });
    const text = (await download(t.admin)).rawPayload.toString('utf8');
    expect(text).toContain(`"'=cmd|calc",${contact.number},,\r\n`);
  });

  it('is refused to a user (403 ERR_NO_PERMISSION) while attendantTools leaves contactsExport out; open by default', async () => {
    await withAttendantTools(t, 'contactsImport', async () => {
      const res = await download(t.user);
      expect(res.statusCode).toBe(403);
      expect(JSON.parse(res.body).error).toBe('ERR_NO_PERMISSION');
    });
    expect((await download(t.user)).statusCode).toBe(200);
  });

  it('needs a signed-in user', async () => {
    expect((await download()).statusCode).toBe(401);
  });
});

describe('contact socket events', () => {
  it('tells every signed-in socket about create, update and delete', async () => {
    const socket = await t.socket(t.user);
    const created = nextEvent<{ action: string; contact: Contact }>(socket, 'contact');
    const contact = await createContact({ name: 'Live contact', extraInfo: [{ name: 'k', value: 'v' }] });
    expect(await created).toMatchObject({ action: 'create', contact: { id: contact.id, name: 'Live contact', extraInfo: [{ name: 'k' }] } });

    const updated = nextEvent<{ action: string; contact: Contact }>(socket, 'contact');
    await t.call('PUT', `/api/contacts/${contact.id}`, { token: t.admin, body: { name: 'Live contact 2', number: contact.number } });
    expect(await updated).toMatchObject({ action: 'update', contact: { id: contact.id, name: 'Live contact 2' } });

    const deleted = nextEvent(socket, 'contact');
    await t.call('DELETE', `/api/contacts/${contact.id}`, { token: t.admin });
    expect(await deleted).toEqual({ action: 'delete', contactId: contact.id });
  });
});
