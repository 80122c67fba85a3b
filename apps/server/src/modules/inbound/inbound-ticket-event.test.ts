import type { TicketDto, WhatsappDto } from '@wadesk/contracts';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectedSimulator, createQueue, inbound, phoneNumbers } from '../../test/desk-factories.js';
import { useTestApp } from '../../test/test-app.js';

/**
 * A message into a ticket that is already active answers the ticket as the same statement left it (built by
 * PostgreSQL, MessagesRepository.insertIntoTicket), instead of reading it again: what the live events carry must be
 * exactly what GET /api/tickets/:id reads, whatever the ticket has (queue, attendant, connection) or lacks.
 */
const t = useTestApp({ admin: true });
const phone = phoneNumbers(74000000, 29);
let withQueue: WhatsappDto;
let bare: WhatsappDto;
let queueId: number;
const announced: TicketDto[] = [];
let stop = () => {};

beforeAll(async () => {
  queueId = await createQueue(t, 'Event queue', 'Hello from the queue');
  withQueue = await connectedSimulator(t, { queueIds: [queueId] });
  bare = await connectedSimulator(t);
});

afterEach(() => {
  stop();
  announced.length = 0;
});

function listen(): void {
  stop = t.app.services.events.on('ticket.updated', ({ ticket }) => {
    announced.push(structuredClone(ticket));
  });
}

async function stored(ticketId: number): Promise<TicketDto> {
  const res = await t.call<TicketDto>('GET', `/api/tickets/${ticketId}`, { token: t.admin });
  expect(res.status).toBe(200);
  return res.body;
}

describe('the ticket announced after a message into an active ticket', () => {
  it('is the stored ticket: no queue, no attendant, the unread count and the preview moved', async () => {
    const from = phone();
    const first = await inbound(t, bare.id, { from, body: 'first', name: 'Érica Conceição' });
    listen();
    await inbound(t, bare.id, { from, body: 'second' });
    const last = announced.filter((ticket) => ticket.id === first.id).at(-1)!;
    expect(last).toMatchObject({ unreadMessages: 2, lastMessage: 'second', queue: null, user: null });
    expect(last).toEqual(await stored(first.id));
  });

  it('is the stored ticket with its queue, attendant and connection', async () => {
    const from = phone();
    const first = await inbound(t, withQueue.id, { from, body: 'oi' });
    const { user } = await t.createUser({ name: 'Ana Atendente', queueIds: [queueId] });
    const accepted = await t.call('PUT', `/api/tickets/${first.id}`, { token: t.admin, body: { status: 'open', userId: user.id, queueId } });
    expect(accepted.status).toBe(200);
    listen();
    await inbound(t, withQueue.id, { from, body: 'still there?' });
    const last = announced.filter((ticket) => ticket.id === first.id).at(-1)!;
    expect(last).toMatchObject({ status: 'open', user: { id: user.id, name: 'Ana Atendente' }, queue: { id: queueId, name: 'Event queue' } });
    expect(last.whatsapp).toEqual({ id: withQueue.id, name: withQueue.name });
    expect(last).toEqual(await stored(first.id));
  });

  it("keeps the newest message's time when the new message is older (a late delivery)", async () => {
    const from = phone();
    const first = await inbound(t, bare.id, { from, body: 'now' });
    const before = await stored(first.id);
    listen();
    const outcome = await t.app.services.sessions.receive(bare.id, {
      id: `late-${from}`,
      fromMe: false,
      chatId: from,
      isGroup: false,
      kind: 'text',
      body: 'sent an hour ago',
      timestamp: new Date(Date.parse(before.lastMessageAt!) - 3_600_000),
    });
    expect(outcome).toBe('stored');
    const last = announced.filter((ticket) => ticket.id === first.id).at(-1)!;
    expect(last.lastMessageAt).toBe(before.lastMessageAt);
    expect(last).toEqual(await stored(first.id));
  });
});
