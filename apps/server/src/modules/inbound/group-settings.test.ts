import type { TicketDto } from '@wadesk/contracts';
import { sql } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectedSimulator, inbound, phoneNumbers, queryRows } from '../../test/desk-factories.js';
import { useTestApp } from '../../test/test-app.js';

/**
 * The two group settings (issue 15, decision 0017): CheckMsgIsGroup ignores group messages entirely; groups decides
 * whether group tickets are made (off: none made, reopened or fed while pending; one an attendant has open goes on).
 */
const t = useTestApp({ admin: true });
const phone = phoneNumbers(97_000, 1);
let conn: { id: number };
let seq = 0;

async function setting(key: string, value: string): Promise<void> {
  expect((await t.call('PUT', `/api/settings/${key}`, { token: t.admin, body: { value } })).status).toBe(200);
}

/** Sends a group message; resolves whether it was stored. */
async function groupMessage(groupId: string, body: string): Promise<boolean> {
  seq += 1;
  const id = `GRP-${seq}-${groupId}`;
  const res = await t.call('POST', `/api/simulator/${conn.id}/inbound`, { token: t.admin, body: { id, from: phone(), groupId, groupName: 'Equipe', body } });
  expect(res.status).toBeLessThan(300);
  const rows = await queryRows<{ n: number }>(t, sql`select count(*)::int as n from messages where channel_message_id = ${id}`);
  return rows[0]!.n === 1;
}

async function contactExists(groupId: string): Promise<boolean> {
  const rows = await queryRows<{ n: number }>(t, sql`select count(*)::int as n from contacts where number like ${`${groupId.replace(/@g\.us$/, '')}%`}`);
  return rows[0]!.n > 0;
}

beforeAll(async () => {
  conn = await connectedSimulator(t, { name: 'Grupos' });
});
afterEach(async () => {
  await setting('groups', 'enabled');
  await setting('CheckMsgIsGroup', 'disabled');
});

describe('groups and CheckMsgIsGroup', () => {
  it('CheckMsgIsGroup on ignores every group message (nothing stored, no contact), even in an open group ticket; 1:1 chats go on', async () => {
    const known = '120363000000097001@g.us';
    expect(await groupMessage(known, 'antes')).toBe(true);
    const [ticket] = await queryRows<{ id: number }>(t, sql`select t.id from tickets t join contacts c on c.id = t.contact_id where c.number like '120363000000097001%'`);
    await t.call<TicketDto>('PUT', `/api/tickets/${ticket!.id}`, { token: t.admin, body: { status: 'open' } });
    await setting('CheckMsgIsGroup', 'enabled');
    expect(await groupMessage(known, 'depois')).toBe(false);
    const fresh = '120363000000097002@g.us';
    expect(await groupMessage(fresh, 'novo')).toBe(false);
    expect(await contactExists(fresh)).toBe(false);
    const oneToOne = await inbound(t, conn.id, { from: phone(), body: 'oi' });
    expect(oneToOne.isGroup).toBe(false);
  });

  it('groups off makes no group ticket and feeds no pending one, but a group ticket an attendant has open goes on', async () => {
    const pending = '120363000000097003@g.us';
    const open = '120363000000097004@g.us';
    expect(await groupMessage(pending, 'fila')).toBe(true);
    expect(await groupMessage(open, 'atendido')).toBe(true);
    const [openTicket] = await queryRows<{ id: number }>(t, sql`select t.id from tickets t join contacts c on c.id = t.contact_id where c.number like '120363000000097004%'`);
    await t.call('PUT', `/api/tickets/${openTicket!.id}`, { token: t.admin, body: { status: 'open' } });

    await setting('groups', 'disabled');
    const fresh = '120363000000097005@g.us';
    expect(await groupMessage(fresh, 'novo')).toBe(false);
    expect(await contactExists(fresh)).toBe(false);
    expect(await groupMessage(pending, 'ainda na fila')).toBe(false);
    expect(await groupMessage(open, 'continua')).toBe(true);

    await setting('groups', 'enabled');
    expect(await groupMessage(fresh, 'de novo')).toBe(true);
  });
});
