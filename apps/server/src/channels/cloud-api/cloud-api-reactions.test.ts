import type { MessageDto, TicketDto, WhatsappDto } from '@wadesk/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectedSimulator, createQueue, inbound, outbox, queryRows } from '../../test/desk-factories.js';
import { FakeGraphServer } from '../../test/fakes/cloud-api-server.js';
import { eventually } from '../../test/session-helpers.js';
import { createTestApp, nextEvent, type TestApp } from '../../test/test-app.js';

/**
 * Issue 18's remainder: reactions from the chat (on every channel that offers them), files by link and the send
 * API's single sends on a Cloud API connection, against the loopback Graph fake.
 */
const CREDENTIALS = {
  phoneNumberId: '106540352242933',
  businessAccountId: '102290129340333',
  accessToken: 'EAAG-test-access-token-4321',
  appSecret: 'app-secret-8765',
};
const graph = new FakeGraphServer({ ...CREDENTIALS, displayPhoneNumber: '+1 555-010-0001' });
let t: TestApp;
let admin: string;
let base: string;
let conn: WhatsappDto;
let apiToken: string;
let seq = 0;

function customer(): string {
  seq += 1;
  return `1555321${String(seq).padStart(4, '0')}`;
}

function wamid(): string {
  seq += 1;
  return `wamid.RX${seq}-${Date.now()}`;
}

async function storedMessage(whatsappId: number, channelMessageId: string) {
  const rows = await queryRows<{ id: number; ticket_id: number; body: string }>(
    t,
    sql`select id, ticket_id, body from messages where whatsapp_id = ${whatsappId} and channel_message_id = ${channelMessageId}`,
  );
  return rows[0] ?? null;
}

/** A customer writes: the ticket and the stored message. */
async function customerWrites(from: string, body: string): Promise<{ ticket: TicketDto; messageId: number; wamid: string }> {
  const id = wamid();
  const res = await graph.deliver(`${base}/api/webhooks/whatsapp/${conn.id}`, graph.messagesPayload(from, 'Rita', [{ id, type: 'text', text: { body } }]));
  expect(res.status).toBe(200);
  const stored = await eventually(() => storedMessage(conn.id, id), 10_000, `message ${id} stored`);
  const [ticket] = (await t.app.services.tickets.loadMany([Number(stored.ticket_id)])) as [TicketDto];
  return { ticket, messageId: Number(stored.id), wamid: id };
}

async function page(ticketId: number): Promise<MessageDto[]> {
  return (await t.call<{ messages: MessageDto[] }>('GET', `/api/messages/${ticketId}`, { token: admin })).body.messages;
}

async function jobOutput(jobId: string): Promise<Record<string, unknown>> {
  return eventually(async () => {
    const job = await t.call<{ state: string; output: Record<string, unknown> }>('GET', `/api/jobs/${jobId}`, { token: apiToken });
    return job.body.state === 'completed' ? job.body.output : null;
  }, 10_000, `job ${jobId} completed`);
}

beforeAll(async () => {
  const graphUrl = await graph.start();
  t = await createTestApp({ whatsappGraphUrl: graphUrl }, { tempDataDir: true });
  admin = await t.adminToken();
  base = await t.listen();
  const res = await t.call<WhatsappDto>('POST', '/api/whatsapp', {
    token: admin,
    body: {
      name: 'Cloud reactions',
      channel: 'cloud-api',
      cloudPhoneNumberId: CREDENTIALS.phoneNumberId,
      cloudBusinessAccountId: CREDENTIALS.businessAccountId,
      cloudAccessToken: CREDENTIALS.accessToken,
      cloudAppSecret: CREDENTIALS.appSecret,
      cloudVerifyToken: 'verify-me',
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  conn = res.body;
  await eventually(async () => t.app.services.sessions.status(conn.id) === 'CONNECTED', 5000, 'CONNECTED');
  const settings = await t.call<{ key: string; value: string }[]>('GET', '/api/settings', { token: admin });
  apiToken = settings.body.find((s) => s.key === 'userApiToken')!.value;
});

afterAll(async () => {
  await t?.close();
  await graph.stop();
});

describe('reactions from the chat (POST /api/messages/:messageId/react)', () => {
  it('sends a reaction through the Graph API, stores it as inbound reactions are (the emoji replying to the message) and tells the socket', async () => {
    const from = customer();
    const { ticket, messageId, wamid: target } = await customerWrites(from, 'Got my order, thanks');
    const socket = await t.socket(admin);
    try {
      const live = nextEvent<{ action: string; message: MessageDto }>(socket, 'appMessage', 5000);
      const res = await t.call<MessageDto>('POST', `/api/messages/${messageId}/react`, { token: admin, body: { emoji: '👍' } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body).toMatchObject({ body: '👍', fromMe: true, senderKind: 'user', quotedMsg: { id: messageId, body: 'Got my order, thanks' } });
      const event = await live;
      expect(event).toMatchObject({ action: 'create', message: { id: res.body.id, body: '👍' } });
    } finally {
      socket.disconnect();
    }
    const sent = graph.sent.at(-1)!;
    expect(sent).toMatchObject({ to: from, type: 'reaction' });
    expect(sent.body.reaction).toEqual({ message_id: target, emoji: '👍' });
    // The stored reaction took Meta's id, so its statuses find it.
    expect(await storedMessage(conn.id, sent.id)).toMatchObject({ body: '👍' });
    expect((await page(ticket.id)).filter((m) => m.body === '👍' && !m.isDeleted)).toHaveLength(1);
  });

  it('replaces the earlier reaction with a new one, and an empty emoji removes it (204): both on the network and here', async () => {
    const from = customer();
    const { ticket, messageId, wamid: target } = await customerWrites(from, 'Is it shipped?');
    const first = await t.call<MessageDto>('POST', `/api/messages/${messageId}/react`, { token: admin, body: { emoji: '👍' } });
    const second = await t.call<MessageDto>('POST', `/api/messages/${messageId}/react`, { token: admin, body: { emoji: '❤️' } });
    expect(second.status).toBe(201);
    let messages = await page(ticket.id);
    expect(messages.find((m) => m.id === first.body.id)?.isDeleted).toBe(true);
    expect(messages.find((m) => m.id === second.body.id)?.isDeleted).toBe(false);
    const removed = await t.call('POST', `/api/messages/${messageId}/react`, { token: admin, body: { emoji: '' } });
    expect(removed.status).toBe(204);
    expect(graph.sent.at(-1)!.body.reaction).toEqual({ message_id: target, emoji: '' });
    messages = await page(ticket.id);
    expect(messages.find((m) => m.id === second.body.id)?.isDeleted).toBe(true);
    // A plain reply that is not one emoji is never taken for a reaction.
    const reply = await t.call<MessageDto>('POST', `/api/messages/${ticket.id}`, { token: admin, body: { body: 'Yes 👍 today', quotedMsg: { id: messageId } } });
    await t.call('POST', `/api/messages/${messageId}/react`, { token: admin, body: { emoji: '' } });
    expect((await page(ticket.id)).find((m) => m.id === reply.body.id)?.isDeleted).toBe(false);
  });

  it('refuses what is not one emoji (400), an unknown message (404), a message the attendant cannot see (403), storing and sending nothing', async () => {
    const { ticket, messageId } = await customerWrites(customer(), 'hello');
    const before = graph.sent.length;
    const count = (await page(ticket.id)).length;
    for (const emoji of ['ok', 'a👍', '👍'.repeat(20)]) {
      const res = await t.call('POST', `/api/messages/${messageId}/react`, { token: admin, body: { emoji } });
      expect(res.status, emoji).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
    }
    expect((await t.call('POST', `/api/messages/${messageId}/react`, { token: admin, body: {} })).status).toBe(400);
    const unknown = await t.call('POST', '/api/messages/999999999/react', { token: admin, body: { emoji: '👍' } });
    expect(unknown.status).toBe(404);
    // In a queue the attendant is not in: they do not see the ticket, so not its messages either.
    const queueId = await createQueue(t, 'Reactions queue');
    const moved = await t.call('PUT', `/api/tickets/${ticket.id}`, { token: admin, body: { queueId } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const { token } = await t.createUser();
    const outsider = await t.call('POST', `/api/messages/${messageId}/react`, { token, body: { emoji: '👍' } });
    expect(outsider.status).toBe(403);
    expect((await t.app.http.inject({ method: 'POST', url: `/api/messages/${messageId}/react`, payload: { emoji: '👍' } })).statusCode).toBe(401);
    expect(graph.sent.length).toBe(before);
    expect((await page(ticket.id)).length).toBe(count);
  });

  it('shows a closed 24-hour window (131047) in words and stores nothing', async () => {
    const from = customer();
    const { ticket, messageId } = await customerWrites(from, 'late');
    const count = (await page(ticket.id)).length;
    graph.closedWindows.add(from);
    const res = await t.call('POST', `/api/messages/${messageId}/react`, { token: admin, body: { emoji: '🙏' } });
    graph.closedWindows.delete(from);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_CLOUD_API_WINDOW_CLOSED');
    expect((await page(ticket.id)).length).toBe(count);
  });

  it('is one feature for every channel: the simulator takes a reaction into its outbox', async () => {
    const sim = await connectedSimulator(t, { name: 'Sim reactions' });
    const ticket = await inbound(t, sim.id, { from: '5511987001234', body: 'hi from the phone' });
    const [message] = await page(ticket.id);
    const res = await t.call<MessageDto>('POST', `/api/messages/${message!.id}/react`, { token: admin, body: { emoji: '😂' } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ body: '😂', quotedMsg: { id: message!.id } });
    const sent = await outbox(t, sim.id, '5511987001234');
    expect(sent.at(-1)).toMatchObject({ body: '😂', mediaType: 'reaction' });
    await t.call('DELETE', `/api/whatsapp/${sim.id}`, { token: admin });
  });
});

describe('the send API on a Cloud API connection', () => {
  it('sends free-form text inside the 24-hour window, and outside it the job answers ERR_CLOUD_API_WINDOW_CLOSED in words', async () => {
    const from = customer();
    await customerWrites(from, 'hi');
    const ok = await t.call<{ jobId: string }>('POST', '/api/zdg', { body: { number: from, message: 'Your order left', token: apiToken, ticketwhatsappId: conn.id } });
    expect(ok.status).toBe(202);
    expect(await jobOutput(ok.body.jobId)).toMatchObject({ outcome: 'sent', number: from });
    expect(graph.sent.at(-1)).toMatchObject({ to: from, type: 'text', body: { text: { body: 'Your order left' } } });

    graph.closedWindows.add(from);
    const before = graph.sent.length;
    const late = await t.call<{ jobId: string }>('POST', '/api/zdg', { body: { number: from, message: 'Too late', token: apiToken, ticketwhatsappId: conn.id } });
    expect(late.status).toBe(202);
    const output = await jobOutput(late.body.jobId);
    graph.closedWindows.delete(from);
    expect(output).toMatchObject({ outcome: 'failed', number: from });
    expect(String(output.error)).toMatch(/^ERR_CLOUD_API_WINDOW_CLOSED: /);
    expect(String(output.error)).toContain('131047');
    expect(graph.sent.length).toBe(before);
  });

  it('sends an approved template given to /zdg, also outside the window; refuses a template on another channel', async () => {
    const from = customer();
    graph.closedWindows.add(from);
    const res = await t.call<{ jobId: string }>('POST', '/api/zdg', {
      body: { number: from, template: { name: 'order_update', language: 'en_US', variables: ['Ana', '#7'] }, token: apiToken, ticketwhatsappId: conn.id },
    });
    graph.closedWindows.delete(from);
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(await jobOutput(res.body.jobId)).toMatchObject({ outcome: 'sent' });
    expect(graph.sent.at(-1)).toMatchObject({ to: from, type: 'template' });
    expect(graph.sent.at(-1)!.body.template).toMatchObject({ name: 'order_update', language: { code: 'en_US' } });

    const missing = await t.call('POST', '/api/zdg', { body: { number: from, token: apiToken, ticketwhatsappId: conn.id } });
    expect(missing.status).toBe(400);
    expect(missing.body.issues).toEqual([{ path: 'message', message: 'Required' }]);
    const sim = await connectedSimulator(t, { name: 'Sim api' });
    const refused = await t.call('POST', '/api/zdg', {
      body: { number: from, template: { name: 'order_update', language: 'en_US', variables: [] }, token: apiToken, ticketwhatsappId: sim.id },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('ERR_CLOUD_API_TEMPLATE_NOT_ALLOWED');
    await t.call('DELETE', `/api/whatsapp/${sim.id}`, { token: admin });
  });

  it('sends /sendMedia and /sendMediaZDGRec by link: Meta fetches the file itself', async () => {
    const from = customer();
    await customerWrites(from, 'send the invoice');
    const image = await t.call<{ jobId: string }>('POST', '/api/sendMedia', {
      body: { number: from, url: 'https://files.example.com/shop/photo.JPEG', title: 'Your photo', token: apiToken, ticketwhatsappId: conn.id },
    });
    expect(image.status).toBe(202);
    expect(await jobOutput(image.body.jobId)).toMatchObject({ outcome: 'sent' });
    expect(graph.sent.at(-1)).toMatchObject({ to: from, type: 'image', body: { image: { link: 'https://files.example.com/shop/photo.JPEG', caption: 'Your photo' } } });

    const pdf = await t.call<{ jobId: string }>('POST', '/api/sendMediaZDG', {
      body: { number: from, url: 'https://files.example.com/docs/Invoice%2042.pdf', title: 'Invoice', token: apiToken, ticketwhatsappId: conn.id },
    });
    expect(await jobOutput(pdf.body.jobId)).toMatchObject({ outcome: 'sent' });
    expect(graph.sent.at(-1)!.body.document).toEqual({ link: 'https://files.example.com/docs/Invoice%2042.pdf', caption: 'Invoice', filename: 'Invoice 42.pdf' });

    const voice = await t.call<{ jobId: string }>('POST', '/api/sendMediaZDGRec', {
      body: { number: from, url: 'https://files.example.com/voice/hello.ogg', token: apiToken, ticketwhatsappId: conn.id },
    });
    expect(await jobOutput(voice.body.jobId)).toMatchObject({ outcome: 'sent' });
    expect(graph.sent.at(-1)).toMatchObject({ type: 'audio', body: { audio: { link: 'https://files.example.com/voice/hello.ogg' } } });
    // Nothing was uploaded: the files went by link.
    expect(graph.requests.filter((r) => r.includes('/media'))).toEqual([]);
  });

  it('answers a rate limit from Graph (130429) as ERR_CLOUD_API_RATE_LIMITED in the job', async () => {
    const from = customer();
    graph.rateLimited = true;
    const res = await t.call<{ jobId: string }>('POST', '/api/zdg', { body: { number: from, message: 'many', token: apiToken, ticketwhatsappId: conn.id } });
    const output = await jobOutput(res.body.jobId);
    graph.rateLimited = false;
    expect(output).toMatchObject({ outcome: 'failed' });
    expect(String(output.error)).toMatch(/^ERR_CLOUD_API_RATE_LIMITED: /);
  });
});
