import type { MessageDto, TicketDto, WhatsappDto } from '@wadesk/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { connectedSimulator, createQueue, inbound, phoneNumbers, queryRows } from '../../test/desk-factories.js';
import { useTestApp } from '../../test/test-app.js';
import { MessagesRepository } from '../messages/messages.repository.js';

/**
 * Concurrent inbound messages share statements (issue 11: the lookup, the insert into an active ticket, the user of the
 * token and the live events' NOTIFYs, db/batched.ts). What each message stores and announces must be what it would be
 * alone: stored once, its ticket counted once per message, and the ticket it announces as its own message left it.
 */
const t = useTestApp({ admin: true });
const phone = phoneNumbers(75000000, 31);
let connection: WhatsappDto;

beforeAll(async () => {
  connection = await connectedSimulator(t);
});

describe('inbound messages arriving at once', () => {
  it('are stored once each, counted once each on their tickets, fewer statements than messages', async () => {
    const contacts = Array.from({ length: 12 }, () => phone());
    const tickets = await Promise.all(contacts.map((from) => inbound(t, connection.id, { from, body: 'first' })));
    const announced: { message: MessageDto; ticket: TicketDto }[] = [];
    const stop = t.app.services.events.on('message.created', (event) => {
      announced.push(structuredClone(event));
    });
    const statementsBefore = MessagesRepository.sharedInsertStatements(t.app.database.db);
    const admin = await t.adminToken();
    try {
      // Three messages a contact at once, plus a resend of one of them in the same burst.
      const sends = contacts.flatMap((from, c) => [1, 2, 3].map((n) => ({ id: `BATCH-${c}-${n}`, from, body: `message ${n} of ${c}` })));
      const answers = await Promise.all(
        [...sends, sends[0]!].map((body) => t.call<{ id: string; duplicate: boolean }>('POST', `/api/simulator/${connection.id}/inbound`, { token: admin, body })),
      );
      expect(answers.map((a) => a.status).filter((s) => s === 201)).toHaveLength(sends.length);
      expect(answers.filter((a) => a.status === 200 && a.body.duplicate)).toHaveLength(1);
    } finally {
      stop();
    }
    const statements = MessagesRepository.sharedInsertStatements(t.app.database.db) - statementsBefore;
    // Messages of one ticket never share a statement, so at least 3; 36 messages in far fewer than 36.
    expect(statements).toBeGreaterThanOrEqual(3);
    expect(statements).toBeLessThan(36 / 2);

    const stored = await queryRows<{ channel_message_id: string; n: number }>(
      t,
      `select channel_message_id, count(*)::int as n from messages where whatsapp_id = ${connection.id} and channel_message_id like 'BATCH-%' group by 1`,
    );
    expect(stored).toHaveLength(36);
    expect(stored.every((row) => row.n === 1)).toBe(true);
    for (const ticket of tickets) {
      const res = await t.call<TicketDto>('GET', `/api/tickets/${ticket.id}`, { token: admin });
      expect(res.body.unreadMessages).toBe(4);
      // Each of the ticket's three messages announced the ticket as it left it: 2, 3 and 4 unread, each once.
      const counts = announced.filter((e) => e.ticket.id === ticket.id).map((e) => e.ticket.unreadMessages);
      expect(counts.sort()).toEqual([2, 3, 4]);
      const last = announced.find((e) => e.ticket.id === ticket.id && e.ticket.unreadMessages === 4)!;
      expect(res.body.lastMessage).toBe(last.message.body);
      expect(last.message).toMatchObject({ ticketId: ticket.id, fromMe: false, read: false, ack: 0 });
    }
  });

  it('from new numbers: one contact and one ticket each, announced as stored, a second message at once joining it', async () => {
    const queueId = await createQueue(t, 'Batched queue', '');
    const withQueue = await connectedSimulator(t, { queueIds: [queueId] });
    const numbers = Array.from({ length: 10 }, () => phone());
    const announced: { message: MessageDto; ticket: TicketDto }[] = [];
    const stop = t.app.services.events.on('message.created', (event) => {
      announced.push(structuredClone(event));
    });
    const admin = await t.adminToken();
    try {
      const answers = await Promise.all(
        numbers.flatMap((from, c) =>
          [1, 2].map((n) =>
            t.call('POST', `/api/simulator/${withQueue.id}/inbound`, { token: admin, body: { id: `NEW-${c}-${n}`, from, name: `Novo Contato ${c}`, body: `new ${n}` } }),
          ),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual(numbers.flatMap(() => [201, 201]));
    } finally {
      stop();
    }
    for (const number of numbers) {
      const rows = await queryRows<{ contacts: number; tickets: number; messages: number }>(
        t,
        `select (select count(*)::int from contacts where number = '${number}') as contacts,
                (select count(*)::int from tickets t join contacts c on c.id = t.contact_id where c.number = '${number}') as tickets,
                (select count(*)::int from messages m join contacts c on c.id = m.contact_id where c.number = '${number}') as messages`,
      );
      expect(rows[0]).toEqual({ contacts: 1, tickets: 1, messages: 2 });
      const events = announced.filter((e) => e.ticket.contact.number === number);
      expect(events.map((e) => e.ticket.unreadMessages).sort()).toEqual([1, 2]);
      const latest = events.find((e) => e.ticket.unreadMessages === 2)!;
      const stored = await t.call<TicketDto>('GET', `/api/tickets/${latest.ticket.id}`, { token: admin });
      expect(latest.ticket).toEqual(stored.body);
      // The first message's ticket, built by the statement that made it, is the stored one as it was then.
      const first = events.find((e) => e.ticket.unreadMessages === 1)!;
      expect(first.ticket).toEqual({ ...stored.body, unreadMessages: 1, lastMessage: first.message.body, lastMessageAt: first.ticket.lastMessageAt, updatedAt: first.ticket.updatedAt });
      expect(first.ticket).toMatchObject({ queueId, queue: { id: queueId, name: 'Batched queue' }, status: 'pending', contact: { number, name: expect.stringMatching(/^Novo Contato/) } });
    }
  });
});
