import type { MessagesPageDto, WhatsappDto } from '@wadesk/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { connectedSimulator, inbound } from '../../test/desk-factories.js';
import { useTestApp } from '../../test/test-app.js';

// Issue 33 item 25: the simulator's rule (a number ending in 0000 is not on WhatsApp) makes every reply fail; the
// failed message stays on the ticket with why, instead of vanishing into the log.
const t = useTestApp({ admin: true });
let connection: WhatsappDto;

beforeAll(async () => {
  connection = await connectedSimulator(t, { name: 'Regra 0000' });
});

describe('a send that fails shows on the ticket', () => {
  it('keeps a reply to a number that is not on WhatsApp, marked with the reason, and tells the sender', async () => {
    const ticket = await inbound(t, connection.id, { from: '5511987650000', name: 'Sem WhatsApp', body: 'Oi' });
    const res = await t.call('POST', `/api/messages/${ticket.id}`, { token: t.admin, body: { body: 'Resposta que falha' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_WAPP_INVALID_CONTACT');
    const page = await t.call<MessagesPageDto>('GET', `/api/messages/${ticket.id}`, { token: t.admin });
    const failed = page.body.messages.find((m) => m.body === 'Resposta que falha');
    expect(failed).toMatchObject({ fromMe: true, ack: 0 });
    expect(failed?.sendError).toBeTruthy();
  });
});
