import type { MessageDto, TicketDto, WhatsappDto } from '@wadesk/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { connectedSimulator, inbound, phoneNumbers } from '../../test/desk-factories.js';
import { useTestApp } from '../../test/test-app.js';

const t = useTestApp({ admin: true });
let conn: WhatsappDto;
const phone = phoneNumbers(73000000, 19);

beforeAll(async () => {
  conn = await connectedSimulator(t, { name: 'Peek Connection' });
});

type Page = { messages: MessageDto[]; ticket: TicketDto };

describe('GET /api/messages/:ticketId and View (peek, §4)', () => {
  it('with markRead=false reads the messages without marking the ticket read or moving it', async () => {
    const ticket = await inbound(t, conn.id, { from: phone(), name: 'Peeked', body: 'first' });
    const before = (await t.call<TicketDto>('GET', `/api/tickets/${ticket.id}`, { token: t.admin })).body;
    expect(before.unreadMessages).toBe(1);

    const peek = await t.call<Page>('GET', `/api/messages/${ticket.id}?pageNumber=1&markRead=false`, { token: t.admin });
    expect(peek.status).toBe(200);
    expect(peek.body.messages.map((m) => m.body)).toContain('first');
    expect(peek.body.ticket.unreadMessages).toBe(1);
    const after = (await t.call<TicketDto>('GET', `/api/tickets/${ticket.id}`, { token: t.admin })).body;
    expect(after).toMatchObject({ status: 'pending', unreadMessages: 1, updatedAt: before.updatedAt });

    // Without the flag (opening the ticket) it is read, as before.
    const read = await t.call<Page>('GET', `/api/messages/${ticket.id}`, { token: t.admin });
    expect(read.body.ticket.unreadMessages).toBe(0);
    expect((await t.call<TicketDto>('GET', `/api/tickets/${ticket.id}`, { token: t.admin })).body.unreadMessages).toBe(0);
  });

  it('refuses a markRead value that is not true or false', async () => {
    const ticket = await inbound(t, conn.id, { from: phone(), name: 'Bad flag', body: 'hi' });
    const res = await t.call('GET', `/api/messages/${ticket.id}?markRead=maybe`, { token: t.admin });
    expect(res.status).toBe(400);
  });
});

describe('the ticket row time (§2): lastMessageAt', () => {
  it('is the newest message time, and a later status change does not move it', async () => {
    const ticket = await inbound(t, conn.id, { from: phone(), name: 'Timed', body: 'hello' });
    const page = await t.call<Page>('GET', `/api/messages/${ticket.id}?markRead=false`, { token: t.admin });
    const newest = page.body.messages.at(-1)!;
    const listed = (await t.call<TicketDto>('GET', `/api/tickets/${ticket.id}`, { token: t.admin })).body;
    expect(listed.lastMessageAt).toBe(new Date(newest.createdAt).toISOString());

    await new Promise((resolve) => setTimeout(resolve, 20));
    const accepted = await t.call<TicketDto>('PUT', `/api/tickets/${ticket.id}`, { token: t.admin, body: { status: 'open' } });
    expect(accepted.body.updatedAt).not.toBe(listed.updatedAt);
    expect(accepted.body.lastMessageAt).toBe(listed.lastMessageAt);
    const list = await t.call<{ tickets: TicketDto[] }>('GET', '/api/tickets?status=open&showAll=true', { token: t.admin });
    expect(list.body.tickets.find((x) => x.id === ticket.id)?.lastMessageAt).toBe(listed.lastMessageAt);
  });

  it('is null for a ticket without messages', async () => {
    const contact = await t.call<{ id: number }>('POST', '/api/contacts', { token: t.admin, body: { name: 'No messages', number: phone() } });
    const created = await t.call<TicketDto>('POST', '/api/tickets', { token: t.admin, body: { contactId: contact.body.id, status: 'open' } });
    expect(created.status).toBeLessThan(300);
    expect(created.body.lastMessageAt).toBeNull();
  });
});
