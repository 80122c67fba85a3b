import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WebhookDto } from '@wadesk/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rowsOf } from '../../db/client.js';
import { connectedSimulator, inbound, phoneNumbers } from '../../test/desk-factories.js';
import { eventually } from '../../test/session-helpers.js';
import { useTestApp } from '../../test/test-app.js';
import { WebhooksRepository } from './webhooks.repository.js';

// Issue 37 §3, decision 0045: an event is written by the database in the transaction of its change (migration 0021's
// triggers), so it reaches the webhooks even when the process that made the change never records it.
const t = useTestApp({ admin: true, restoreMocks: true, config: { mediaFetchAllowPrivate: true }, webhookRetry: { backoffMs: [150, 300] } });
const numbers = phoneNumbers(47000, 7);

interface Received {
  id: string;
  event: string;
  data: Record<string, any>;
}

const got: Received[] = [];
let server: http.Server;
let url = '';
beforeAll(async () => {
  server = http.createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (raw += chunk));
    req.on('end', () => {
      got.push(JSON.parse(raw) as Received);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const db = () => t.app.database.db;
const recorder = () => t.app.services.webhookEvents;

async function outboxCount(): Promise<number> {
  return Number(rowsOf<{ n: string | number }>(await db().execute(sql`select count(*) as n from webhook_outbox`))[0]!.n);
}

async function withWebhook(events: string[], fn: (hook: WebhookDto) => Promise<void>): Promise<void> {
  const res = await t.call<WebhookDto>('POST', '/api/webhooks', { token: t.admin, body: { url, events } });
  expect(res.status).toBe(201);
  try {
    await fn(res.body);
  } finally {
    await t.call('DELETE', `/api/webhooks/${res.body.id}`, { token: t.admin });
  }
}

/** Everything in the outbox recorded, and every delivery of `hook` sent. */
async function delivered(hook: WebhookDto): Promise<void> {
  await recorder().idle();
  await eventually(
    async () => {
      const res = await t.call<{ webhooks: WebhookDto[] }>('GET', '/api/webhooks', { token: t.admin });
      return res.body.webhooks.find((w) => w.id === hook.id)!.pending === 0;
    },
    10_000,
    'deliveries sent',
  );
}

describe('webhook events written with their change (the outbox)', () => {
  it('tells the changes of a process that stopped before recording them, once each, in order', async () => {
    const { id: whatsappId } = await connectedSimulator(t);
    await withWebhook(['contact.created', 'ticket.created', 'ticket.updated', 'message.created'], async (hook) => {
      // This process "stops" right after each change commits: its recorder never runs.
      vi.spyOn(recorder(), 'wake').mockImplementation(() => undefined);
      const from = numbers();
      const ticket = await inbound(t, whatsappId, { from, body: 'Chegou antes da queda', name: 'Outbox Ana' });
      expect((await t.call('PUT', `/api/tickets/${ticket.id}`, { token: t.admin, body: { status: 'open' } })).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(got.filter((r) => r.data.ticket?.id === ticket.id)).toHaveLength(0);
      expect(await outboxCount()).toBeGreaterThanOrEqual(4);

      // Another process's sweep (or this one's start) records what was left.
      vi.restoreAllMocks();
      await delivered(hook);
      expect(await outboxCount()).toBe(0);
      const about = got.filter((r) => r.data.ticket?.id === ticket.id || r.data.contact?.id === ticket.contact.id);
      expect(about.map((r) => r.event)).toEqual(['contact.created', 'ticket.created', 'message.created', 'ticket.updated']);
      expect(about[2]!.data).toMatchObject({ message: { body: 'Chegou antes da queda' }, direction: 'in', origin: 'contact' });
      // The state each change left, with where it was.
      expect(about[3]!.data).toMatchObject({ ticket: { id: ticket.id, status: 'open' }, previous: { status: 'pending' } });
      expect(new Set(about.map((r) => r.id)).size).toBe(about.length);
    });
  });

  it('tells a change made by any path, even SQL no code of the desk heard; a change rolled back tells nothing', async () => {
    const { id: whatsappId } = await connectedSimulator(t);
    await withWebhook(['ticket.updated'], async (hook) => {
      const ticket = await inbound(t, whatsappId, { from: numbers(), body: 'Oi' });
      await delivered(hook);
      const before = got.length;
      await db()
        .transaction(async (tx) => {
          await tx.execute(sql`update tickets set status = 'closed' where id = ${ticket.id}`);
          throw new Error('rolled back');
        })
        .catch(() => undefined);
      expect(await outboxCount()).toBe(0);
      await db().execute(sql`update tickets set status = 'open' where id = ${ticket.id}`);
      await delivered(hook);
      const told = got.slice(before).filter((r) => r.data.ticket?.id === ticket.id);
      expect(told.map((r) => [r.event, r.data.previous?.status, r.data.ticket.status])).toEqual([['ticket.updated', 'pending', 'open']]);
    });
  });

  it('keeps the events when recording them fails, and tells each once on the next try', async () => {
    await withWebhook(['contact.created'], async (hook) => {
      const fail = vi.spyOn(WebhooksRepository.prototype, 'insertDeliveries').mockRejectedValueOnce(new Error('database gone'));
      const made = await t.call<{ id: number }>('POST', '/api/contacts', { token: t.admin, body: { name: 'Outbox Bruno', number: numbers() } });
      expect(made.status).toBe(201);
      await eventually(async () => fail.mock.calls.length > 0, 5000, 'a failed try');
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await outboxCount()).toBe(1);
      await delivered(hook);
      expect(got.filter((r) => r.event === 'contact.created' && r.data.contact.id === made.body.id)).toHaveLength(1);
      expect(await outboxCount()).toBe(0);
    });
  });

  it('tells several changes of a ticket in one transaction as one event: the state it left, where it was before', async () => {
    const { id: whatsappId } = await connectedSimulator(t);
    await withWebhook(['ticket.updated'], async (hook) => {
      const ticket = await inbound(t, whatsappId, { from: numbers(), body: 'Várias mudanças' });
      await delivered(hook);
      const before = got.length;
      await db().transaction(async (tx) => {
        await tx.execute(sql`update tickets set status = 'open' where id = ${ticket.id}`);
        await tx.execute(sql`update tickets set unread_messages = 0, last_message = 'editado' where id = ${ticket.id}`);
      });
      await delivered(hook);
      const told = got.slice(before).filter((r) => r.data.ticket?.id === ticket.id);
      expect(told).toHaveLength(1);
      expect(told[0]!.data).toMatchObject({ ticket: { status: 'open', lastMessage: 'editado' }, previous: { status: 'pending' } });
    });
  });

  it("tells each change of a ticket with the labels that change left, however late it is recorded", async () => {
    const { id: whatsappId } = await connectedSimulator(t);
    await withWebhook(['ticket.updated'], async (hook) => {
      const ticket = await inbound(t, whatsappId, { from: numbers(), body: 'Etiquetas' });
      await delivered(hook);
      const label = await t.call<{ id: number }>('POST', '/api/labels', { token: t.admin, body: { name: `outbox ${Date.now() % 1_000_000}`, color: '#1273DE' } });
      expect(label.status).toBe(201);
      const { user } = await t.createUser();
      const change = async (body: Record<string, unknown>) =>
        expect((await t.call('PUT', `/api/tickets/${ticket.id}`, { token: t.admin, body })).status).toBe(200);
      // Every change is made before any is recorded (a recorder that stopped, then another process's sweep).
      vi.spyOn(recorder(), 'wake').mockImplementation(() => undefined);
      const before = got.length;
      await change({ userId: user.id, status: 'open' });
      await change({ labelIds: [label.body.id] });
      await change({ status: 'pending', userId: null });
      await change({ labelIds: [] });
      vi.restoreAllMocks();
      await delivered(hook);

      const told = got.slice(before).filter((r) => r.event === 'ticket.updated' && r.data.ticket.id === ticket.id);
      const seen = told.map((r) => [r.data.ticket.status, r.data.ticket.userId, r.data.ticket.labels.map((l: { id: number }) => l.id), r.data.previous.labelIds]);
      expect(seen).toEqual([
        ['open', user.id, [], []],
        ['open', user.id, [label.body.id], []],
        ['pending', null, [label.body.id], [label.body.id]],
        ['pending', null, [], [label.body.id]],
      ]);
    });
  });

  it('writes nothing when no webhook listens, and no message.created for history brought from the phone', async () => {
    const { id: whatsappId } = await connectedSimulator(t);
    await inbound(t, whatsappId, { from: numbers(), body: 'Ninguém ouve' });
    expect(await outboxCount()).toBe(0);
    await withWebhook(['message.created'], async () => {
      const ticket = await inbound(t, whatsappId, { from: numbers(), body: 'Alguém ouve' });
      await recorder().idle();
      const insertOld = sql`insert into messages (ticket_id, channel_message_id, whatsapp_id, body) values (${ticket.id}, ${`old-${Date.now()}`}, ${whatsappId}, 'do celular')`;
      await db().transaction(async (tx) => {
        await new WebhooksRepository(tx).quietMessageEvents();
        await tx.execute(insertOld);
      });
      expect(await outboxCount()).toBe(0);
      // The quiet lasts only its transaction.
      await db().execute(sql`insert into messages (ticket_id, channel_message_id, whatsapp_id, body) values (${ticket.id}, ${`new-${Date.now()}`}, ${whatsappId}, 'nova')`);
      expect(await outboxCount()).toBe(1);
      await recorder().idle();
    });
  });
});
