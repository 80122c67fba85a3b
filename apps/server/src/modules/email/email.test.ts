import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { WhatsappDto } from '@wadesk/contracts';
import { simpleParser, type ParsedMail } from 'mailparser';
import { sql } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectedSimulator, inbound, phoneNumbers, queryRows } from '../../test/desk-factories.js';
import { eventually } from '../../test/session-helpers.js';
import { useTestApp } from '../../test/test-app.js';

const t = useTestApp({ admin: true, emailTimeoutMs: 800 });
const nextNumber = phoneNumbers(61_000, 1);

/** A real SMTP server on loopback: it checks the login, can refuse a recipient, and keeps what arrived. */
const received: { from: string; to: string[]; mail: ParsedMail }[] = [];
let refuseRecipient: string | null = null;
const smtp = new SMTPServer({
  secure: false,
  disabledCommands: ['STARTTLS'],
  allowInsecureAuth: true,
  authMethods: ['PLAIN', 'LOGIN'],
  onAuth(auth, _session, callback) {
    if (auth.username === 'desk@example.com' && auth.password === 'smtp-secret') callback(null, { user: auth.username });
    else callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
  },
  onRcptTo(address, _session, callback) {
    if (address.address === refuseRecipient) callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
    else callback();
  },
  onData(stream, session, callback) {
    simpleParser(stream).then(
      (mail) => {
        received.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((r) => r.address), mail });
        callback();
      },
      (err: Error) => callback(err),
    );
  },
  logger: false,
});
/** A server that accepts the connection and never greets: the timeout. */
const silent = net.createServer(() => undefined);
let smtpPort = 0;
let silentPort = 0;
let apiToken = '';

async function setting(key: string, value: string) {
  const res = await t.call('PUT', `/api/settings/${key}`, { token: t.admin, body: { value } });
  expect(res.status, `${key}: ${JSON.stringify(res.body)}`).toBe(200);
}

beforeAll(async () => {
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  smtpPort = (smtp.server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  silentPort = (silent.address() as AddressInfo).port;
  const settings = await t.call<{ key: string; value: string }[]>('GET', '/api/settings', { token: t.admin });
  apiToken = settings.body.find((s) => s.key === 'userApiToken')!.value;
});

afterAll(async () => {
  await new Promise<void>((resolve) => smtp.close(resolve));
  await new Promise<void>((resolve) => silent.close(() => resolve()));
});

beforeEach(async () => {
  received.length = 0;
  refuseRecipient = null;
  await setting('emailHost', '127.0.0.1');
  await setting('emailPort', String(smtpPort));
  await setting('emailSecure', 'none');
  await setting('emailUser', 'desk@example.com');
  await setting('emailPass', 'smtp-secret');
  await setting('emailFrom', 'desk@example.com');
  await setting('emailTo', 'boss@example.com');
});

describe('e-mail settings test', () => {
  it('sends a test e-mail through the SMTP server with the saved settings, to emailTo or the address given', async () => {
    const res = await t.call('POST', '/api/settings/email/test', { token: t.admin, body: {} });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ to: 'boss@example.com', messageId: expect.stringContaining('@') });
    const other = await t.call('POST', '/api/settings/email/test', { token: t.admin, body: { to: 'ops@example.com' } });
    expect(other.status).toBe(200);
    expect(received.map((r) => r.to)).toEqual([['boss@example.com'], ['ops@example.com']]);
    expect(received[0]!.from).toBe('desk@example.com');
    expect(received[0]!.mail.subject).toBe('Test e-mail');
    expect(received[0]!.mail.text).toContain('the e-mail settings work');
  });

  it('answers the SMTP error: wrong password, refused recipient, server down, no greeting (timeout)', async () => {
    await setting('emailPass', 'wrong');
    const auth = await t.call('POST', '/api/settings/email/test', { token: t.admin, body: {} });
    expect(auth.status).toBe(502);
    expect(auth.body.error).toBe('ERR_EMAIL_SEND_FAILED');
    expect(auth.body.message).toMatch(/535|Invalid username or password/);
    // The field at fault and what the web says of it (issue 33 item 13: never the SMTP server's raw words).
    expect(auth.body.issues).toMatchObject([{ path: 'emailUser', code: 'emailAuth' }]);
    await setting('emailPass', 'smtp-secret');

    refuseRecipient = 'gone@example.com';
    const rcpt = await t.call('POST', '/api/settings/email/test', { token: t.admin, body: { to: 'gone@example.com' } });
    expect(rcpt.status).toBe(502);
    expect(rcpt.body.message).toMatch(/550|Mailbox unavailable/);
    expect(rcpt.body.issues).toMatchObject([{ path: 'emailTo', code: 'emailRecipient' }]);

    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const downPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await setting('emailPort', String(downPort));
    const down = await t.call('POST', '/api/settings/email/test', { token: t.admin, body: {} });
    expect(down.status).toBe(502);
    expect(down.body.message).toMatch(/ECONNREFUSED|connect/i);
    expect(down.body.issues).toMatchObject([{ path: 'emailHost', code: 'emailConnection' }]);

    await setting('emailPort', String(silentPort));
    const timeout = await t.call('POST', '/api/settings/email/test', { token: t.admin, body: {} });
    expect(timeout.status).toBe(502);
    expect(timeout.body.message).toMatch(/timeout|timed out|greeting/i);
    expect(received).toEqual([]);
  });

  it('says what is missing when e-mail is not configured, and checks the address', async () => {
    await setting('emailHost', '');
    const res = await t.call('POST', '/api/settings/email/test', { token: t.admin, body: {} });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_EMAIL_NOT_CONFIGURED');
    expect(res.body.message).toContain('emailHost');
    expect(res.body.issues).toEqual([{ path: 'emailHost', message: 'Required', code: 'settingMissing' }]);
    const bad = await t.call('POST', '/api/settings/email/test', { token: t.admin, body: { to: 'nobody' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('ERR_VALIDATION');
  });

  it('is for admins only', async () => {
    const { token } = await t.createUser();
    const res = await t.call('POST', '/api/settings/email/test', { token, body: {} });
    expect(res.status).toBe(403);
    expect(received).toEqual([]);
  });
});

describe('send API e-mail (/zdgSendEmail*)', () => {
  it('zdgSendEmail goes to emailTo; zdgSendEmailUser to zdgTo', async () => {
    const a = await t.call('POST', '/api/zdgSendEmail', { body: { zdgSubject: 'Pedido 42', zdgText: 'Saiu para entrega', token: apiToken } });
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    const b = await t.call('POST', '/api/zdgSendEmailUser', {
      headers: { authorization: `Bearer ${apiToken}` },
      body: { zdgSubject: 'Olá', zdgText: 'Linha 1\nLinha 2', zdgTo: 'cliente@example.com' },
    });
    expect(b.status).toBe(200);
    expect(b.body.to).toBe('cliente@example.com');
    expect(received.map((r) => [r.to, r.mail.subject, r.mail.text?.trim()])).toEqual([
      [['boss@example.com'], 'Pedido 42', 'Saiu para entrega'],
      [['cliente@example.com'], 'Olá', 'Linha 1\nLinha 2'],
    ]);
  });

  it('zdgSendEmailAttach and zdgSendEmailAttachUser carry the base64 file as an attachment', async () => {
    const pdf = Buffer.from('%PDF-1.4 fake invoice\n');
    const a = await t.call('POST', '/api/zdgSendEmailAttach', {
      body: { zdgSubject: 'Nota', zdgText: 'Segue a nota', zdgFileName: 'nota.pdf', zdgContent: pdf.toString('base64'), token: apiToken },
    });
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    const b = await t.call('POST', '/api/zdgSendEmailAttachUser', {
      body: { zdgSubject: 'Foto', zdgText: 'Segue', zdgFileName: 'a.txt', zdgContent: Buffer.from('hello').toString('base64'), zdgTo: 'x@example.com', token: apiToken },
    });
    expect(b.status).toBe(200);
    expect(received).toHaveLength(2);
    const [first, second] = received;
    expect(first!.to).toEqual(['boss@example.com']);
    expect(first!.mail.attachments.map((f) => [f.filename, f.content.toString()])).toEqual([['nota.pdf', pdf.toString()]]);
    expect(second!.to).toEqual(['x@example.com']);
    expect(second!.mail.attachments.map((f) => [f.filename, f.content.toString()])).toEqual([['a.txt', 'hello']]);
  });

  it('refuses bad input (400) and callers without the token (401), sending nothing', async () => {
    const cases: [string, Record<string, unknown>][] = [
      ['/api/zdgSendEmail', { zdgSubject: '', zdgText: 'x', token: apiToken }],
      ['/api/zdgSendEmail', { zdgSubject: 'a\r\nBcc: evil@example.com', zdgText: 'x', token: apiToken }],
      ['/api/zdgSendEmailUser', { zdgSubject: 'a', zdgText: 'x', zdgTo: 'not-an-address', token: apiToken }],
      ['/api/zdgSendEmailAttach', { zdgSubject: 'a', zdgText: 'x', zdgFileName: '../etc/passwd', zdgContent: 'aGk=', token: apiToken }],
      ['/api/zdgSendEmailAttach', { zdgSubject: 'a', zdgText: 'x', zdgFileName: 'a.txt', zdgContent: '***', token: apiToken }],
    ];
    for (const [url, body] of cases) {
      const res = await t.call('POST', url, { body });
      expect(res.status, `${url} ${JSON.stringify(body)}`).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
    }
    const anonymous = await t.call('POST', '/api/zdgSendEmail', { body: { zdgSubject: 'a', zdgText: 'b' } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error).toBe('ERR_INVALID_API_TOKEN');
    expect(received).toEqual([]);
  });

  it('answers the provider failure with its reason', async () => {
    refuseRecipient = 'boss@example.com';
    const res = await t.call('POST', '/api/zdgSendEmail', { body: { zdgSubject: 'a', zdgText: 'b', token: apiToken } });
    expect(res.status).toBe(502);
    expect(res.body.error).toBe('ERR_EMAIL_SEND_FAILED');
    expect(res.body.message).toContain('Mailbox unavailable');
  });
});

describe("a ticket's conversation by e-mail (the chat's EMAIL button)", () => {
  let connection: WhatsappDto;
  beforeAll(async () => {
    connection = await connectedSimulator(t, { name: 'Mail' });
  });

  it('sends the transcript (times, senders, text) with the media attached', async () => {
    const number = nextNumber();
    const ticket = await inbound(t, connection.id, { from: number, body: 'Bom dia, preciso da segunda via', name: 'Maria Souza' });
    await inbound(t, connection.id, { from: number, body: 'foto do boleto' });
    const name = await t.app.services.media.save(Buffer.from('PNGDATA'), 'image/png', 'boleto.png');
    await queryRows(
      t,
      sql`update messages set media_type = 'image', media_url = ${t.app.services.media.url(name)} where ticket_id = ${ticket.id} and body = 'foto do boleto'`,
    );
    const res = await t.call('POST', `/api/tickets/${ticket.id}/email`, { token: t.admin, body: { to: 'arquivo@example.com' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(received).toHaveLength(1);
    const { mail, to } = received[0]!;
    expect(to).toEqual(['arquivo@example.com']);
    expect(mail.subject).toBe(`Conversation: Ticket #${ticket.id} — Maria Souza (${number})`);
    const lines = mail.text!.trim().split('\n');
    expect(lines[2]).toMatch(/^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\] Maria Souza: Bom dia, preciso da segunda via$/);
    // The file keeps the name it came with (issue 33 item 15), not its stored name.
    expect(name).not.toBe('boleto.png');
    expect(lines[3]).toContain('Maria Souza: foto do boleto [image: attached as boleto.png]');
    expect(mail.attachments.map((a) => [a.filename, a.content.toString()])).toEqual([['boleto.png', 'PNGDATA']]);
  });

  it('names who really sent each message: the attendant, the chatbot, the desk, a bulk send, a schedule (issue 33 item 15)', async () => {
    const number = nextNumber();
    const ticket = await inbound(t, connection.id, { from: number, body: 'Oi', name: 'Rita' });
    const ana = await t.createUser({ name: 'Ana Atendente' });
    const sent: [string, string][] = [
      ['por mim', `sender_kind = 'user', sent_by_user_id = ${ana.user.id}`],
      ['do robô', `sender_kind = 'bot'`],
      ['saudação', `sender_kind = 'auto'`],
      ['promoção', `origin = 'campaign', origin_id = 42`],
      ['lembrete', `origin = 'schedule', origin_id = 7`],
    ];
    for (const [body] of sent) await inbound(t, connection.id, { from: number, body });
    for (const [body, set] of sent) {
      await queryRows(t, sql`update messages set from_me = true, ${sql.raw(set)} where ticket_id = ${ticket.id} and body = ${body}`);
    }
    const pdf = await t.app.services.media.save(Buffer.from('%PDF'), 'application/pdf', 'Nota fiscal 123.pdf');
    await queryRows(
      t,
      sql`update messages set media_type = 'other', media_url = ${t.app.services.media.url(pdf)} where ticket_id = ${ticket.id} and body = 'por mim'`,
    );
    const res = await t.call('POST', `/api/tickets/${ticket.id}/email`, { token: t.admin, body: { to: 'arquivo@example.com' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const lines = received.at(-1)!.mail.text!.trim().split('\n').slice(2).map((line) => line.replace(/^\[[^\]]+\] /, ''));
    expect(lines).toEqual([
      'Rita: Oi',
      'Ana Atendente: por mim [other: attached as Nota fiscal 123.pdf]',
      'Chatbot: do robô',
      'Automatic: saudação',
      'Bulk send #42: promoção',
      'Scheduled message #7: lembrete',
    ]);
    expect(received.at(-1)!.mail.attachments.map((a) => a.filename)).toEqual(['Nota fiscal 123.pdf']);
  });

  it('goes to emailTo when no address is given; a user outside the ticket gets nothing sent', async () => {
    const ticket = await inbound(t, connection.id, { from: nextNumber(), body: 'Oi' });
    const res = await t.call('POST', `/api/tickets/${ticket.id}/email`, { token: t.admin, body: {} });
    expect(res.status).toBe(200);
    expect(received.map((r) => r.to)).toEqual([['boss@example.com']]);
    expect((await t.call('POST', `/api/tickets/999999/email`, { token: t.admin, body: {} })).status).toBe(404);
  });

  it('e-mails emailTo when a ticket is resolved, and with its number on Protocolo', async () => {
    const a = await inbound(t, connection.id, { from: nextNumber(), body: 'Obrigado', name: 'Carlos Lima' });
    await t.call('PUT', `/api/tickets/${a.id}`, { token: t.admin, body: { status: 'open' } });
    expect((await t.call('PUT', `/api/tickets/${a.id}`, { token: t.admin, body: { status: 'closed' } })).status).toBe(200);
    const closed = await eventually(async () => received.find((r) => r.mail.subject?.startsWith(`Ticket #${a.id} closed`)), 5000, 'closed e-mail');
    expect(closed.to).toEqual(['boss@example.com']);
    expect(closed.mail.subject).toBe(`Ticket #${a.id} closed — Resolved`);
    expect(closed.mail.text).toContain('Contact: Carlos Lima');

    const b = await inbound(t, connection.id, { from: nextNumber(), body: 'Tchau', name: 'Bia' });
    await t.call('PUT', `/api/tickets/${b.id}`, { token: t.admin, body: { status: 'open' } });
    const res = await t.call<{ protocol: string }>('POST', `/api/tickets/${b.id}/protocol`, { token: t.admin });
    expect(res.status).toBe(200);
    const mail = await eventually(async () => received.find((r) => r.mail.subject?.startsWith(`Ticket #${b.id} closed`)), 5000, 'protocol e-mail');
    expect(mail.mail.subject).toBe(`Ticket #${b.id} closed — Protocolo ${res.body.protocol}`);
    expect(mail.mail.text).toContain(`Protocol: ${res.body.protocol}`);
  });
});
