import type { TicketDto } from '@wadesk/contracts';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectedSimulator, createQueue, inbound, outbox, phoneNumbers } from '../../test/desk-factories.js';
import { useTestApp } from '../../test/test-app.js';

/** The notices to the contact (issue 15): the transfer notice and the protocol message, as the simulator receives them. */
const t = useTestApp({ admin: true });
const phone = phoneNumbers(95_000, 1);
let conn: { id: number };

async function setting(key: string, value: string): Promise<void> {
  const res = await t.call('PUT', `/api/settings/${key}`, { token: t.admin, body: { value } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

beforeAll(async () => {
  conn = await connectedSimulator(t, { name: 'Avisos' });
});
beforeEach(async () => {
  await setting('transferMessage', '');
  await setting('protocolMessage', '*Protocolo:* {{protocol}}');
});

const bodies = async (number: string) => (await outbox(t, conn.id, number)).map((m) => m.body);

describe('transfer notice (transferMessage)', () => {
  it('is off by default: a transfer sends nothing', async () => {
    const q = await createQueue(t, 'Silenciosa');
    const number = phone();
    const ticket = await inbound(t, conn.id, { from: number, body: 'oi' });
    expect((await t.call('PUT', `/api/tickets/${ticket.id}`, { token: t.admin, body: { queueId: q } })).status).toBe(200);
    expect(await bodies(number)).toEqual([]);
  });

  it('tells the contact the queue, the attendant, or both, after the transfer is committed; accepting and returning say nothing', async () => {
    await setting('transferMessage', '{{name}}, você foi transferido para {{destination}}.');
    const sales = await createQueue(t, 'Vendas avisos');
    const bruno = await t.createUser({ name: 'Bruno', queueIds: [sales] });
    const carla = await t.createUser({ name: 'Carla', queueIds: [sales] });
    const number = phone();
    const ticket = await inbound(t, conn.id, { from: number, body: 'oi', name: 'Joana' });

    const accepted = await t.call<TicketDto>('PUT', `/api/tickets/${ticket.id}`, { token: bruno.token, body: { status: 'open' } });
    expect(accepted.status).toBe(200);
    expect(await bodies(number)).toEqual([]);

    await t.call('PUT', `/api/tickets/${ticket.id}`, { token: bruno.token, body: { queueId: sales } });
    expect(await bodies(number)).toEqual(['Joana, você foi transferido para Vendas avisos.']);

    await t.call('PUT', `/api/tickets/${ticket.id}`, { token: bruno.token, body: { status: 'open' } });
    await t.call('PUT', `/api/tickets/${ticket.id}`, { token: bruno.token, body: { userId: carla.user.id, status: 'open' } });
    expect((await bodies(number)).at(-1)).toBe('Joana, você foi transferido para Carla.');

    const other = await createQueue(t, 'Suporte avisos');
    await t.call('PUT', `/api/tickets/${ticket.id}`, { token: t.admin, body: { userId: bruno.user.id, queueId: other, status: 'open' } });
    expect((await bodies(number)).at(-1)).toBe('Joana, você foi transferido para Bruno (Suporte avisos).');

    await t.call('PUT', `/api/tickets/${ticket.id}`, { token: bruno.token, body: { status: 'pending' } });
    expect(await bodies(number)).toHaveLength(3);
    const page = await t.call('GET', `/api/messages/${ticket.id}?markRead=false`, { token: t.admin });
    expect(page.body.messages.filter((m: { senderKind: string }) => m.senderKind === 'auto')).toHaveLength(3);
  });
});

describe('protocol (protocolMessage, search, /zdgProtocolo)', () => {
  it('sends the configured protocol message, stores the number on the ticket and finds the ticket by it', async () => {
    await setting('protocolMessage', 'Olá {{name}}! Seu protocolo é {{protocol}}.');
    const number = phone();
    const ticket = await inbound(t, conn.id, { from: number, body: 'oi', name: 'Rita' });
    const res = await t.call<{ protocol: string; ticket: TicketDto }>('POST', `/api/tickets/${ticket.id}/protocol`, { token: t.admin });
    expect(res.status).toBe(200);
    expect(res.body.ticket.protocol).toBe(res.body.protocol);
    expect(await bodies(number)).toEqual([`Olá Rita! Seu protocolo é ${res.body.protocol}.`]);

    const found = await t.call<{ tickets: TicketDto[] }>('GET', `/api/tickets?showAll=true&searchParam=${res.body.protocol}`, { token: t.admin });
    expect(found.status).toBe(200);
    expect(found.body.tickets.map((x) => x.id)).toEqual([ticket.id]);
  });

  it('sends nothing when protocolMessage is empty, still resolving with the number', async () => {
    await setting('protocolMessage', '');
    const number = phone();
    const ticket = await inbound(t, conn.id, { from: number, body: 'oi' });
    const res = await t.call<{ protocol: string; ticket: TicketDto }>('POST', `/api/tickets/${ticket.id}/protocol`, { token: t.admin });
    expect(res.body.ticket).toMatchObject({ status: 'closed', protocol: res.body.protocol });
    expect(await bodies(number)).toEqual([]);
  });

  it('records a number given to /zdgProtocolo; the tickets search finds it', async () => {
    const token = (await t.call<{ key: string; value: string }[]>('GET', '/api/settings', { token: t.admin })).body.find((s) => s.key === 'userApiToken')!.value;
    const ticket = await inbound(t, conn.id, { from: phone(), body: 'oi' });
    const res = await t.call('POST', '/api/zdgProtocolo', { body: { usuario: 'ERP', protocolo: 'ABC-2026-77', ticket: ticket.id, token } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ ticket: ticket.id, protocolo: 'ABC-2026-77' });
    const found = await t.call<{ tickets: TicketDto[] }>('GET', '/api/tickets?showAll=true&searchParam=ABC-2026-77', { token: t.admin });
    expect(found.body.tickets.map((x) => x.id)).toEqual([ticket.id]);
  });
});
