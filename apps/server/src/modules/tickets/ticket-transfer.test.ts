import type { TicketDto, WhatsappDto } from '@wadesk/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { connectedSimulator, createQueue, inbound, phoneNumbers } from '../../test/desk-factories.js';
import { nextEvent, useTestApp } from '../../test/test-app.js';

const t = useTestApp();
let conn: WhatsappDto;
const phone = phoneNumbers(72000000, 19);

beforeAll(async () => {
  conn = await connectedSimulator(t);
});

describe('transfer by an attendant (§4)', () => {
  it('transfers an open ticket to a colleague picked from /api/users/list', async () => {
    const queue = await createQueue(t, 'Transfer Q');
    const me = await t.createUser({ name: 'Transfer From', queueIds: [queue] });
    const colleague = await t.createUser({ name: 'Transfer To', queueIds: [queue] });
    const ticket = await inbound(t, conn.id, { from: phone(), body: 'oi' });
    await t.call('PUT', `/api/tickets/${ticket.id}`, { token: me.token, body: { status: 'open' } });

    const list = await t.call<{ id: number; name: string }[]>('GET', '/api/users/list', { token: me.token });
    const picked = list.body.find((u) => u.name === 'Transfer To')!;
    const res = await t.call<TicketDto>('PUT', `/api/tickets/${ticket.id}`, {
      token: me.token,
      body: { userId: picked.id, queueId: queue, status: 'open' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'open', userId: colleague.user.id, queueId: queue, user: { name: 'Transfer To' } });
  });

  it('tells the colleague live who transferred which ticket to them (ticketTransfer), and nobody else', async () => {
    const queue = await createQueue(t, 'Transfer Notice Q');
    const me = await t.createUser({ name: 'Notice From', queueIds: [queue] });
    const colleague = await t.createUser({ name: 'Notice To', queueIds: [queue] });
    const ticket = await inbound(t, conn.id, { from: phone(), name: 'Cliente Notificado', body: 'oi' });
    await t.call('PUT', `/api/tickets/${ticket.id}`, { token: me.token, body: { status: 'open', queueId: queue } });
    const theirSocket = await t.socket(colleague.token);
    const mySocket = await t.socket(me.token);
    const mine: unknown[] = [];
    mySocket.on('ticketTransfer', (e: unknown) => mine.push(e));

    const told = nextEvent<{ action: string; ticket: TicketDto; by: { id: number; name: string } }>(theirSocket, 'ticketTransfer');
    await t.call('PUT', `/api/tickets/${ticket.id}`, { token: me.token, body: { userId: colleague.user.id, queueId: queue, status: 'open' } });
    const event = await told;
    expect(event).toMatchObject({ action: 'create', by: { id: me.user.id, name: 'Notice From' } });
    expect(event.ticket).toMatchObject({ id: ticket.id, userId: colleague.user.id, contact: { name: 'Cliente Notificado' } });

    // Taking a ticket oneself, or sending it to a queue without a user, is no transfer to anyone.
    await t.call('PUT', `/api/tickets/${ticket.id}`, { token: me.token, body: { status: 'open', userId: me.user.id } });
    await t.call('PUT', `/api/tickets/${ticket.id}`, { token: me.token, body: { userId: null, queueId: queue } });
    await new Promise((r) => setTimeout(r, 300));
    expect(mine).toEqual([]);
  });

  it('sends a ticket to wait in its own queue when the user is cleared (pending, no user)', async () => {
    const queue = await createQueue(t, 'Transfer Own Q');
    const me = await t.createUser({ queueIds: [queue] });
    const ticket = await inbound(t, conn.id, { from: phone(), body: 'oi' });
    await t.call('PUT', `/api/tickets/${ticket.id}`, { token: me.token, body: { status: 'open', queueId: queue, userId: me.user.id } });
    const res = await t.call<TicketDto>('PUT', `/api/tickets/${ticket.id}`, { token: me.token, body: { userId: null, queueId: queue } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'pending', userId: null, queueId: queue });
    // The same queue again, without clearing anyone, changes nothing.
    await t.call('PUT', `/api/tickets/${ticket.id}`, { token: me.token, body: { status: 'open' } });
    const same = await t.call<TicketDto>('PUT', `/api/tickets/${ticket.id}`, { token: me.token, body: { queueId: queue } });
    expect(same.body).toMatchObject({ status: 'open', userId: me.user.id });
  });

  it('refuses a user that does not exist with 404 ERR_NO_USER_FOUND and changes nothing', async () => {
    const me = await t.createUser();
    const ticket = await inbound(t, conn.id, { from: phone(), body: 'oi' });
    await t.call('PUT', `/api/tickets/${ticket.id}`, { token: me.token, body: { status: 'open' } });
    const res = await t.call('PUT', `/api/tickets/${ticket.id}`, { token: me.token, body: { userId: 99999999, status: 'open' } });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('ERR_NO_USER_FOUND');
    const after = await t.call<TicketDto>('GET', `/api/tickets/${ticket.id}`, { token: me.token });
    expect(after.body).toMatchObject({ status: 'open', userId: me.user.id });
  });

  it('refuses a queue that does not exist with 404 ERR_NO_QUEUE_FOUND', async () => {
    const admin = await t.adminToken();
    const ticket = await inbound(t, conn.id, { from: phone(), body: 'oi' });
    const res = await t.call('PUT', `/api/tickets/${ticket.id}`, { token: admin, body: { queueId: 99999999 } });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('ERR_NO_QUEUE_FOUND');
  });
});
