import type { AddressInfo } from 'node:net';
import type { MessageDto, ServerEventPayload, TicketDto, UserDto, WhatsappDto } from '@wadesk/contracts';
import { sql } from 'drizzle-orm';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectedSimulator, createQueue, inbound, outbox, phoneNumbers, queryRows } from '../../test/desk-factories.js';
import { nextEvent, useTestApp } from '../../test/test-app.js';

const t = useTestApp({ admin: true });
const phone = phoneNumbers(74_000_000, 31);
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

let conn: WhatsappDto;
let sales: number;
/** Bia serves Sales; Caio serves Support only (an outsider to Sales tickets). */
let bia: { user: UserDto; token: string };
let caio: { user: UserDto; token: string };

/** A loopback SMTP server keeping what arrived (the transcript). */
const received: ParsedMail[] = [];
const smtp = new SMTPServer({
  secure: false,
  disabledCommands: ['STARTTLS'],
  authOptional: true,
  onData(stream, _session, callback) {
    simpleParser(stream).then(
      (mail) => {
        received.push(mail);
        callback();
      },
      (err: Error) => callback(err),
    );
  },
  logger: false,
});

beforeAll(async () => {
  sales = await createQueue(t, 'Notes Sales');
  const support = await createQueue(t, 'Notes Support');
  conn = await connectedSimulator(t, { queueIds: [sales] });
  bia = await t.createUser({ name: 'Bia Notes', queueIds: [sales] });
  caio = await t.createUser({ name: 'Caio Notes', queueIds: [support] });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const port = (smtp.server.address() as AddressInfo).port;
  for (const [key, value] of Object.entries({ emailHost: '127.0.0.1', emailPort: String(port), emailSecure: 'none', emailUser: '', emailFrom: 'desk@example.com', emailTo: 'boss@example.com' })) {
    const res = await t.call('PUT', `/api/settings/${key}`, { token: t.admin, body: { value } });
    expect(res.status, `${key}: ${JSON.stringify(res.body)}`).toBe(200);
  }
});

afterAll(async () => {
  await new Promise<void>((resolve) => smtp.close(resolve));
});

/** A ticket of the Sales queue, open. */
async function salesTicket(): Promise<{ ticket: TicketDto; number: string }> {
  const number = phone();
  const arrived = await inbound(t, conn.id, { from: number, body: 'preciso de ajuda', name: 'Cliente Notas' });
  const res = await t.call<TicketDto>('PUT', `/api/tickets/${arrived.id}`, { token: t.admin, body: { status: 'open', queueId: sales } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { ticket: res.body, number };
}

const note = (ticketId: number, body: string, token = t.admin, extra: Record<string, unknown> = {}) =>
  t.call<MessageDto>('POST', `/api/messages/${ticketId}`, { token, body: { body, private: true, ...extra } });

describe('internal notes (issue 36 §1)', () => {
  it('stores a note marked private, never hands it to the connection, and leaves the ticket as it was', async () => {
    const { ticket, number } = await salesTicket();
    const sentBefore = (await outbox(t, conn.id, number)).length;
    const before = (await t.call<TicketDto>('GET', `/api/tickets/${ticket.id}`, { token: t.admin })).body;
    const res = await note(ticket.id, 'Cliente VIP, oferecer frete grátis');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ private: true, fromMe: true, ack: 0, body: 'Cliente VIP, oferecer frete grátis', sentBy: { name: 'Admin' } });
    await pause(300);
    expect(await outbox(t, conn.id, number)).toHaveLength(sentBefore);
    // No send job either: nothing queued names the note.
    const jobs = await queryRows<{ n: number }>(t, sql`select count(*)::int as n from pgboss.job where data::text like ${`%"messageId":${res.body.id}%`}`).catch(() => [{ n: 0 }]);
    expect(jobs[0]!.n).toBe(0);
    // The ticket's preview, time and unread count are the conversation's.
    const after = (await t.call<TicketDto>('GET', `/api/tickets/${ticket.id}`, { token: t.admin })).body;
    expect(after).toMatchObject({ lastMessage: before.lastMessage, lastMessageAt: before.lastMessageAt, updatedAt: before.updatedAt });
    // In the chat with the flag and its author; an ordinary reply says private: false.
    const reply = await t.call<MessageDto>('POST', `/api/messages/${ticket.id}`, { token: t.admin, body: { body: 'Olá!' } });
    expect(reply.body.private).toBe(false);
    expect((await outbox(t, conn.id, number)).at(-1)).toMatchObject({ body: 'Olá!' });
    const page = (await t.call<{ messages: MessageDto[] }>('GET', `/api/messages/${ticket.id}`, { token: t.admin })).body.messages;
    expect(page.map((m) => [m.body, m.private])).toEqual([
      ['preciso de ajuda', false],
      ['Cliente VIP, oferecer frete grátis', true],
      ['Olá!', false],
    ]);
    const { ack: _a, ...stored } = page[1]!;
    const { ack: _b, ...answered } = res.body;
    expect(stored).toEqual(answered); // the page's DTO (built by PostgreSQL) is the answer's
  });

  it("is not the conversation's newest message: a reply deleted after a note still shows as deleted in the preview", async () => {
    const { ticket } = await salesTicket();
    const reply = await t.call<MessageDto>('POST', `/api/messages/${ticket.id}`, { token: t.admin, body: { body: 'Enviado hoje' } });
    await note(ticket.id, 'cliente confirmou por telefone');
    expect((await t.call<TicketDto>('GET', `/api/tickets/${ticket.id}`, { token: t.admin })).body.lastMessage).toBe('Enviado hoje');
    expect((await t.call('DELETE', `/api/messages/${reply.body.id}`, { token: t.admin })).status).toBe(200);
    expect((await t.call<TicketDto>('GET', `/api/tickets/${ticket.id}`, { token: t.admin })).body.lastMessage).toBe('[deleted]');
  });

  it('is text only, takes no reaction, and refuses an empty body', async () => {
    const { ticket } = await salesTicket();
    const media = await note(ticket.id, 'foto', t.admin, { mediaUrl: 'http://127.0.0.1:9/x.png' });
    expect(media.status).toBe(400);
    expect(media.body).toMatchObject({ error: 'ERR_VALIDATION', issues: [{ path: 'private' }] });
    expect((await note(ticket.id, '   ')).status).toBe(400);
    const created = await note(ticket.id, 'interno');
    const react = await t.call('POST', `/api/messages/${created.body.id}/react`, { token: t.admin, body: { emoji: '👍' } });
    expect(react.status).toBe(400);
  });

  it('is never quoted to the contact; a note may quote a note', async () => {
    const { ticket, number } = await salesTicket();
    const first = await note(ticket.id, 'primeira nota interna');
    const sentBefore = (await outbox(t, conn.id, number)).length;
    const quoting = await t.call('POST', `/api/messages/${ticket.id}`, { token: t.admin, body: { body: 'sobre isso', quotedMsg: { id: first.body.id } } });
    expect(quoting.status).toBe(400);
    expect(quoting.body).toMatchObject({ error: 'ERR_VALIDATION', issues: [{ path: 'quotedMsg' }] });
    expect(await outbox(t, conn.id, number)).toHaveLength(sentBefore);
    const answer = await note(ticket.id, 'concordo', t.admin, { quotedMsg: { id: first.body.id } });
    expect(answer.status).toBe(201);
    expect(answer.body.quotedMsg).toMatchObject({ id: first.body.id, body: 'primeira nota interna' });
  });

  it('is seen by whoever may see the ticket and by no one else', async () => {
    const { ticket } = await salesTicket();
    expect((await note(ticket.id, 'do colega', bia.token)).status).toBe(201);
    expect((await note(ticket.id, 'de fora', caio.token)).status).toBe(403);
    const asBia = await t.call<{ messages: MessageDto[] }>('GET', `/api/messages/${ticket.id}`, { token: bia.token });
    expect(asBia.body.messages.filter((m) => m.private).map((m) => m.body)).toEqual(['do colega']);
    expect((await t.call('GET', `/api/messages/${ticket.id}`, { token: caio.token })).status).toBe(403);
  });

  it('is found by the ticket search (the search index holds every message)', async () => {
    const { ticket } = await salesTicket();
    await note(ticket.id, 'devolução combinada zebraquartzo');
    const found = await t.call<{ tickets: TicketDto[] }>('GET', `/api/tickets?showAll=true&searchParam=zebraquartzo`, { token: t.admin });
    expect(found.status).toBe(200);
    expect(found.body.tickets.map((x) => x.id)).toEqual([ticket.id]);
    const asBia = await t.call<{ tickets: TicketDto[] }>('GET', `/api/tickets?searchParam=zebraquartzo`, { token: bia.token });
    expect(asBia.body.tickets.map((x) => x.id)).toEqual([ticket.id]);
    const asCaio = await t.call<{ tickets: TicketDto[] }>('GET', `/api/tickets?searchParam=zebraquartzo`, { token: caio.token });
    expect(asCaio.body.tickets).toEqual([]);
  });

  it('is deleted by its author or an admin only, without the network', async () => {
    const { ticket } = await salesTicket();
    const mine = await note(ticket.id, 'da Bia', bia.token);
    const admins = await note(ticket.id, 'do admin');
    expect((await t.call('DELETE', `/api/messages/${admins.body.id}`, { token: bia.token })).status).toBe(403);
    const own = await t.call<MessageDto>('DELETE', `/api/messages/${mine.body.id}`, { token: bia.token });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ isDeleted: true, private: true });
    expect((await t.call('DELETE', `/api/messages/${admins.body.id}`, { token: t.admin })).status).toBe(200);
  });

  it('is left out of the e-mailed transcript unless asked for, then shown as a note', async () => {
    const { ticket } = await salesTicket();
    await note(ticket.id, 'segredo interno');
    await t.call('POST', `/api/messages/${ticket.id}`, { token: t.admin, body: { body: 'resposta ao cliente' } });
    received.length = 0;
    const plain = await t.call('POST', `/api/tickets/${ticket.id}/email`, { token: t.admin, body: {} });
    expect(plain.status, JSON.stringify(plain.body)).toBe(200);
    const withNotes = await t.call('POST', `/api/tickets/${ticket.id}/email`, { token: t.admin, body: { includeNotes: true } });
    expect(withNotes.status).toBe(200);
    expect(received).toHaveLength(2);
    expect(received[0]!.text).toContain('resposta ao cliente');
    expect(received[0]!.text).not.toContain('segredo interno');
    expect(received[1]!.text).toMatch(/Note · Admin: segredo interno/);
  });
});

describe('mentions in notes', () => {
  let biaSocket: Socket;
  let caioSocket: Socket;
  let adminSocket: Socket;
  const got: Record<string, ServerEventPayload<'mention'>[]> = { bia: [], caio: [], admin: [] };

  beforeAll(async () => {
    biaSocket = await t.socket(bia.token);
    caioSocket = await t.socket(caio.token);
    adminSocket = await t.socket(t.admin);
    biaSocket.on('mention', (e: ServerEventPayload<'mention'>) => got.bia!.push(e));
    caioSocket.on('mention', (e: ServerEventPayload<'mention'>) => got.caio!.push(e));
    adminSocket.on('mention', (e: ServerEventPayload<'mention'>) => got.admin!.push(e));
  });
  afterAll(() => {
    for (const s of [biaSocket, caioSocket, adminSocket]) s.disconnect();
  });

  it('lists whom a note may name: the colleagues who may see the ticket, not the caller', async () => {
    const { ticket } = await salesTicket();
    const asBia = await t.call<{ users: { id: number; name: string }[] }>('GET', `/api/tickets/${ticket.id}/mentionable`, { token: bia.token });
    expect(asBia.status).toBe(200);
    const names = asBia.body.users.map((u) => u.name);
    expect(names).toContain('Admin');
    expect(names).not.toContain('Bia Notes');
    expect(names).not.toContain('Caio Notes');
    expect((await t.call('GET', `/api/tickets/${ticket.id}/mentionable`, { token: caio.token })).status).toBe(403);
  });

  it('tells the colleague named, and no one else, even when the ticket is not theirs; stores the mention', async () => {
    const { ticket } = await salesTicket();
    for (const list of Object.values(got)) list.length = 0;
    const event = nextEvent<ServerEventPayload<'mention'>>(biaSocket, 'mention');
    const res = await note(ticket.id, '@bia notes pode ligar para o cliente amanhã?');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(await event).toEqual({
      action: 'create',
      ticketId: ticket.id,
      messageId: res.body.id,
      from: { id: expect.any(Number), name: 'Admin' },
      excerpt: '@bia notes pode ligar para o cliente amanhã?',
      contactName: 'Cliente Notas',
    });
    await pause(250);
    expect(got.caio).toEqual([]);
    expect(got.admin).toEqual([]); // the author is not told of their own note
    const rows = await queryRows<{ user_id: number; ticket_id: number }>(t, sql`select user_id, ticket_id from message_mentions where message_id = ${res.body.id}`);
    expect(rows).toEqual([{ user_id: bia.user.id, ticket_id: ticket.id }]);
  });

  it('refuses a note naming a colleague who may not see the ticket (ERR_MENTION_NOT_ALLOWED), storing nothing', async () => {
    const { ticket } = await salesTicket();
    for (const list of Object.values(got)) list.length = 0;
    const res = await note(ticket.id, 'veja isto @Caio Notes e @Bia Notes');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'ERR_MENTION_NOT_ALLOWED', issues: [{ path: 'body', code: 'mentionNotAllowed', params: { name: 'Caio Notes' } }] });
    const stored = await queryRows<{ n: number }>(t, sql`select count(*)::int as n from messages where ticket_id = ${ticket.id} and private`);
    expect(stored[0]!.n).toBe(0);
    await pause(250);
    expect(got.bia).toEqual([]);
    expect(got.caio).toEqual([]);
  });

  it('names no one in a reply to the contact, nor with an e-mail address', async () => {
    const { ticket, number } = await salesTicket();
    for (const list of Object.values(got)) list.length = 0;
    const reply = await t.call('POST', `/api/messages/${ticket.id}`, { token: t.admin, body: { body: 'Falei com @Bia Notes' } });
    expect(reply.status).toBe(201);
    expect((await outbox(t, conn.id, number)).at(-1)).toMatchObject({ body: 'Falei com @Bia Notes' });
    expect((await note(ticket.id, 'escreva para bia@notes.com')).status).toBe(201);
    await pause(250);
    expect(got.bia).toEqual([]);
  });

  it("keeps a mention for the bell until the colleague opens the ticket, and only while they may see it", async () => {
    const first = await salesTicket();
    const second = await salesTicket();
    const a = await note(first.ticket.id, '@Bia Notes primeira');
    const b = await note(second.ticket.id, '@Bia Notes segunda');
    const list = async (token: string) => (await t.call<{ mentions: { messageId: number; ticketId: number; excerpt: string; from: { name: string }; contactName: string }[] }>('GET', '/api/mentions', { token })).body.mentions;
    const mine = await list(bia.token);
    expect(mine.slice(0, 2)).toMatchObject([
      { messageId: b.body.id, ticketId: second.ticket.id, excerpt: '@Bia Notes segunda', from: { name: 'Admin' }, contactName: 'Cliente Notas' },
      { messageId: a.body.id, ticketId: first.ticket.id },
    ]);
    expect(await list(caio.token)).toEqual([]);
    // Opened: seen, in every browser of hers.
    expect((await t.call('POST', `/api/tickets/${first.ticket.id}/mentions/seen`, { token: bia.token })).status).toBe(204);
    expect((await list(bia.token)).map((m) => m.messageId)).not.toContain(a.body.id);
    expect((await t.call('POST', `/api/tickets/${first.ticket.id}/mentions/seen`, { token: caio.token })).status).toBe(403);
    // The ticket moved to a queue she does not serve: its mention is no longer hers to see.
    const support = await createQueue(t, 'Notes Elsewhere');
    expect((await t.call('PUT', `/api/tickets/${second.ticket.id}`, { token: t.admin, body: { queueId: support } })).status).toBe(200);
    expect((await list(bia.token)).map((m) => m.messageId)).not.toContain(b.body.id);
  });

  it('lets an attendant of the queue name an admin', async () => {
    const { ticket } = await salesTicket();
    const event = nextEvent<ServerEventPayload<'mention'>>(adminSocket, 'mention');
    const res = await note(ticket.id, 'preciso de ajuda aqui @Admin', bia.token);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(await event).toMatchObject({ ticketId: ticket.id, from: { id: bia.user.id, name: 'Bia Notes' } });
  });
});
