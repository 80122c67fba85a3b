import type { ContactDto, ContactListResponse, ScheduleDto, WhatsappDto } from '@wadesk/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { contacts } from '../../db/schema.js';
import { connectedSimulator, inbound, outbox, queryRows } from '../../test/desk-factories.js';
import { eventually } from '../../test/session-helpers.js';
import { useTestApp } from '../../test/test-app.js';

// Issue 33 items 11 and 12: one phone-number rule in every form, and a typed number finds its contact in any form.
const t = useTestApp({ admin: true, config: { scheduleConnectionWaitMs: 0 } });
let connection: WhatsappDto;

beforeAll(async () => {
  connection = await connectedSimulator(t, { name: 'Regra' });
});

const createContact = (name: string, number: string) => t.call<ContactDto & { error?: string; issues?: any }>('POST', '/api/contacts', { token: t.admin, body: { name, number } });

async function storeContactAsIs(name: string, number: string): Promise<number> {
  const [row] = await t.app.database.db.insert(contacts).values({ name, number }).returning({ id: contacts.id });
  return row!.id;
}

describe('the phone-number rule in the contact form (item 11)', () => {
  it('accepts "+55 11 95555-4444" and stores digits', async () => {
    const res = await createContact('Formatado', '+55 11 95555-4444');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.number).toBe('5511955554444');
  });

  it('refuses a number with no valid country code, saying so', async () => {
    const res = await createContact('Sem País', '99912345678');
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_VALIDATION');
    expect(res.body.issues).toEqual([expect.objectContaining({ path: 'number', message: 'Start with the country code (55 for Brazil, 1 for the USA)' })]);
  });

  it('does not give a Brazilian landline a ninth digit', async () => {
    const res = await createContact('Fixo', '552133334444');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.number).toBe('552133334444');
  });

  it('applies the rule when an admin changes a number, and keeps a stored number as it is', async () => {
    const id = await storeContactAsIs('Grupo Antigo', '120363025246125888');
    const kept = await t.call<ContactDto>('PUT', `/api/contacts/${id}`, { token: t.admin, body: { name: 'Grupo Renomeado', number: '120363025246125888' } });
    expect(kept.status, JSON.stringify(kept.body)).toBe(200);
    expect(kept.body).toMatchObject({ name: 'Grupo Renomeado', number: '120363025246125888' });
    const refused = await t.call('PUT', `/api/contacts/${id}`, { token: t.admin, body: { name: 'Grupo Renomeado', number: '99912345678' } });
    expect(refused.status).toBe(400);
    const changed = await t.call<ContactDto>('PUT', `/api/contacts/${id}`, { token: t.admin, body: { name: 'Agora Pessoa', number: '+55 11 97777-1212' } });
    expect(changed.body.number).toBe('5511977771212');
  });

  it('reads the CSV import with the same rule', async () => {
    const csv = 'name,number\nCSV Formatado,+55 11 96666-1313\nCSV Sem País,99912345678\nCSV Fixo,552133335555\n';
    const res = await t.call<{ preview: { number: string; status: string; reasons: string[] }[] }>('POST', '/api/contacts/import/csv?dryRun=1', {
      token: t.admin,
      body: csv,
      headers: { 'content-type': 'text/csv; charset=utf-8' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.preview.map((p) => [p.number, p.status, p.reasons])).toEqual([
      ['5511966661313', 'new', []],
      ['99912345678', 'invalid', ['numberNoCountryCode']],
      ['552133335555', 'new', []],
    ]);
  });
});

describe('a typed number finds its contact with or without the ninth digit (item 12)', () => {
  it('finds, refuses to duplicate and imports as existing a contact stored without the ninth digit', async () => {
    const id = await storeContactAsIs('Cliente Antigo', '551187651111');
    const found = await t.call<ContactListResponse>('GET', `/api/contacts?searchParam=${encodeURIComponent('+55 11 98765-1111')}`, { token: t.admin });
    expect(found.body.contacts.map((c) => c.id)).toEqual([id]);
    const duplicate = await createContact('Nome Novo', '+55 11 98765-1111');
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error).toBe('ERR_DUPLICATED_CONTACT');
    const csv = await t.call<{ preview: { status: string }[] }>('POST', '/api/contacts/import/csv?dryRun=1', {
      token: t.admin,
      body: 'name,number\nOutro Nome,5511987651111\n',
      headers: { 'content-type': 'text/csv; charset=utf-8' },
    });
    expect(csv.body.preview.map((p) => p.status)).toEqual(['exists']);
  });

  it('sends a schedule typed with the ninth digit to the contact stored without it, not to a new contact', async () => {
    const id = await storeContactAsIs('Cliente Sem Nove', '551187652222');
    const res = await t.call<ScheduleDto>('POST', '/api/schedules', {
      token: t.admin,
      body: { whatsappId: connection.id, number: '+55 11 98765-2222', body: 'Lembrete', sendAt: new Date(Date.now() + 300).toISOString() },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const sent = await eventually(async () => {
      const got = await t.call<ScheduleDto>('GET', `/api/schedules/${res.body.id}`, { token: t.admin });
      return got.body.status === 'sent' ? got.body : null;
    }, 15_000, 'schedule sent');
    const ticket = (await t.app.services.tickets.loadMany([sent.ticketId!]))[0]!;
    expect(ticket.contact.id).toBe(id);
    const named = await queryRows<{ n: number }>(t, "select count(*)::int as n from contacts where number like '%87652222'");
    expect(named[0]!.n).toBe(1);
  });

  it('the simulator gives a Brazilian customer the WhatsApp id, so the one who wrote from "+55 41 9…" receives the scheduled message', async () => {
    const ticket = await inbound(t, connection.id, { from: '+55 41 98765-3333', name: 'Cliente Curitiba', body: 'Oi' });
    // WhatsApp's id of a mobile of area code 41 has no ninth digit (decision 0031).
    expect(ticket.contact.number).toBe('554187653333');
    const res = await t.call<ScheduleDto>('POST', '/api/schedules', {
      token: t.admin,
      body: { whatsappId: connection.id, number: '+55 41 98765-3333', body: 'Sua consulta é amanhã', sendAt: new Date(Date.now() + 300).toISOString() },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await eventually(async () => {
      const got = await t.call<ScheduleDto>('GET', `/api/schedules/${res.body.id}`, { token: t.admin });
      return got.body.status === 'sent' ? got.body : null;
    }, 15_000, 'schedule sent');
    // The customer's chat on the simulated phone, as typed on the simulator page, has the message.
    expect((await outbox(t, connection.id, '5541987653333')).map((e) => e.body)).toEqual(['Sua consulta é amanhã']);
    const named = await queryRows<{ n: number }>(t, "select count(*)::int as n from contacts where number like '%87653333'");
    expect(named[0]!.n).toBe(1);
  });
});
