import { DEFAULT_CALL_REJECT_MESSAGE, type MessagesPageDto } from '@wadesk/contracts';
import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { connectedSimulator, outbox, phoneNumbers, queryRows } from '../../test/desk-factories.js';
import { eventually } from '../../test/session-helpers.js';
import { useTestApp } from '../../test/test-app.js';

/** Incoming calls on the simulator (issue 15): acceptCalls off rejects them, tells the contact, notes it on the ticket. */
const t = useTestApp({ admin: true, user: true });
const phone = phoneNumbers(93_000, 1);

async function setting(key: string, value: string): Promise<void> {
  const res = await t.call('PUT', `/api/settings/${key}`, { token: t.admin, body: { value } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

async function ticketOf(whatsappId: number, number: string): Promise<number> {
  return eventually(async () => {
    const rows = await queryRows<{ id: number }>(
      t,
      sql`select t.id from tickets t join contacts c on c.id = t.contact_id where t.whatsapp_id = ${whatsappId} and c.number = ${number}`,
    );
    return rows[0]?.id ?? null;
  }, 5000, 'the ticket of the call');
}

beforeEach(async () => {
  await setting('acceptCalls', 'enabled');
  await setting('callRejectMessage', DEFAULT_CALL_REJECT_MESSAGE);
});

describe('POST /api/simulator/:whatsappId/call', () => {
  it('lets calls ring when acceptCalls is on: not rejected, nothing sent', async () => {
    const c = await connectedSimulator(t);
    const number = phone();
    const res = await t.call('POST', `/api/simulator/${c.id}/call`, { token: t.admin, body: { from: number } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ rejected: false });
    await new Promise((r) => setTimeout(r, 100));
    expect(await outbox(t, c.id, number)).toEqual([]);
  });

  it('rejects voice and video calls when acceptCalls is off, sends callRejectMessage (pt/en/es by default) and notes them on the ticket', async () => {
    await setting('acceptCalls', 'disabled');
    const c = await connectedSimulator(t);
    const number = phone();
    const res = await t.call('POST', `/api/simulator/${c.id}/call`, { token: t.admin, body: { from: `+${number}`, name: 'Carla' } });
    expect(res.body).toEqual({ rejected: true });
    const sent = await eventually(async () => {
      const list = await outbox(t, c.id, number);
      return list.length === 1 ? list : null;
    }, 5000, 'the reject message');
    expect(sent[0]!.body).toBe(DEFAULT_CALL_REJECT_MESSAGE);
    expect(DEFAULT_CALL_REJECT_MESSAGE.split('\n')).toHaveLength(3);

    await setting('callRejectMessage', 'Só mensagens, por favor!');
    const video = await t.call('POST', `/api/simulator/${c.id}/call`, { token: t.admin, body: { from: number, video: true } });
    expect(video.body).toEqual({ rejected: true });
    await eventually(async () => (await outbox(t, c.id, number)).length === 2, 5000, 'the second reject message');
    expect((await outbox(t, c.id, number))[1]!.body).toBe('Só mensagens, por favor!');

    const ticketId = await ticketOf(c.id, number);
    const page = (await t.call<MessagesPageDto>('GET', `/api/messages/${ticketId}?markRead=false`, { token: t.admin })).body;
    expect(page.events.filter((e) => e.kind === 'callRejected').map((e) => Boolean(e.video))).toEqual([false, true]);
    expect(page.messages.map((m) => m.senderKind)).toEqual(['auto', 'auto']);
    expect(page.ticket).toMatchObject({ status: 'pending', userId: null });
    expect(page.ticket.contact.name).toBe('Carla');
  });

  it('rejects without a message when callRejectMessage is empty', async () => {
    await setting('acceptCalls', 'disabled');
    await setting('callRejectMessage', '');
    const c = await connectedSimulator(t);
    const number = phone();
    const res = await t.call('POST', `/api/simulator/${c.id}/call`, { token: t.admin, body: { from: number } });
    expect(res.body).toEqual({ rejected: true });
    const ticketId = await ticketOf(c.id, number);
    await eventually(async () => {
      const page = (await t.call<MessagesPageDto>('GET', `/api/messages/${ticketId}?markRead=false`, { token: t.admin })).body;
      return page.events.some((e) => e.kind === 'callRejected');
    }, 5000, 'the call noted');
    expect(await outbox(t, c.id, number)).toEqual([]);
  });

  it('is for admins only and validates its body', async () => {
    const c = await connectedSimulator(t);
    expect((await t.call('POST', `/api/simulator/${c.id}/call`, { token: t.user, body: { from: phone() } })).status).toBe(403);
    expect((await t.call('POST', `/api/simulator/${c.id}/call`, { body: { from: phone() } })).status).toBe(401);
    const bad = await t.call('POST', `/api/simulator/${c.id}/call`, { token: t.admin, body: { from: '12', video: 'yes' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('ERR_VALIDATION');
    expect((await t.call('POST', '/api/simulator/999999/call', { token: t.admin, body: { from: phone() } })).status).toBe(404);
  });
});
