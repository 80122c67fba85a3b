import type { CampaignCreatedResponse, CampaignDto, GroupActionDto, GroupActionStartedResponse, MessagesPageDto, Paginated, TicketDto, WhatsappDto } from '@wadesk/contracts';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { tickets } from '../../db/schema.js';
import { connectedSimulator, createQueue, inbound, outbox, phoneNumbers, queryRows } from '../../test/desk-factories.js';
import { eventually } from '../../test/session-helpers.js';
import { useTestApp } from '../../test/test-app.js';

// Issue 32 §1, decision 0029: every message the desk sends is in the contact's conversation, no tool fills anyone's
// Inbox or Queue, the answer reopens the ticket that holds what it answers, and the chat reads earlier tickets above.
const t = useTestApp({ admin: true, user: true, config: { groupActionDelayMs: { min: 0, max: 0 }, groupActionPauseMs: { min: 0, max: 0 } } });
const nextNumber = phoneNumbers(93_000, 1);
let connection: WhatsappDto;
let apiToken = '';

type TicketListResponse = Paginated & { tickets: TicketDto[] };

beforeAll(async () => {
  connection = await connectedSimulator(t, { name: 'Conversas' });
  const settings = await t.call<{ key: string; value: string }[]>('GET', '/api/settings', { token: t.admin });
  apiToken = settings.body.find((s) => s.key === 'userApiToken')!.value;
  // whaticket's rule at its shortest: a closed ticket changed in the last 10 s reopens on any message.
  expect((await t.call('PUT', '/api/settings/timeCreateNewTicket', { token: t.admin, body: { value: '10' } })).status).toBe(200);
});

/** Days pass: the ticket was last changed two days ago (far outside timeCreateNewTicket). */
async function daysLater(ticketId: number): Promise<void> {
  await t.app.database.db.update(tickets).set({ updatedAt: new Date(Date.now() - 2 * 86_400_000) }).where(eq(tickets.id, ticketId));
}

/** How many tickets the Inbox (open) and Queue (pending) tabs list for `token`, with Show all. */
async function tabCounts(token = t.admin): Promise<{ open: number; pending: number }> {
  const count = async (status: string) =>
    (await t.call<TicketListResponse>('GET', `/api/tickets?status=${status}&showAll=true`, { token })).body.count;
  return { open: await count('open'), pending: await count('pending') };
}

async function page(ticketId: number, token = t.admin, pageNumber = 1): Promise<MessagesPageDto> {
  const res = await t.call<MessagesPageDto>('GET', `/api/messages/${ticketId}?pageNumber=${pageNumber}&markRead=false`, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** The ticket a message with this body to `number` was recorded in. */
async function recordedIn(number: string, body: string): Promise<{ ticketId: number; origin: string | null; originId: number | null }> {
  return eventually(async () => {
    const [row] = await queryRows<{ ticket_id: number; origin: string | null; origin_id: number | null }>(
      t,
      sql`select m.ticket_id, m.origin, m.origin_id from messages m join tickets tk on tk.id = m.ticket_id join contacts c on c.id = tk.contact_id
          where c.number = ${number} and m.body = ${body} and m.from_me`,
    );
    return row ? { ticketId: Number(row.ticket_id), origin: row.origin, originId: row.origin_id === null ? null : Number(row.origin_id) } : null;
  }, 10_000, `message "${body}" to ${number} recorded`);
}

async function ticket(id: number): Promise<TicketDto> {
  return (await t.app.services.tickets.loadMany([id]))[0]!;
}

describe('one conversation record (issue 32 §1)', () => {
  it('records a bulk send in each conversation without adding to any Inbox or Queue; the answer reopens it with the bulk message right before', { timeout: 60_000 }, async () => {
    const [fresh, resolved, talking] = [nextNumber(), nextNumber(), nextNumber()];
    // One resolved conversation, one under way (open, an attendant's), one number never seen.
    const old = await inbound(t, connection.id, { from: resolved, body: 'Pedido antigo', name: 'Resolvida' });
    await t.call('PUT', `/api/tickets/${old.id}`, { token: t.admin, body: { status: 'closed' } });
    const live = await inbound(t, connection.id, { from: talking, body: 'Estou aqui', name: 'Conversando' });
    const attendant = await t.createUser({ name: 'Atendente' });
    await t.call('PUT', `/api/tickets/${live.id}`, { token: attendant.token, body: { status: 'open', userId: attendant.user.id } });
    const before = await tabCounts();

    const created = await t.call<CampaignCreatedResponse>('POST', '/api/campaigns', {
      token: t.admin,
      body: { whatsappId: connection.id, kind: 'text', numbers: [fresh, resolved, talking].join('\n'), message: 'Black Friday: 20% off', minInterval: 0, maxInterval: 0 },
    });
    expect(created.status).toBe(201);
    await eventually(async () => (await t.call<CampaignDto>('GET', `/api/campaigns/${created.body.id}`, { token: t.admin })).body.status === 'done', 20_000, 'campaign done');

    const records = await Promise.all([fresh, resolved, talking].map((n) => recordedIn(n, 'Black Friday: 20% off')));
    for (const record of records) expect(record).toMatchObject({ origin: 'campaign', originId: created.body.id });
    // The new number: a closed ticket of its own; the resolved one: its closed ticket; the live one: its open ticket.
    expect(await ticket(records[0]!.ticketId)).toMatchObject({ status: 'closed', userId: null, queueId: null, lastMessage: 'Black Friday: 20% off' });
    expect(records[1]!.ticketId).toBe(old.id);
    expect(await ticket(old.id)).toMatchObject({ status: 'closed' });
    expect(records[2]!.ticketId).toBe(live.id);
    expect(await ticket(live.id)).toMatchObject({ status: 'open' });
    await eventually(async () => JSON.stringify(await tabCounts()) === JSON.stringify(before), 5000, 'tab counts unchanged');

    // The customers answer days later, outside timeCreateNewTicket: the ticket holding the bulk message reopens.
    await daysLater(records[0]!.ticketId);
    await daysLater(old.id);
    const reply = await inbound(t, connection.id, { from: fresh, body: 'Quero o cupom!' });
    expect(reply).toMatchObject({ id: records[0]!.ticketId, status: 'pending' });
    const { messages, events } = await page(reply.id);
    // "Reopened" reads above the answer that reopened it.
    const reopened = events.find((e) => e.kind === 'reopened')!;
    expect(Date.parse(reopened.createdAt)).toBeLessThan(Date.parse(messages.at(-1)!.createdAt));
    expect(messages.slice(-2).map((m) => [m.body, m.fromMe, m.origin ?? null])).toEqual([
      ['Black Friday: 20% off', true, 'campaign'],
      ['Quero o cupom!', false, null],
    ]);
    const reopenedAnswer = await inbound(t, connection.id, { from: resolved, body: 'Também quero' });
    expect(reopenedAnswer).toMatchObject({ id: old.id, status: 'pending' });
  });

  it('records the send API, group actions and messages typed on the phone with their origin, none of them pending', { timeout: 60_000 }, async () => {
    const before = await tabCounts();
    const viaApi = nextNumber();
    const api = await t.call<{ jobId: string; campaignId: number }>('POST', '/api/zdg', {
      body: { number: viaApi, message: 'Seu pedido saiu', token: apiToken, ticketwhatsappId: connection.id },
    });
    expect(api.status).toBe(202);
    expect(await recordedIn(viaApi, 'Seu pedido saiu')).toMatchObject({ origin: 'api', originId: null });

    const member = nextNumber();
    const group = await t.call<{ id: string }>('POST', `/api/simulator/${connection.id}/groups`, { token: t.admin, body: { subject: 'Loja Centro', participants: [member] } });
    for (const [action, body] of [['message', 'Promoção no grupo'], ['privateMessage', 'Olá, participante']] as const) {
      const started = await t.call<GroupActionStartedResponse>('POST', '/api/groups/actions', {
        token: t.admin,
        body: { whatsappId: connection.id, action, message: body, ...(action === 'privateMessage' ? { minInterval: 1, maxInterval: 1 } : {}) },
      });
      expect(started.status, JSON.stringify(started.body)).toBe(201);
      await eventually(
        async () => (await t.call<GroupActionDto>('GET', `/api/groups/actions/${started.body.groupAction.id}`, { token: t.admin })).body.status === 'done',
        20_000,
        `group action ${action} done`,
      );
      const to = action === 'message' ? group.body.id : member;
      const record = await recordedIn(to, body);
      expect(record).toMatchObject({ origin: 'group-action', originId: started.body.groupAction.id });
      expect(await ticket(record.ticketId)).toMatchObject({ status: 'closed', isGroup: action === 'message' });
    }

    const quiet = nextNumber();
    await t.call('POST', `/api/simulator/${connection.id}/inbound`, { token: t.admin, body: { from: quiet, body: 'Digitado no celular', fromMe: true } });
    const typed = await recordedIn(quiet, 'Digitado no celular');
    expect(typed.origin).toBe('phone');
    expect(await ticket(typed.ticketId)).toMatchObject({ status: 'closed' });
    expect((await outbox(t, connection.id, quiet)).length).toBe(0);
    await eventually(async () => JSON.stringify(await tabCounts()) === JSON.stringify(before), 5000, 'tab counts unchanged');

    // A farewell is not a message to answer: after "resolve" the contact's next message opens a new ticket.
    const done = await inbound(t, connection.id, { from: nextNumber(), body: 'Obrigado' });
    await t.call('PUT', `/api/tickets/${done.id}`, { token: t.admin, body: { status: 'closed' } });
    await daysLater(done.id);
    const again = await inbound(t, connection.id, { from: done.contact.number, body: 'Outra dúvida' });
    expect(again.id).not.toBe(done.id);
  });

  it('pages on into the earlier tickets the caller may see, naming them for the separator; search finds their messages', { timeout: 60_000 }, async () => {
    const sales = await createQueue(t, `Vendas ${Date.now()}`);
    const support = await createQueue(t, `Suporte ${Date.now()}`);
    const agent = await t.createUser({ name: 'Ana Suporte', queueIds: [support] });
    const number = nextNumber();
    // Ticket 1, in Sales (the agent is not in it); ticket 2, in Support, resolved by the agent; ticket 3 now.
    const first = await inbound(t, connection.id, { from: number, body: 'Primeiro assunto palavrazul', name: 'Cliente Antigo' });
    await t.call('PUT', `/api/tickets/${first.id}`, { token: t.admin, body: { queueId: sales } });
    await t.call('PUT', `/api/tickets/${first.id}`, { token: t.admin, body: { status: 'closed' } });
    await daysLater(first.id);
    const second = await inbound(t, connection.id, { from: number, body: 'Segundo assunto' });
    expect(second.id).not.toBe(first.id);
    await t.call('PUT', `/api/tickets/${second.id}`, { token: t.admin, body: { queueId: support } });
    await t.call('PUT', `/api/tickets/${second.id}`, { token: agent.token, body: { status: 'open', userId: agent.user.id } });
    const resolved = await t.call('PUT', `/api/tickets/${second.id}`, { token: agent.token, body: { status: 'closed' } });
    expect(resolved.status, JSON.stringify(resolved.body)).toBe(200);
    await daysLater(second.id);
    const third = await inbound(t, connection.id, { from: number, body: 'Terceiro assunto' });
    await t.call('PUT', `/api/tickets/${third.id}`, { token: t.admin, body: { queueId: support } });

    const admin = await page(third.id);
    expect(admin.messages.map((m) => [m.ticketId, m.body]).filter(([, body]) => String(body).endsWith('assunto') || String(body).includes('palavrazul'))).toEqual([
      [first.id, 'Primeiro assunto palavrazul'],
      [second.id, 'Segundo assunto'],
      [third.id, 'Terceiro assunto'],
    ]);
    expect(admin.tickets?.map((x) => x.id)).toEqual([second.id, first.id]);
    const described = admin.tickets!.find((x) => x.id === second.id)!;
    expect(described).toMatchObject({ status: 'closed', closedBy: { id: agent.user.id, name: 'Ana Suporte' } });
    expect(Date.parse(described.closedAt!)).toBeGreaterThan(0);
    // The events come along with their tickets: the resolution of ticket 2 is in the page.
    expect(admin.events.some((e) => e.ticketId === second.id && e.kind === 'resolved')).toBe(true);

    // The agent (Support only) sees ticket 2 above ticket 3, not ticket 1 of Sales.
    const agents = await page(third.id, agent.token);
    expect(new Set(agents.messages.map((m) => m.ticketId))).toEqual(new Set([second.id, third.id]));
    expect(agents.tickets?.map((x) => x.id)).toEqual([second.id]);
    // Opening ticket 2 shows ticket 2 and what came before it, never the later ticket 3.
    const older = await page(second.id);
    expect(older.messages.some((m) => m.ticketId === third.id)).toBe(false);

    // Search reads every message of a contact's tickets: the word of ticket 1 finds it.
    const found = await t.call<TicketListResponse>('GET', `/api/tickets?searchParam=palavrazul&showAll=true`, { token: t.admin });
    expect(found.body.tickets.map((x) => x.id)).toContain(first.id);
  });

  it('pages a long conversation once: every message of every visible ticket exactly once, hasMore until the last page', { timeout: 60_000 }, async () => {
    const number = nextNumber();
    const bodies: string[] = [];
    let last: TicketDto | null = null;
    for (let ticketNo = 0; ticketNo < 3; ticketNo += 1) {
      for (let i = 0; i < 9; i += 1) {
        const body = `t${ticketNo} m${i}`;
        bodies.push(body);
        last = await inbound(t, connection.id, { from: number, body, name: 'Longa' });
      }
      if (ticketNo < 2) {
        await t.call('PUT', `/api/tickets/${last!.id}`, { token: t.admin, body: { status: 'closed' } });
        await daysLater(last!.id);
      }
    }
    const seen: string[] = [];
    for (let n = 1; ; n += 1) {
      const p = await page(last!.id, t.admin, n);
      seen.unshift(...p.messages.map((m) => m.body));
      if (!p.hasMore) break;
      expect(n).toBeLessThan(10);
    }
    expect(seen).toEqual(bodies);
  });
});
