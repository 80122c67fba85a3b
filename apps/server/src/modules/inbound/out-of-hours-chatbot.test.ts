import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectedSimulator, inbound, outbox, phoneNumbers } from '../../test/desk-factories.js';
import { FakeTypebot, p, text } from '../../test/fakes/typebot-server.js';
import { eventually } from '../../test/session-helpers.js';
import { useTestApp } from '../../test/test-app.js';

/** Decision 0039: out of hours the chatbot keeps answering; the out-of-hours notice goes first, once. */
const t = useTestApp({ admin: true, config: { queueMenuDebounceMs: 50, typebotTimeoutMs: 500, logLevel: 'warn' } });
const phone = phoneNumbers(36700000, 43);
let typebot: FakeTypebot;

beforeAll(async () => {
  typebot = await FakeTypebot.start();
  typebot.flow('night-bot', [{ bubbles: [text(p('Hi, I am the night bot. What is your order number?'))], input: { type: 'text input' } }, { bubbles: [text(p('Noted, thanks!'))] }]);
  for (const [key, value] of [['typebot', 'enabled'], ['typebotUrl', typebot.url], ['typebotName', 'night-bot']]) {
    expect((await t.call('PUT', `/api/settings/${key}`, { token: t.admin, body: { value } })).status).toBe(200);
  }
});
afterAll(async () => {
  await typebot.close();
});

describe('the chatbot out of hours', () => {
  it('keeps answering, after one out-of-hours notice', async () => {
    // A connection closed at every hour (no interval): whatever the time of the run, it is out of hours.
    const connection = await connectedSimulator(t);
    const closed = { timeZone: 'America/Sao_Paulo', days: [], holidays: [] };
    const res = await t.call('PUT', `/api/whatsapp/${connection.id}`, { token: t.admin, body: { businessHours: closed, outOfHoursMessage: 'We are closed; the bot can help.' } });
    expect(res.status).toBe(200);
    const from = phone();
    const first = await inbound(t, connection.id, { from, body: 'hello' });
    const bodies = async (count: number) =>
      eventually(async () => {
        const sent = (await outbox(t, connection.id, from)).map((m) => m.body);
        return sent.length >= count ? sent : null;
      }, 8000, `${count} messages`);
    expect(await bodies(2)).toEqual(['We are closed; the bot can help.', 'Hi, I am the night bot. What is your order number?']);
    await inbound(t, connection.id, { from, body: '12345' });
    expect(await bodies(3)).toEqual(['We are closed; the bot can help.', 'Hi, I am the night bot. What is your order number?', 'Noted, thanks!']);
    await t.app.services.chatbot.idle();
    expect(await outbox(t, connection.id, from)).toHaveLength(3);
    const ticket = await t.call<{ arrivedOutOfHours: boolean }>('GET', `/api/tickets/${first.id}`, { token: t.admin });
    expect(ticket.body.arrivedOutOfHours).toBe(true);
  });
});
