import type { MessagesPageDto, TicketDto } from '@wadesk/contracts';
import { sql } from 'drizzle-orm';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../app.js';
import { connectedSimulator, createQueue, inbound, outbox, phoneNumbers, queryRows } from '../../test/desk-factories.js';
import { FakeTypebot, p, text, type FakeStep } from '../../test/fakes/typebot-server.js';
import { eventually } from '../../test/session-helpers.js';
import { useTestApp } from '../../test/test-app.js';

/** The app's clock: the real time plus `offset` (moved forward to pass typebotTime). */
let offset = 0;
const clock = () => new Date(Date.now() + offset);
const logLines: string[] = [];
const logStream = new Writable({
  write(chunk: Buffer, _enc, done) {
    logLines.push(chunk.toString('utf8'));
    done();
  },
});

const t = useTestApp({
  config: { queueMenuDebounceMs: 50, mediaFetchAllowPrivate: true, typebotTimeoutMs: 500, logLevel: 'warn' },
  admin: true,
  user: true,
  clock,
  logStream,
});
const phone = phoneNumbers(91_000, 1);
let typebot: FakeTypebot;

/** The two-step flow of the issue: a welcome with an image and a choice, then a question, then a thank-you. */
const FLOW: FakeStep[] = [
  {
    bubbles: [
      text(p('Olá! Eu sou o ', { text: 'robô', bold: true }, ' da loja.'), p({ text: 'Como posso ajudar?', italic: true })),
      { type: 'image', url: '' /* set in beforeAll: the fake's own media URL */ },
    ],
    input: { type: 'choice input', items: ['Comprar', 'Suporte'] },
  },
  { bubbles: [text(p('Qual é o seu nome?'))], input: { type: 'text input' } },
  { bubbles: [text(p('Obrigado! Um atendente vai falar com você.'))] },
];

beforeAll(async () => {
  typebot = await FakeTypebot.start();
  (FLOW[0]!.bubbles[1] as { url: string }).url = `${typebot.url}/media/welcome.png`;
  typebot.flow('loja-bot', FLOW);
});
afterAll(async () => {
  await typebot.close();
});

async function setting(key: string, value: string): Promise<void> {
  const res = await t.call('PUT', `/api/settings/${key}`, { token: t.admin, body: { value } });
  expect(res.status).toBe(200);
}

beforeEach(async () => {
  offset = 0;
  await setting('typebot', 'enabled');
  await setting('typebotUrl', typebot.url);
  await setting('typebotName', 'loja-bot');
  await setting('typebotRestart', '#reiniciar');
  await setting('typebotOff', '#sair');
  await setting('typebotTime', '60');
});

/** The bodies the contact received, once `count` of them arrived (and no more came right after). */
async function received(whatsappId: number, number: string, count: number): Promise<{ body: string; mediaType: string | null }[]> {
  const list = await eventually(async () => {
    const sent = await outbox(t, whatsappId, number);
    return sent.length >= count ? sent : null;
  }, 8000, `${count} messages to ${number}`);
  await t.app.services.chatbot.idle();
  const after = await outbox(t, whatsappId, number);
  expect(after).toHaveLength(count);
  return list.map((m) => ({ body: m.body, mediaType: m.mediaType }));
}

async function page(ticketId: number): Promise<MessagesPageDto> {
  const res = await t.call<MessagesPageDto>('GET', `/api/messages/${ticketId}?markRead=false`, { token: t.admin });
  expect(res.status).toBe(200);
  return res.body;
}

async function botState(ticketId: number) {
  const rows = await queryRows<{ session_id: string | null; state: string; last_error: string | null }>(
    t,
    sql`select session_id, state, last_error from chatbot_sessions where ticket_id = ${ticketId}`,
  );
  return rows[0] ?? null;
}

async function say(whatsappId: number, from: string, body: string): Promise<TicketDto> {
  const ticket = await inbound(t, whatsappId, { from, body, name: 'Joana' });
  await t.app.services.chatbot.idle();
  return ticket;
}

describe('Typebot chatbot (issue 15)', () => {
  it('walks a two-step flow: rich text as WhatsApp text, the image as a file, choices as a numbered list; stored as bot messages', async () => {
    const sales = await createQueue(t, 'Vendas bot');
    const support = await createQueue(t, 'Suporte bot');
    const c = await connectedSimulator(t, { queueIds: [sales, support], greetingMessage: 'Escolha:' });
    const number = phone();
    const startsBefore = typebot.requestsTo('startChat').length;

    const ticket = await say(c.id, number, 'oi');
    const first = await received(c.id, number, 3);
    expect(first).toEqual([
      { body: 'Olá! Eu sou o *robô* da loja.\n_Como posso ajudar?_', mediaType: null },
      { body: expect.any(String), mediaType: 'image' },
      { body: '*1* - Comprar\n*2* - Suporte', mediaType: null },
    ]);
    // The queue menu did not answer the same message.
    expect(first.some((m) => m.body.includes('Escolha:'))).toBe(false);
    const start = typebot.requestsTo('startChat').slice(startsBefore);
    expect(start).toHaveLength(1);
    expect(start[0]!.path).toBe('/api/v1/typebots/loja-bot/startChat');
    expect(start[0]!.body).toMatchObject({ textBubbleContentFormat: 'richText', prefilledVariables: { number } });

    // The contact's number picks the item: Typebot gets the item's text.
    await say(c.id, number, '2');
    const second = await received(c.id, number, 4);
    expect(second[3]!.body).toBe('Qual é o seu nome?');
    const state = await botState(ticket.id);
    const continued = typebot.requestsTo('continueChat').at(-1)!;
    expect(continued.path).toBe(`/api/v1/sessions/${state!.session_id}/continueChat`);
    expect(continued.body).toEqual({ message: { type: 'text', text: 'Suporte' }, textBubbleContentFormat: 'richText' });

    await say(c.id, number, 'Joana Silva');
    const third = await received(c.id, number, 5);
    expect(third[4]!.body).toBe('Obrigado! Um atendente vai falar com você.');
    expect(typebot.sessions.get(state!.session_id!)!.answers).toEqual(['Suporte', 'Joana Silva']);
    expect((await botState(ticket.id))!.state).toBe('ended');

    const { messages } = await page(ticket.id);
    const bot = messages.filter((m) => m.senderKind === 'bot');
    expect(bot).toHaveLength(5);
    expect(bot.every((m) => m.fromMe)).toBe(true);
    expect(messages.filter((m) => m.senderKind === 'contact').map((m) => m.body).sort()).toEqual(['2', 'Joana Silva', 'oi']);
    const after = (await t.app.services.tickets.loadMany([ticket.id]))[0]!;
    expect(after).toMatchObject({ status: 'pending', userId: null });
  });

  it('restarts the flow when the contact types typebotRestart (any letter case)', async () => {
    const c = await connectedSimulator(t);
    const number = phone();
    const ticket = await say(c.id, number, 'olá');
    await received(c.id, number, 3);
    const firstSession = (await botState(ticket.id))!.session_id;
    await say(c.id, number, '1');
    await received(c.id, number, 4);
    await say(c.id, number, '  #REINICIAR ');
    const sent = await received(c.id, number, 7);
    expect(sent[4]!.body).toMatch(/^Olá! Eu sou o \*robô\*/);
    const state = (await botState(ticket.id))!;
    expect(state.session_id).not.toBe(firstSession);
    expect(state.state).toBe('active');
  });

  it('hands over on typebotOff: the bot stops, the ticket stays pending, the queue menu takes over; typebotTime later the bot may take it again', async () => {
    const sales = await createQueue(t, 'Vendas handover');
    const support = await createQueue(t, 'Suporte handover');
    const c = await connectedSimulator(t, { queueIds: [sales, support], greetingMessage: 'Escolha um setor:' });
    const number = phone();
    const ticket = await say(c.id, number, 'bom dia');
    await received(c.id, number, 3);
    const continues = typebot.requestsTo('continueChat').length;
    const starts = typebot.requestsTo('startChat').length;

    await say(c.id, number, '#sair');
    const menu = await received(c.id, number, 4);
    expect(menu[3]!.body).toMatch(/^Escolha um setor:\n\n\*1\* - Suporte handover\n\*2\* - Vendas handover$/);
    expect((await botState(ticket.id))!.state).toBe('handedOver');
    const { events } = await page(ticket.id);
    expect(events.map((e) => e.kind)).toContain('botHandedOver');

    // The contact answers the menu: the bot stays quiet, the queue is chosen, the ticket is pending for attendants.
    await say(c.id, number, '2');
    await eventually(async () => (await t.app.services.tickets.loadMany([ticket.id]))[0]!.queueId === sales, 3000, 'queue chosen');
    const waiting = (await t.app.services.tickets.loadMany([ticket.id]))[0]!;
    expect(waiting).toMatchObject({ status: 'pending', userId: null, queueId: sales });
    expect(typebot.requestsTo('continueChat')).toHaveLength(continues);
    expect(typebot.requestsTo('startChat')).toHaveLength(starts);

    // 59 minutes later: still quiet. 61: the bot takes the ticket again, from the start of the flow.
    offset = 59 * 60_000;
    await say(c.id, number, 'alguém aí?');
    expect(typebot.requestsTo('startChat')).toHaveLength(starts);
    offset = 61 * 60_000;
    await say(c.id, number, 'alô?');
    expect(typebot.requestsTo('startChat')).toHaveLength(starts + 1);
    expect((await botState(ticket.id))!.state).toBe('active');
  });

  it('stops when an attendant accepts the ticket', async () => {
    const c = await connectedSimulator(t);
    const number = phone();
    const ticket = await say(c.id, number, 'oi');
    await received(c.id, number, 3);
    const requests = typebot.requests.length;
    const accepted = await t.call<TicketDto>('PUT', `/api/tickets/${ticket.id}`, { token: t.admin, body: { status: 'open' } });
    expect(accepted.status).toBe(200);
    await eventually(async () => (await botState(ticket.id))!.state === 'stopped', 3000, 'bot stopped');
    await say(c.id, number, '1');
    expect(typebot.requests).toHaveLength(requests);
    expect(await outbox(t, c.id, number)).toHaveLength(3);
  });

  it('keeps quiet for groups and when the bot is off', async () => {
    const c = await connectedSimulator(t);
    await setting('typebot', 'disabled');
    const number = phone();
    const requests = typebot.requests.length;
    await say(c.id, number, 'oi');
    expect(typebot.requests).toHaveLength(requests);
    await setting('typebot', 'enabled');
    await inbound(t, c.id, { from: phone(), groupId: '120363000000000001@g.us', groupName: 'Grupo', body: 'oi grupo' });
    await t.app.services.chatbot.idle();
    expect(typebot.requests).toHaveLength(requests);
  });

  it('starts again when Typebot forgot the session (404 Session not found)', async () => {
    const c = await connectedSimulator(t);
    const number = phone();
    const ticket = await say(c.id, number, 'oi');
    await received(c.id, number, 3);
    typebot.forgetSessions();
    await say(c.id, number, '1');
    const sent = await received(c.id, number, 6);
    expect(sent[3]!.body).toMatch(/^Olá!/);
    expect((await botState(ticket.id))!.last_error).toBeNull();
  });

  it.each([
    ['answers 500', { kind: 'status', status: 500, message: 'Internal error' }, /Typebot answered 500: Internal error/],
    ['answers something that is not JSON', { kind: 'garbage' }, /not JSON/],
    ['does not answer in time', { kind: 'hang' }, /did not answer within 500 ms/],
  ] as const)('goes on as if the bot were off when Typebot %s: message kept, error on the ticket and in the log', async (_name, fault, error) => {
    const sales = await createQueue(t, `Vendas ${_name}`);
    const support = await createQueue(t, `Suporte ${_name}`);
    const c = await connectedSimulator(t, { queueIds: [sales, support], greetingMessage: 'Menu:' });
    const number = phone();
    typebot.failNext(fault);
    logLines.length = 0;
    const ticket = await say(c.id, number, 'oi, preciso de ajuda');
    const sent = await received(c.id, number, 1);
    expect(sent[0]!.body).toMatch(/^Menu:\n\n\*1\*/);
    const { messages, events } = await page(ticket.id);
    expect(messages.map((m) => m.body)).toContain('oi, preciso de ajuda');
    const failed = events.find((e) => e.kind === 'botFailed');
    expect(failed?.error).toMatch(error);
    expect((await botState(ticket.id))!.last_error).toMatch(error);
    expect(logLines.join('')).toMatch(error);
    // Typebot is back: the next message is answered by the bot.
    await say(c.id, number, 'olá?');
    await eventually(async () => (await outbox(t, c.id, number)).some((m) => m.body.startsWith('Olá! Eu sou')), 5000, 'bot back');
  });

  it('goes on when Typebot is down (connection refused)', async () => {
    const down = await FakeTypebot.start();
    const url = down.url;
    await down.close();
    await setting('typebotUrl', url);
    const c = await connectedSimulator(t);
    const number = phone();
    const ticket = await say(c.id, number, 'tem alguém?');
    const { messages, events } = await page(ticket.id);
    expect(messages.map((m) => m.body)).toEqual(['tem alguém?']);
    expect(events.find((e) => e.kind === 'botFailed')?.error).toMatch(/Typebot unreachable/);
    expect((await t.app.services.tickets.loadMany([ticket.id]))[0]).toMatchObject({ status: 'pending', userId: null });
  });

  it("keeps the bot's session across a restart of the app", { timeout: 60_000 }, async () => {
    const c = await connectedSimulator(t);
    const number = phone();
    const ticket = await say(c.id, number, 'oi');
    await received(c.id, number, 3);
    const session = (await botState(ticket.id))!.session_id!;
    // A second process on the same database (what a restart finds): it continues the stored session.
    let second: App | undefined;
    try {
      second = await buildApp({ ...t.app.config, nodeId: 'chatbot-restart' }, { database: t.app.database, logger: false, clock });
      const chatbot = second.services.chatbot;
      const before = typebot.requestsTo('continueChat').length;
      const current = (await second.services.tickets.loadMany([ticket.id]))[0]!;
      expect(await chatbot.takes(current)).toBe(true);
      chatbot.answer(current, '1', async () => {});
      await chatbot.idle();
      const requests = typebot.requestsTo('continueChat');
      expect(requests).toHaveLength(before + 1);
      expect(requests.at(-1)!.path).toBe(`/api/v1/sessions/${session}/continueChat`);
      expect(requests.at(-1)!.body.message.text).toBe('Comprar');
    } finally {
      await second?.close();
    }
  });

  it("lets the app frame the configured Typebot's origin only (/ZDGChatbot), following the setting", async () => {
    const csp = async () => (await t.app.http.inject({ method: 'GET', url: '/api/health' })).headers['content-security-policy'] as string;
    expect(await csp()).toContain(`frame-src 'self' ${typebot.url};`);
    await setting('typebotUrl', 'https://bots.example.com/path?x=1');
    expect(await csp()).toContain("frame-src 'self' https://bots.example.com;");
    // Anything but an http(s) address is refused (400), and the frame-src stays as it was.
    const bad = await t.call('PUT', '/api/settings/typebotUrl', { token: t.admin, body: { value: 'javascript:alert(1); script-src *' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: 'ERR_VALIDATION', issues: [{ path: 'value', message: expect.stringMatching(/http\(s\)/) }] });
    expect(await csp()).toContain("frame-src 'self' https://bots.example.com;");
    await setting('typebotUrl', '');
    expect(await csp()).toMatch(/frame-src 'self' 'self';/);
  });

  it('restarts after a hand-over when the contact types typebotRestart', async () => {
    const c = await connectedSimulator(t);
    const number = phone();
    const ticket = await say(c.id, number, 'oi');
    await received(c.id, number, 3);
    await say(c.id, number, '#sair');
    expect((await botState(ticket.id))!.state).toBe('handedOver');
    await say(c.id, number, '#reiniciar');
    const sent = await received(c.id, number, 6);
    expect(sent[3]!.body).toMatch(/^Olá! Eu sou o/);
    expect((await botState(ticket.id))!.state).toBe('active');
  });

  it('sends video and audio as files, an embed and a file that cannot be fetched as links; a photo without text gets no answer', async () => {
    typebot.flow('midia-bot', [
      {
        bubbles: [
          { type: 'video', url: `${typebot.url}/media/clip.mp4` },
          { type: 'audio', url: `${typebot.url}/media/voz.mp3` },
          { type: 'embed', url: 'https://maps.example.com/loja' },
          { type: 'image', url: `${typebot.url}/missing/foto.png` },
        ],
        input: { type: 'text input' },
      },
      { bubbles: [text(p('Fim.'))] },
    ]);
    await setting('typebotName', 'midia-bot');
    const c = await connectedSimulator(t);
    const number = phone();
    const ticket = await say(c.id, number, 'oi');
    const sent = await received(c.id, number, 4);
    expect(sent).toEqual([
      { body: expect.any(String), mediaType: 'video' },
      { body: expect.any(String), mediaType: 'audio' },
      { body: 'https://maps.example.com/loja', mediaType: null },
      { body: `${typebot.url}/missing/foto.png`, mediaType: null },
    ]);
    const continues = typebot.requestsTo('continueChat').length;
    await inbound(t, c.id, { from: number, mediaType: 'image', mediaUrl: 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=' });
    await t.app.services.chatbot.idle();
    expect(typebot.requestsTo('continueChat')).toHaveLength(continues);
    expect(await outbox(t, c.id, number)).toHaveLength(4);
    const { messages } = await page(ticket.id);
    expect(messages.filter((m) => m.senderKind === 'bot').map((m) => m.mediaType)).toEqual(['video', 'audio', null, null]);
  });

  it('says nothing when an attendant accepts the ticket while Typebot is answering', async () => {
    const c = await connectedSimulator(t);
    const number = phone();
    typebot.failNext({ kind: 'slow', ms: 300 });
    const starts = typebot.requestsTo('startChat').length;
    const ticket = await inbound(t, c.id, { from: number, body: 'oi' });
    // Accepted once Typebot has the request (and answers 300 ms later).
    await eventually(async () => typebot.requestsTo('startChat').length > starts, 5000, 'startChat sent');
    const accepted = await t.call<TicketDto>('PUT', `/api/tickets/${ticket.id}`, { token: t.admin, body: { status: 'open' } });
    expect(accepted.status).toBe(200);
    await t.app.services.chatbot.idle();
    expect(await outbox(t, c.id, number)).toEqual([]);
    expect((await botState(ticket.id))!.state).toBe('stopped');
  });
});
