import type { MessageDto, TicketDto } from '@wadesk/contracts';
import { describe, expect, it } from 'vitest';
import { connectedSimulator, createQueue, inbound, outbox, phoneNumbers } from '../../test/desk-factories.js';
import { eventually } from '../../test/session-helpers.js';
import { useTestApp } from '../../test/test-app.js';

/** A 1×1 PNG. */
const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

const t = useTestApp({ config: { queueMenuDebounceMs: 50 }, admin: true });
const phone = phoneNumbers(74000000, 29);

async function ticketOf(id: number): Promise<TicketDto> {
  return (await t.call<TicketDto>('GET', `/api/tickets/${id}`, { token: t.admin })).body;
}

describe("the ticket list's preview (issue 33 item 4)", () => {
  it("shows what the customer last sent, not the greeting that answered it; media as markers; a deleted message as deleted", async () => {
    const greeting = 'Olá! Bem-vindo ao nosso atendimento.';
    // Two queues: the greeting and the queue menu go out once the customer is quiet.
    const queueIds = [await createQueue(t, 'Vendas preview'), await createQueue(t, 'Suporte preview')];
    const conn = await connectedSimulator(t, { greetingMessage: greeting, queueIds });
    const number = phone();
    const ticket = await inbound(t, conn.id, { from: number, name: 'Cliente Foto', mediaType: 'image', mediaUrl: PNG, body: 'Olha a foto do produto' });
    // The greeting went out and is stored on the ticket…
    await eventually(async () => (await outbox(t, conn.id, number)).some((e) => e.body.startsWith(greeting)), 5000, 'greeting sent');
    const page = await eventually(async () => {
      const res = await t.call<{ messages: MessageDto[] }>('GET', `/api/messages/${ticket.id}`, { token: t.admin });
      return res.body.messages.length === 2 ? res.body : null;
    }, 5000, 'greeting stored');
    expect(page.messages.map((m) => m.senderKind)).toEqual(['contact', 'auto']);
    // …but the row shows the customer's photo and caption.
    expect((await ticketOf(ticket.id)).lastMessage).toBe('[image] Olha a foto do produto');

    await inbound(t, conn.id, { from: number, mediaType: 'location', body: '-23.56,-46.65|Av. Paulista, 1578' });
    expect((await ticketOf(ticket.id)).lastMessage).toBe('[location] Av. Paulista, 1578');

    // An attendant's reply is the preview; deleted, the preview says so.
    await t.call('PUT', `/api/tickets/${ticket.id}`, { token: t.admin, body: { status: 'open' } });
    const reply = await t.call<MessageDto>('POST', `/api/messages/${ticket.id}`, { token: t.admin, body: { body: 'Recebi, obrigado!' } });
    expect(reply.status).toBe(201);
    expect((await ticketOf(ticket.id)).lastMessage).toBe('Recebi, obrigado!');
    const deleted = await t.call<MessageDto>('DELETE', `/api/messages/${reply.body.id}`, { token: t.admin });
    expect(deleted.body.isDeleted).toBe(true);
    expect((await ticketOf(ticket.id)).lastMessage).toBe('[deleted]');
  });
});
