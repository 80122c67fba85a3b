import type { MessageDto, TicketDto, WhatsappDto } from '@wadesk/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { connectedSimulator, createQueue, inbound, outbox, phoneNumbers } from '../../test/desk-factories.js';
import { useTestApp } from '../../test/test-app.js';

const t = useTestApp({ admin: true });
let conn: WhatsappDto;
const phone = phoneNumbers(71000000, 17);

beforeAll(async () => {
  conn = await connectedSimulator(t, {
    name: 'Loja Centro',
    farewellMessage: 'Obrigado pelo contato, {{name}}! Ticket #{{ticket_id}} ({{queue}}, {{user}}, {{connection}}) {{greeting}} {{date}} {{hour}}',
  });
});

describe('farewell on resolve (§3 placeholders)', () => {
  it('sends the farewell with its placeholders rendered, and stores and previews the rendered text', async () => {
    const number = phone();
    const queue = await createQueue(t, 'Vendas Farewell');
    const agent = await t.createUser({ name: 'Joana', queueIds: [queue] });
    const ticket = await inbound(t, conn.id, { from: number, name: 'Maria Silva', body: 'oi' });
    await t.call('PUT', `/api/tickets/${ticket.id}`, { token: t.admin, body: { queueId: queue, userId: agent.user.id, status: 'open' } });

    const resolved = await t.call<TicketDto>('PUT', `/api/tickets/${ticket.id}`, { token: agent.token, body: { status: 'closed' } });
    expect(resolved.status).toBe(200);

    const expected = new RegExp(
      `^Obrigado pelo contato, Maria Silva! Ticket #${ticket.id} \\(Vendas Farewell, Joana, Loja Centro\\) (Bom dia|Boa tarde|Boa noite) \\d{2}/\\d{2}/\\d{4} \\d{2}:\\d{2}$`,
    );
    const sent = await outbox(t, conn.id, number);
    expect(sent.at(-1)!.body).toMatch(expected);
    expect(sent.at(-1)!.body).not.toContain('{{');

    const page = await t.call<{ messages: MessageDto[] }>('GET', `/api/messages/${ticket.id}`, { token: t.admin });
    expect(page.body.messages.at(-1)!.body).toBe(sent.at(-1)!.body);
    expect(resolved.body.lastMessage).toBe(sent.at(-1)!.body);
    const stored = await t.call<TicketDto>('GET', `/api/tickets/${ticket.id}`, { token: t.admin });
    expect(stored.body.lastMessage).toMatch(expected);
  });

  it('leaves an unknown placeholder as written', async () => {
    const other = await connectedSimulator(t, { farewellMessage: 'Tchau {{name}} {{unknown}}' });
    const number = phone();
    const ticket = await inbound(t, other.id, { from: number, name: 'Rui', body: 'oi' });
    await t.call('PUT', `/api/tickets/${ticket.id}`, { token: t.admin, body: { status: 'closed' } });
    expect((await outbox(t, other.id, number)).at(-1)!.body).toBe('Tchau Rui {{unknown}}');
  });
});
