import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MessageDto, TicketDto, WhatsappDto } from '@wadesk/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectedSimulator, inbound, outbox, phoneNumbers } from '../../test/desk-factories.js';
import { createTestApp, type TestApp, useTestApp } from '../../test/test-app.js';

/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');

let files: Server;
let filesUrl: string;
const t = useTestApp({ config: { mediaFetchAllowPrivate: true }, admin: true });
let conn: WhatsappDto;
const phone = phoneNumbers(73000000, 23);

beforeAll(async () => {
  files = createServer((req, res) => {
    if (req.url === '/media/foto%20loja.png') {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': PNG.length });
      res.end(PNG);
    } else if (req.url === '/media/relatorio.pdf') {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end('%PDF-1.4 remote');
    } else if (req.url === '/redirect') {
      res.writeHead(302, { location: '/media/foto%20loja.png' });
      res.end();
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not here');
    }
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
  conn = await connectedSimulator(t);
});
afterAll(async () => {
  await new Promise((resolve) => files.close(resolve));
});

async function openTicket(): Promise<{ ticket: TicketDto; number: string }> {
  const number = phone();
  const ticket = await inbound(t, conn.id, { from: number, body: 'oi' });
  await t.call('PUT', `/api/tickets/${ticket.id}`, { token: t.admin, body: { status: 'open' } });
  return { ticket, number };
}

describe('POST /api/messages/:ticketId with the JSON payload of §7', () => {
  it("accepts whaticket's payload: read 1, fromMe true, an empty mediaUrl and a null quotedMsg", async () => {
    const { ticket, number } = await openTicket();
    const res = await t.call<MessageDto>('POST', `/api/messages/${ticket.id}`, {
      token: t.admin,
      body: { read: 1, fromMe: true, mediaUrl: '', body: '*Admin:*\nBom dia', quotedMsg: null },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ fromMe: true, body: '*Admin:*\nBom dia', mediaType: null });
    expect((await outbox(t, conn.id, number)).at(-1)).toMatchObject({ body: '*Admin:*\nBom dia', mediaType: null });
  });

  it.each([
    [{ read: 0, fromMe: 1 }],
    [{ read: true, fromMe: false }],
    [{ read: 'true', fromMe: 'false' }],
  ])('accepts the flags as numbers, booleans or strings: %j', async (flags) => {
    const { ticket } = await openTicket();
    const res = await t.call('POST', `/api/messages/${ticket.id}`, { token: t.admin, body: { ...flags, body: 'texto' } });
    expect(res.status).toBe(201);
  });

  it('takes the id of a quotedMsg object sent whole', async () => {
    const { ticket } = await openTicket();
    const first = (await t.call('GET', `/api/messages/${ticket.id}`, { token: t.admin })).body.messages[0];
    const res = await t.call('POST', `/api/messages/${ticket.id}`, { token: t.admin, body: { read: 1, fromMe: true, body: 'resposta', quotedMsg: first } });
    expect(res.status).toBe(201);
    expect(res.body.quotedMsg).toMatchObject({ id: first.id, body: 'oi' });
  });

  it("a page carries each message as its send answer and live event carry it (the page's DTOs are built by PostgreSQL)", async () => {
    const { ticket } = await openTicket();
    await inbound(t, conn.id, { from: ticket.contact.number, body: 'segunda *mensagem*', name: 'Cliente Ágata' });
    const page = (await t.call<{ messages: MessageDto[] }>('GET', `/api/messages/${ticket.id}`, { token: t.admin })).body.messages;
    const reply = await t.call<MessageDto>('POST', `/api/messages/${ticket.id}`, { token: t.admin, body: { body: 'resposta', quotedMsg: { id: page[1]!.id } } });
    expect(reply.status).toBe(201);
    const after = (await t.call<{ messages: MessageDto[] }>('GET', `/api/messages/${ticket.id}`, { token: t.admin })).body.messages;
    expect(after.map((m) => m.body)).toEqual(['oi', 'segunda *mensagem*', 'resposta']);
    const { ack: _ack, ...sent } = reply.body;
    expect(after[2]).toEqual({ ...sent, ack: after[2]!.ack });
    expect(after[2]!.quotedMsg).toEqual({ id: page[1]!.id, fromMe: false, body: 'segunda *mensagem*', contact: page[1]!.contact, mediaType: null, mediaDuration: null });
    expect(after[2]!.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(after[0]).toEqual({ ...page[0], read: true }); // the first read marked it read
  });

  it('refuses a flag that is not a boolean, 0/1 or "true"/"false" with ERR_VALIDATION', async () => {
    const { ticket } = await openTicket();
    const res = await t.call('POST', `/api/messages/${ticket.id}`, { token: t.admin, body: { read: 2, body: 'x' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_VALIDATION');
  });

  it('sends the file a mediaUrl names as media, the body as its caption, and stores it', async () => {
    const { ticket, number } = await openTicket();
    const res = await t.call<MessageDto>('POST', `/api/messages/${ticket.id}`, {
      token: t.admin,
      body: { read: 1, fromMe: true, body: 'nossa vitrine', mediaUrl: `${filesUrl}/media/foto%20loja.png` },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ fromMe: true, mediaType: 'image', body: 'nossa vitrine' });
    expect(res.body.mediaUrl).toMatch(/^\/api\/media\/[0-9a-f-]{36}\.png\?sig=/);
    const sent = (await outbox(t, conn.id, number)).at(-1)!;
    expect(sent).toMatchObject({ mediaType: 'image', body: 'nossa vitrine' });

    // Stored: the chat lists it, and the stored file is the fetched one.
    const page = await t.call<{ messages: MessageDto[] }>('GET', `/api/messages/${ticket.id}`, { token: t.admin });
    expect(page.body.messages.at(-1)).toMatchObject({ id: res.body.id, mediaType: 'image' });
    const file = await t.app.http.inject({ method: 'GET', url: res.body.mediaUrl! });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(PNG)).toBe(true);
  });

  it('follows a redirect, and takes the type from the file name when the server says octet-stream', async () => {
    const { ticket, number } = await openTicket();
    const redirected = await t.call<MessageDto>('POST', `/api/messages/${ticket.id}`, { token: t.admin, body: { mediaUrl: `${filesUrl}/redirect` } });
    expect(redirected.status).toBe(201);
    expect(redirected.body.mediaType).toBe('image');
    const pdf = await t.call<MessageDto>('POST', `/api/messages/${ticket.id}`, { token: t.admin, body: { mediaUrl: `${filesUrl}/media/relatorio.pdf` } });
    expect(pdf.status).toBe(201);
    expect(pdf.body).toMatchObject({ mediaType: 'other', body: 'relatorio.pdf' });
    expect((await outbox(t, conn.id, number)).at(-1)).toMatchObject({ mediaType: 'document' });
  });

  it('never sends or shows a file name as the caption of an image; a document keeps its name (issue 33 item 6)', async () => {
    const { ticket, number } = await openTicket();
    const image = await t.call<MessageDto>('POST', `/api/messages/${ticket.id}`, { token: t.admin, body: { mediaUrl: `${filesUrl}/media/foto%20loja.png` } });
    expect(image.status).toBe(201);
    expect(image.body).toMatchObject({ mediaType: 'image', body: '' });
    expect((await outbox(t, conn.id, number)).at(-1)).toMatchObject({ mediaType: 'image', body: '' });
    const tickets = await t.call<TicketDto>('GET', `/api/tickets/${ticket.id}`, { token: t.admin });
    expect(tickets.body.lastMessage).toBe('[image]');
    const pdf = await t.call<MessageDto>('POST', `/api/messages/${ticket.id}`, { token: t.admin, body: { mediaUrl: `${filesUrl}/media/relatorio.pdf` } });
    expect((await outbox(t, conn.id, number)).at(-1)).toMatchObject({ mediaType: 'document', body: 'relatorio.pdf' });
    expect(pdf.body.body).toBe('relatorio.pdf');
  });

  it('answers 400 ERR_WAPP_DOWNLOAD_MEDIA when the URL gives 404, and sends nothing', async () => {
    const { ticket, number } = await openTicket();
    const before = (await outbox(t, conn.id, number)).length;
    const res = await t.call('POST', `/api/messages/${ticket.id}`, { token: t.admin, body: { mediaUrl: `${filesUrl}/media/missing.png`, body: 'x' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_WAPP_DOWNLOAD_MEDIA');
    expect(await outbox(t, conn.id, number)).toHaveLength(before);
  });

  it.each(['ftp://127.0.0.1/a.png', 'file:///etc/passwd', 'not a url', 'http://user:pw@127.0.0.1/a.png'])(
    'refuses the URL %s with ERR_VALIDATION',
    async (mediaUrl) => {
      const { ticket } = await openTicket();
      const res = await t.call('POST', `/api/messages/${ticket.id}`, { token: t.admin, body: { mediaUrl } });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
      expect(res.body.issues[0].path).toBe('mediaUrl');
    },
  );
});

describe('mediaUrl without MEDIA_FETCH_ALLOW_PRIVATE', () => {
  let strict: TestApp;
  let c: WhatsappDto;
  beforeAll(async () => {
    strict = await createTestApp();
    c = await connectedSimulator(strict);
  });
  afterAll(async () => {
    await strict.close();
  });

  it.each(['127.0.0.1', 'localhost', '[::1]', '10.1.2.3', '169.254.169.254', '192.168.0.10', '172.20.0.1', '0.0.0.0'])(
    'refuses a file on %s with ERR_WAPP_DOWNLOAD_MEDIA',
    async (host) => {
      const number = phone();
      const ticket = await inbound(strict, c.id, { from: number, body: 'oi' });
      const token = await strict.adminToken();
      const port = (files.address() as AddressInfo).port;
      const res = await strict.call('POST', `/api/messages/${ticket.id}`, { token, body: { mediaUrl: `http://${host}:${port}/media/foto%20loja.png` } });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('ERR_WAPP_DOWNLOAD_MEDIA');
      expect(res.body.message).toMatch(/private or loopback/);
      expect(await outbox(strict, c.id, number)).toEqual([]);
    },
  );
});
