import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WebhookDeliveryDto, WebhookDeliveryListResponse, WebhookDto } from '@wadesk/contracts';
import { WEBHOOK_EVENTS } from '@wadesk/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectedSimulator, createQueue, inbound, phoneNumbers } from '../../test/desk-factories.js';
import { useTestApp, type TestResponse } from '../../test/test-app.js';
import { eventually } from '../../test/session-helpers.js';
import { WebhooksService } from './webhooks.service.js';

// Loopback receivers: MEDIA_FETCH_PRIVATE=allow (the private-address refusal is webhooks-access.test.ts).
// Retries after 150 ms then 300 ms, so a receiver that was down gets its events within a second of coming back.
const t = useTestApp({ admin: true, user: true, config: { mediaFetchAllowPrivate: true }, webhookRetry: { backoffMs: [150, 300] } });
const numbers = phoneNumbers(41000, 7);

interface Received {
  id: string;
  event: string;
  createdAt: string;
  data: Record<string, any>;
  timestamp: string;
  signature: string;
  raw: string;
}

/** A webhook receiver on loopback that records what it gets and answers `status()`. */
class Receiver {
  readonly got: Received[] = [];
  status: () => number = () => 200;
  private server = http.createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (raw += chunk));
    req.on('end', () => {
      const code = this.status();
      if (code >= 200 && code < 300) {
        const body = JSON.parse(raw) as Omit<Received, 'timestamp' | 'signature' | 'raw'>;
        this.got.push({ ...body, timestamp: String(req.headers['x-desk-timestamp']), signature: String(req.headers['x-desk-signature']), raw });
      }
      res.writeHead(code).end();
    });
  });
  url = '';

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  events(filter?: (r: Received) => boolean): string[] {
    return this.got.filter((r) => !filter || filter(r)).map((r) => r.event);
  }
}

function validSignature(secret: string, r: Received): boolean {
  return r.signature === `sha256=${createHmac('sha256', secret).update(`${r.timestamp}.${r.raw}`).digest('hex')}`;
}

async function createWebhook(url: string, events: string[] = [...WEBHOOK_EVENTS], extra: Record<string, unknown> = {}): Promise<WebhookDto> {
  const res = await t.call<WebhookDto>('POST', '/api/webhooks', { token: t.admin, body: { url, events, ...extra } });
  expect(res.status).toBe(201);
  return res.body;
}

const receivers: Receiver[] = [];
async function receiver(): Promise<Receiver> {
  const r = new Receiver();
  await r.start();
  receivers.push(r);
  return r;
}

let whatsappId: number;
beforeAll(async () => {
  whatsappId = (await connectedSimulator(t)).id;
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.stop()));
});

/** Every webhook's deliveries settled (delivered or failed), after every event heard is stored. */
async function settled(webhookId: number): Promise<void> {
  await t.app.services.webhookEvents.idle();
  await eventually(
    async () => {
      const res = await t.call<WebhookDto>('GET', '/api/webhooks', { token: t.admin });
      const hook = (res.body as unknown as { webhooks: WebhookDto[] }).webhooks.find((w) => w.id === webhookId)!;
      return hook.pending === 0;
    },
    10_000,
    'deliveries settled',
  );
}

describe('outgoing webhooks: delivery', () => {
  it('gives a loopback receiver every event once, signed with the secret, in order per ticket', async () => {
    const rx = await receiver();
    const hook = await createWebhook(rx.url);
    expect(hook.secret).toMatch(/^[0-9a-f]{64}$/);

    // A contact writes in (new contact, new ticket), an attendant answers, the contact is renamed, a new contact is made.
    const from = numbers();
    const ticket = await inbound(t, whatsappId, { from, body: 'Olá, preciso de ajuda', name: 'Ana Webhook' });
    const sent = await t.call('POST', `/api/messages/${ticket.id}`, { token: t.admin, body: { body: 'Bom dia, Ana!' } });
    expect(sent.status).toBeLessThan(300);
    const renamed = await t.call('PUT', `/api/contacts/${ticket.contact.id}`, { token: t.admin, body: { name: 'Ana W.', number: ticket.contact.number } });
    expect(renamed.status).toBe(200);
    const made = await t.call<{ id: number }>('POST', '/api/contacts', { token: t.admin, body: { name: 'Bruno Webhook', number: numbers() } });
    expect(made.status).toBe(201);
    await settled(hook.id);

    // Every one signed, each id once.
    expect(rx.got.every((r) => validSignature(hook.secret, r))).toBe(true);
    expect(new Set(rx.got.map((r) => r.id)).size).toBe(rx.got.length);
    for (const r of rx.got) expect(Math.abs(Number(r.timestamp) - Date.now() / 1000)).toBeLessThan(60);

    const aboutTicket = (r: Received) => r.data.ticket?.id === ticket.id || r.data.message?.ticketId === ticket.id;
    const ticketEvents = rx.events(aboutTicket);
    // The ticket is announced once, before anything else about it; the incoming message before the answer.
    expect(ticketEvents.filter((e) => e === 'ticket.created')).toHaveLength(1);
    expect(ticketEvents[0]).toBe('ticket.created');
    const messages = rx.got.filter((r) => r.event === 'message.created' && aboutTicket(r));
    expect(messages.map((m) => [m.data.message.body, m.data.direction, m.data.origin])).toEqual([
      ['Olá, preciso de ajuda', 'in', 'contact'],
      ['Bom dia, Ana!', 'out', 'chat'],
    ]);
    expect(ticketEvents).toContain('ticket.updated');
    // The contact: created once (it wrote in), then updated; the other contact created once.
    const contactEvents = rx.got.filter((r) => r.data.contact?.id === ticket.contact.id).map((r) => r.event);
    expect(contactEvents).toEqual(['contact.created', 'contact.updated']);
    expect(rx.got.filter((r) => r.event === 'contact.created' && r.data.contact.id === made.body.id)).toHaveLength(1);

    // The log shows them delivered, 200, first attempt. The answer's ack (message.updated, 200 ms after the send) can
    // still be on its way after the deliveries settled: the log is read once it holds what the receiver got, none
    // of it still being sent (CI once read it with the ack's delivery in flight).
    let log: TestResponse<WebhookDeliveryListResponse> | undefined;
    await eventually(
      async () => {
        log = await t.call<WebhookDeliveryListResponse>('GET', `/api/webhooks/${hook.id}/deliveries`, { token: t.admin });
        return log.body.count === rx.got.length && log.body.deliveries.every((d) => d.status !== 'pending');
      },
      10_000,
      'the log caught up with the receiver',
    );
    expect(log!.status).toBe(200);
    expect(log!.body.deliveries.every((d) => d.status === 'delivered' && d.responseCode === 200 && d.attempts === 1)).toBe(true);
    await t.call('DELETE', `/api/webhooks/${hook.id}`, { token: t.admin });
  });

  it('tells a message deleted, a ticket changed (with where it was), a rating once and a bulk send finished once', async () => {
    const rx = await receiver();
    const hook = await createWebhook(rx.url, ['message.updated', 'ticket.updated', 'csat.received', 'campaign.finished']);
    const queueId = await createQueue(t, `Webhooks ${Date.now()}`);
    const surveyed = await connectedSimulator(t, { queueIds: [queueId] });
    expect((await t.call('PUT', '/api/settings/csatEnabled', { token: t.admin, body: { value: 'enabled' } })).status).toBe(200);

    const from = numbers();
    const ticket = await inbound(t, surveyed.id, { from, body: 'Oi' });
    expect((await t.call('PUT', `/api/tickets/${ticket.id}`, { token: t.admin, body: { status: 'open' } })).status).toBe(200);
    const sent = await t.call<{ id: number }>('POST', `/api/messages/${ticket.id}`, { token: t.admin, body: { body: 'to be deleted' } });
    expect((await t.call('DELETE', `/api/messages/${sent.body.id}`, { token: t.admin })).status).toBeLessThan(300);
    expect((await t.call('PUT', `/api/tickets/${ticket.id}`, { token: t.admin, body: { status: 'closed' } })).status).toBe(200);
    // The survey goes on resolve; the rating, then its comment, come back.
    await eventually(async () => rx.got.some((r) => r.event === 'ticket.updated' && r.data.ticket.status === 'closed'), 10_000, 'closed told');
    await new Promise((resolve) => setTimeout(resolve, 500));
    await inbound(t, surveyed.id, { from, body: '5' }).catch(() => undefined);
    await eventually(async () => rx.got.some((r) => r.event === 'csat.received'), 10_000, 'csat.received');
    await t.call('POST', `/api/simulator/${surveyed.id}/inbound`, { token: t.admin, body: { from, body: 'Muito bom!' } });

    const campaign = await t.call<{ id: number }>('POST', '/api/campaigns', {
      token: t.admin,
      body: { whatsappId: surveyed.id, minInterval: 0, maxInterval: 0, kind: 'text', numbers: numbers(), message: 'Promoção' },
    });
    expect(campaign.status).toBe(201);
    await eventually(async () => rx.got.some((r) => r.event === 'campaign.finished'), 20_000, 'campaign.finished');
    await settled(hook.id);
    await new Promise((resolve) => setTimeout(resolve, 500));
    await settled(hook.id);

    const deleted = rx.got.find((r) => r.event === 'message.updated' && r.data.message.id === sent.body.id && r.data.message.isDeleted);
    expect(deleted?.data).toMatchObject({ direction: 'out', origin: 'chat', ticket: { id: ticket.id } });
    const statuses = rx.got.filter((r) => r.event === 'ticket.updated' && r.data.ticket.id === ticket.id && r.data.previous);
    expect(statuses.some((r) => r.data.previous.status === 'pending' && r.data.ticket.status === 'open')).toBe(true);
    expect(statuses.some((r) => r.data.previous.status === 'open' && r.data.ticket.status === 'closed')).toBe(true);
    const ratings = rx.got.filter((r) => r.event === 'csat.received');
    expect(ratings).toHaveLength(1);
    expect(ratings[0]!.data).toMatchObject({ ticket: { id: ticket.id }, csat: { rating: 5 } });
    // The ticket's update that carries the rating comes before the rating's own event.
    const ratedUpdate = rx.got.findIndex((r) => r.event === 'ticket.updated' && r.data.ticket.id === ticket.id && r.data.ticket.csat);
    expect(ratedUpdate).toBeGreaterThanOrEqual(0);
    expect(rx.got.indexOf(ratings[0]!)).toBeGreaterThan(ratedUpdate);
    const finished = rx.got.filter((r) => r.event === 'campaign.finished');
    expect(finished).toHaveLength(1);
    expect(finished[0]!.data.campaign).toMatchObject({ id: campaign.body.id, status: 'done' });
    expect(rx.got.every((r) => validSignature(hook.secret, r))).toBe(true);
    await t.call('PUT', '/api/settings/csatEnabled', { token: t.admin, body: { value: 'disabled' } });
    await t.call('DELETE', `/api/webhooks/${hook.id}`, { token: t.admin });
  });

  it("tells a ticket's queue, attendant and labels changed (ticket.updated, with where it was, its labels too), in order", async () => {
    const rx = await receiver();
    const hook = await createWebhook(rx.url, ['ticket.updated']);
    const ticket = await inbound(t, whatsappId, { from: numbers(), body: 'Mudanças' });
    const queueId = await createQueue(t, `Webhook moves ${Date.now()}`);
    const { user } = await t.createUser();
    const label = await t.call<{ id: number }>('POST', '/api/labels', { token: t.admin, body: { name: `wh ${Date.now() % 1_000_000}`, color: '#1273DE' } });
    expect(label.status).toBe(201);

    // Each event tells the labels its change left (decision 0045), however late it is recorded: the assignment's event
    // does not show the label added after it.
    const change = async (body: Record<string, unknown>) =>
      expect((await t.call('PUT', `/api/tickets/${ticket.id}`, { token: t.admin, body })).status).toBe(200);
    await change({ queueId });
    await change({ userId: user.id, status: 'open' });
    await change({ labelIds: [label.body.id] });
    await change({ labelIds: [] });
    await settled(hook.id);

    const updates = rx.got.filter((r) => r.event === 'ticket.updated' && r.data.ticket.id === ticket.id);
    const moved = updates.findIndex((r) => r.data.ticket.queueId === queueId && r.data.previous?.queueId !== queueId);
    const assigned = updates.findIndex((r) => r.data.ticket.userId === user.id && r.data.previous && r.data.previous.userId !== user.id);
    const labelled = updates.findIndex((r) => r.data.ticket.labels.some((l: { id: number }) => l.id === label.body.id));
    expect(moved, 'queue change told').toBeGreaterThanOrEqual(0);
    expect(assigned, 'attendant change told').toBeGreaterThan(moved);
    expect(updates[assigned]!.data.ticket.status).toBe('open');
    expect(labelled, 'labels change told').toBeGreaterThan(assigned);
    expect(updates.slice(0, labelled).some((r) => r.data.ticket.labels.length > 0)).toBe(false);
    // Where it was includes the labels: none before the label, the label before it was taken off.
    expect(updates[labelled]!.data.previous).toMatchObject({ status: 'open', userId: user.id, labelIds: [] });
    const unlabelled = updates.at(-1)!;
    expect(unlabelled.data.ticket.labels).toEqual([]);
    expect(unlabelled.data.previous.labelIds).toEqual([label.body.id]);
    expect(rx.got.every((r) => validSignature(hook.secret, r))).toBe(true);
    await t.call('DELETE', `/api/webhooks/${hook.id}`, { token: t.admin });
  });

  it('keeps the events of a receiver that is down, then delivers them in order once it answers again', async () => {
    const rx = await receiver();
    let down = true;
    rx.status = () => (down ? 503 : 200);
    const hook = await createWebhook(rx.url, ['message.created']);
    const ticket = await inbound(t, whatsappId, { from: numbers(), body: 'one' });
    for (const body of ['two', 'three', 'four']) await t.call('POST', `/api/messages/${ticket.id}`, { token: t.admin, body: { body } });
    await t.app.services.webhookEvents.idle();

    // It keeps failing: the first waits (retried), the others wait behind it.
    await eventually(
      async () => {
        const log = await t.call<WebhookDeliveryListResponse>('GET', `/api/webhooks/${hook.id}/deliveries`, { token: t.admin });
        const oldest = log.body.deliveries.at(-1)!;
        return oldest.attempts >= 3 && oldest.responseCode === 503 && oldest.status === 'pending';
      },
      10_000,
      'retried while down',
    );
    const waiting = await t.call<WebhookDeliveryListResponse>('GET', `/api/webhooks/${hook.id}/deliveries`, { token: t.admin });
    expect(waiting.body.deliveries.slice(0, -1).every((d) => d.attempts === 0 && d.status === 'pending')).toBe(true);
    expect(waiting.body.deliveries.at(-1)!.lastError).toBe('the receiver answered 503');
    expect(rx.got).toHaveLength(0);

    down = false;
    await settled(hook.id);
    expect(rx.got.map((r) => r.data.message.body)).toEqual(['one', 'two', 'three', 'four']);
    expect(rx.got.every((r) => validSignature(hook.secret, r))).toBe(true);
    await t.call('DELETE', `/api/webhooks/${hook.id}`, { token: t.admin });
  });

  it('hears nothing while off; a delivery already waiting is held while off and goes out when it is turned back on', async () => {
    const rx = await receiver();
    const hook = await createWebhook(rx.url, ['contact.created'], { active: false });
    const body = (active: boolean) => ({ url: rx.url, events: ['contact.created'], active });
    await t.call('POST', '/api/contacts', { token: t.admin, body: { name: 'Off Contact', number: numbers() } });
    await t.app.services.webhookEvents.idle();
    const log = await t.call<WebhookDeliveryListResponse>('GET', `/api/webhooks/${hook.id}/deliveries`, { token: t.admin });
    expect(log.body.count).toBe(0);

    // On, with the receiver down: an event waits for its retry; then the webhook is turned off.
    rx.status = () => 503;
    expect((await t.call('PUT', `/api/webhooks/${hook.id}`, { token: t.admin, body: body(true) })).status).toBe(200);
    await t.call('POST', '/api/contacts', { token: t.admin, body: { name: 'Waiting Contact', number: numbers() } });
    await eventually(
      async () => {
        const waiting = await t.call<WebhookDeliveryListResponse>('GET', `/api/webhooks/${hook.id}/deliveries`, { token: t.admin });
        return waiting.body.deliveries.length === 1 && waiting.body.deliveries[0]!.attempts >= 1 && waiting.body.deliveries[0]!.status === 'pending';
      },
      10_000,
      'a delivery waiting for its retry',
    );
    expect((await t.call('PUT', `/api/webhooks/${hook.id}`, { token: t.admin, body: body(false) })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The receiver is back, the webhook off: its retries (every 300 ms here) send nothing.
    rx.status = () => 200;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(rx.got).toHaveLength(0);
    const held = await t.call<WebhookDeliveryListResponse>('GET', `/api/webhooks/${hook.id}/deliveries`, { token: t.admin });
    expect(held.body.deliveries.map((d) => d.status)).toEqual(['pending']);

    expect((await t.call('PUT', `/api/webhooks/${hook.id}`, { token: t.admin, body: body(true) })).status).toBe(200);
    await t.call('POST', '/api/contacts', { token: t.admin, body: { name: 'On Contact', number: numbers() } });
    await settled(hook.id);
    expect(rx.got.map((r) => r.data.contact.name).sort()).toEqual(['On Contact', 'Waiting Contact']);
    await t.call('DELETE', `/api/webhooks/${hook.id}`, { token: t.admin });
  });

  it('tests a webhook at once, and redelivers an event with the same id', async () => {
    const rx = await receiver();
    const hook = await createWebhook(rx.url, ['contact.created'], { secret: 'a-secret-of-at-least-16' });
    expect(hook.secret).toBe('a-secret-of-at-least-16');
    const test = await t.call<WebhookDeliveryDto>('POST', `/api/webhooks/${hook.id}/test`, { token: t.admin });
    expect(test.status).toBe(200);
    expect(test.body).toMatchObject({ event: 'webhook.test', status: 'delivered', responseCode: 200, attempts: 1 });
    expect(rx.got).toHaveLength(1);
    expect(validSignature('a-secret-of-at-least-16', rx.got[0]!)).toBe(true);

    rx.status = () => 500;
    const failed = await t.call<WebhookDeliveryDto>('POST', `/api/webhooks/${hook.id}/test`, { token: t.admin });
    expect(failed.body).toMatchObject({ status: 'failed', responseCode: 500, lastError: 'the receiver answered 500' });

    rx.status = () => 204;
    const again = await t.call<WebhookDeliveryDto>('POST', `/api/webhooks/${hook.id}/deliveries/${test.body.id}/redeliver`, { token: t.admin });
    expect(again.status).toBe(202);
    expect(again.body.eventId).toBe(test.body.eventId);
    await settled(hook.id);
    expect(rx.got.map((r) => r.id)).toEqual([test.body.eventId, test.body.eventId]);

    // Changing it without a secret keeps the secret.
    const kept = await t.call<WebhookDto>('PUT', `/api/webhooks/${hook.id}`, { token: t.admin, body: { url: rx.url, events: ['ticket.updated'], secret: '' } });
    expect(kept.body).toMatchObject({ secret: 'a-secret-of-at-least-16', events: ['ticket.updated'] });
    const other = await t.call('POST', `/api/webhooks/${hook.id}/deliveries/999999/redeliver`, { token: t.admin });
    expect(other.status).toBe(404);
    await t.call('DELETE', `/api/webhooks/${hook.id}`, { token: t.admin });
  });

  it('retries a receiver down for a minute after 10 s, 30 s and 1 min (the real backoff), then gives it each ticket in order', async () => {
    // A service of its own on a clock the test moves (years ahead, out of the app's sweep), with the default backoff;
    // the test plays the job queue: each queued attempt runs at its time.
    const start = new Date('2099-05-01T08:00:00Z');
    let now = start;
    const upAt = start.getTime() + 60_000;
    const rx = await receiver();
    rx.status = () => (now.getTime() < upAt ? 503 : 200);
    const hook = await createWebhook(rx.url, ['ticket.updated'], { active: false });
    await t.app.database.db.execute(sql`update webhooks set active = true where id = ${hook.id}`);
    const log = { info: () => undefined, warn: () => undefined, error: () => undefined };
    const service = new WebhooksService(t.app.database.db, { allowPrivate: true, clock: () => now, log });
    const queued: { id: number; at?: Date }[] = [];
    service.useQueue(async (id, at) => {
      queued.push({ id, at });
    });
    const to = [{ webhookId: hook.id, event: 'ticket.updated' }];
    for (const [ticket, n] of [['A', 1], ['B', 1], ['A', 2], ['B', 2], ['A', 3]] as const) await service.record(to, `ticket:9099${ticket}`, { ticket, n });

    const tries: number[] = [];
    while (queued.length > 0) {
      queued.sort((a, b) => (a.at?.getTime() ?? 0) - (b.at?.getTime() ?? 0));
      const next = queued.shift()!;
      if (next.at && next.at > now) now = next.at;
      const before = rx.got.length;
      await service.attempt(next.id);
      if (rx.got.length === before) tries.push((now.getTime() - start.getTime()) / 1000);
    }

    // Both heads failed at 0, 10 and 40 s (down), and went through at 100 s, 1 min after the last failure.
    expect([...new Set(tries)]).toEqual([0, 10, 40]);
    expect(rx.got.map((r) => `${r.data.ticket}${r.data.n}`).filter((e) => e.startsWith('A'))).toEqual(['A1', 'A2', 'A3']);
    expect(rx.got.map((r) => `${r.data.ticket}${r.data.n}`).filter((e) => e.startsWith('B'))).toEqual(['B1', 'B2']);
    expect(now.getTime() - start.getTime()).toBe(100_000);
    expect(rx.got.every((r) => validSignature(hook.secret, r) && Number(r.timestamp) === Math.floor(now.getTime() / 1000))).toBe(true);
    const deliveries = await t.call<WebhookDeliveryListResponse>('GET', `/api/webhooks/${hook.id}/deliveries`, { token: t.admin });
    expect(deliveries.body.deliveries.map((d) => [d.status, d.attempts]).sort()).toEqual([
      ['delivered', 1],
      ['delivered', 1],
      ['delivered', 1],
      ['delivered', 4],
      ['delivered', 4],
    ]);
    await t.call('DELETE', `/api/webhooks/${hook.id}`, { token: t.admin });
  });

  it('gives a delivery up 24 h after its event (failed), and the next of its ticket goes then', async () => {
    const rx = await receiver();
    rx.status = () => 500;
    const hook = await createWebhook(rx.url, ['ticket.updated'], { active: false });
    // A service of its own with a clock the test moves, years ahead so the app's own sweep never finds these due
    // (the app's job queue is left out: the test runs each attempt).
    let now = new Date('2099-03-01T12:00:00Z');
    const queued: { id: number; at?: Date }[] = [];
    const log = { info: () => undefined, warn: () => undefined, error: () => undefined };
    const service = new WebhooksService(t.app.database.db, { allowPrivate: true, clock: () => now, log });
    service.useQueue(async (id, at) => {
      queued.push({ id, at });
    });
    await t.app.database.db.execute(sql`update webhooks set active = true where id = ${hook.id}`);
    await service.record([{ webhookId: hook.id, event: 'ticket.updated' }], 'ticket:424242', { n: 1 });
    await service.record([{ webhookId: hook.id, event: 'ticket.updated' }], 'ticket:424242', { n: 2 });
    const [first, second] = queued.splice(0).map((q) => q.id);

    // The second waits behind the first; the first fails and is retried after 10 s.
    await service.attempt(second!);
    expect(queued).toEqual([]);
    await service.attempt(first!);
    expect(queued).toEqual([{ id: first, at: new Date('2099-03-01T12:00:10Z') }]);
    queued.length = 0;

    // 24 h later it fails for good, and the second is queued.
    now = new Date('2099-03-02T12:00:00Z');
    await service.attempt(first!);
    expect(queued).toEqual([{ id: second, at: undefined }]);
    const deliveries = await t.call<WebhookDeliveryListResponse>('GET', `/api/webhooks/${hook.id}/deliveries`, { token: t.admin });
    expect(deliveries.body.deliveries.find((d) => d.id === first)).toMatchObject({ status: 'failed', attempts: 2, responseCode: 500 });
    expect(rx.got).toHaveLength(0);

    // The log keeps ended deliveries 30 days; the one still waiting stays.
    now = new Date('2099-04-01T12:00:01Z');
    expect(await service.prune()).toBeGreaterThanOrEqual(1);
    const kept = await t.call<WebhookDeliveryListResponse>('GET', `/api/webhooks/${hook.id}/deliveries`, { token: t.admin });
    expect(kept.body.deliveries.map((d) => [d.id, d.status])).toEqual([[second, 'pending']]);
    await t.call('DELETE', `/api/webhooks/${hook.id}`, { token: t.admin });
  });

  it('refuses attendants and signed-out callers', async () => {
    for (const [method, url] of [
      ['GET', '/api/webhooks'],
      ['POST', '/api/webhooks'],
      ['PUT', '/api/webhooks/1'],
      ['DELETE', '/api/webhooks/1'],
      ['POST', '/api/webhooks/1/test'],
      ['GET', '/api/webhooks/1/deliveries'],
      ['POST', '/api/webhooks/1/deliveries/1/redeliver'],
    ] as const) {
      expect((await t.call(method, url, { token: t.user, body: {} })).status, `${method} ${url}`).toBe(403);
      expect((await t.call(method, url, { body: {} })).status, `${method} ${url}`).toBe(401);
    }
  });
});
