import type { MessageDto, MessagesPageDto, TicketDto, WhatsappDto } from '@wadesk/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { connectedSimulator, createQueue, inbound, phoneNumbers } from '../../test/desk-factories.js';
import { eventually } from '../../test/session-helpers.js';
import { useTestApp } from '../../test/test-app.js';

const t = useTestApp({ admin: true });
let conn: WhatsappDto;
const phone = phoneNumbers(74000000, 13);
const OGG_DATA_URL = `data:audio/ogg;base64,${Buffer.from('OggS fake voice note').toString('base64')}`;
const PDF_DATA_URL = `data:application/pdf;base64,${Buffer.from('%PDF-1.4 fake').toString('base64')}`;

const page = async (ticketId: number, pageNumber = 1, token = t.admin) =>
  (await t.call<MessagesPageDto>('GET', `/api/messages/${ticketId}?pageNumber=${pageNumber}`, { token })).body;

beforeAll(async () => {
  conn = await connectedSimulator(t, { farewellMessage: 'Obrigado pelo contato!' });
});

describe('ticket events in the timeline (issue 10 item 16)', () => {
  it('records accept, transfer, resolve and reopen with who did them, returned with the messages', async () => {
    const queue = await createQueue(t, 'Timeline Q');
    const ana = await t.createUser({ name: 'Ana Timeline', queueIds: [queue] });
    const bruno = await t.createUser({ name: 'Bruno Timeline', queueIds: [queue] });
    const ticket = await inbound(t, conn.id, { from: phone(), body: 'preciso de ajuda' });

    expect((await t.call('PUT', `/api/tickets/${ticket.id}`, { token: ana.token, body: { status: 'open' } })).status).toBe(200);
    await t.call('PUT', `/api/tickets/${ticket.id}`, { token: ana.token, body: { status: 'open', userId: bruno.user.id, queueId: queue } });
    await t.call('PUT', `/api/tickets/${ticket.id}`, { token: bruno.token, body: { status: 'closed' } });
    await t.call('PUT', `/api/tickets/${ticket.id}`, { token: bruno.token, body: { status: 'open' } });

    const { events, messages } = await page(ticket.id);
    expect(events.map((e) => [e.kind, e.actor?.name])).toEqual([
      ['accepted', 'Ana Timeline'],
      ['transferred', 'Ana Timeline'],
      ['resolved', 'Bruno Timeline'],
      ['reopened', 'Bruno Timeline'],
    ]);
    expect(events[1]).toMatchObject({ toUser: { id: bruno.user.id, name: 'Bruno Timeline' }, toQueue: { id: queue, name: 'Timeline Q' } });
    // The farewell went out after the resolve, and is an automatic message.
    const farewell = messages.find((m) => m.body === 'Obrigado pelo contato!')!;
    expect(farewell.senderKind).toBe('auto');
    expect(Date.parse(farewell.createdAt)).toBeGreaterThanOrEqual(Date.parse(events[2]!.createdAt));
    expect(messages.find((m) => m.body === 'preciso de ajuda')?.senderKind).toBe('contact');
  });

  it('records a return to the queue and a transfer to another queue only', async () => {
    const queue = await createQueue(t, 'Timeline Q2');
    const ticket = await inbound(t, conn.id, { from: phone(), body: 'oi' });
    await t.call('PUT', `/api/tickets/${ticket.id}`, { token: t.admin, body: { status: 'open' } });
    await t.call('PUT', `/api/tickets/${ticket.id}`, { token: t.admin, body: { status: 'pending' } });
    await t.call('PUT', `/api/tickets/${ticket.id}`, { token: t.admin, body: { queueId: queue } });
    const { events } = await page(ticket.id);
    expect(events.map((e) => e.kind)).toEqual(['accepted', 'returned', 'transferred']);
    expect(events[2]).toMatchObject({ toQueue: { name: 'Timeline Q2' } });
    expect(events[2]?.toUser ?? null).toBeNull();
  });

  it('gives each page the events of its own span of time, each event once', async () => {
    const ticket = await inbound(t, conn.id, { from: phone(), body: 'msg 0' });
    await t.call('PUT', `/api/tickets/${ticket.id}`, { token: t.admin, body: { status: 'open' } }); // accepted, after msg 0
    for (let i = 1; i <= 24; i += 1) {
      await t.call('POST', `/api/messages/${ticket.id}`, { token: t.admin, body: { body: `msg ${i}` } });
    }
    await t.call('PUT', `/api/tickets/${ticket.id}`, { token: t.admin, body: { status: 'closed' } }); // resolved, newest
    const first = await page(ticket.id, 1);
    const second = await page(ticket.id, 2);
    expect(first.events.map((e) => e.kind)).toEqual(['resolved']);
    expect(second.events.map((e) => e.kind)).toEqual(['accepted']);
    expect(second.messages[0]?.body).toBe('msg 0');
  });
});

describe('previews of voice notes and documents, automatic messages (issue 10 item 16)', () => {
  it('shows a voice note as [audio 0:12] with its duration stored, and a document by its name', async () => {
    const from = phone();
    const voice = await inbound(t, conn.id, { from, mediaType: 'audio', mediaUrl: OGG_DATA_URL, duration: 12 });
    expect(voice.lastMessage).toBe('[audio 0:12]');
    const { messages } = await page(voice.id);
    expect(messages.at(-1)).toMatchObject({ mediaType: 'audio', mediaDuration: 12, senderKind: 'contact' });

    const doc = await inbound(t, conn.id, { from, mediaType: 'document', mediaUrl: PDF_DATA_URL });
    expect(doc.lastMessage).toMatch(/^\[other\] .+\.pdf$/);
  });

  it('quotes a voice note with its media type and duration', async () => {
    const from = phone();
    const voice = await inbound(t, conn.id, { from, id: `VOICE-${from}`, mediaType: 'audio', mediaUrl: OGG_DATA_URL, duration: 75 });
    await t.call('PUT', `/api/tickets/${voice.id}`, { token: t.admin, body: { status: 'open' } });
    const { messages } = await page(voice.id);
    const quoted = messages.find((m) => m.mediaType === 'audio')!;
    const reply = await t.call<MessageDto>('POST', `/api/messages/${voice.id}`, { token: t.admin, body: { body: 'ouvi', quotedMsg: { id: quoted.id } } });
    expect(reply.body.quotedMsg).toMatchObject({ mediaType: 'audio', mediaDuration: 75 });
    expect(reply.body.senderKind).toBe('user');
  });

  it('marks the queue menu as an automatic message', async () => {
    const q1 = await createQueue(t, 'Menu A');
    const q2 = await createQueue(t, 'Menu B');
    const withMenu = await connectedSimulator(t, { queueIds: [q1, q2], greetingMessage: 'Olá!' });
    const ticket: TicketDto = await inbound(t, withMenu.id, { from: phone(), body: 'oi' });
    const menu = await eventually(async () => (await page(ticket.id)).messages.find((m) => m.fromMe) ?? null, 5000, 'queue menu sent');
    expect(menu.senderKind).toBe('auto');
  });
});
