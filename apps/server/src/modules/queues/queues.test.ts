import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { contacts, tickets, whatsapps } from '../../db/schema.js';
import { nextEvent, useTestApp } from '../../test/test-app.js';
import { QueuesRepository } from './queues.repository.js';

const t = useTestApp({ admin: true, user: true, restoreMocks: true });

let seq = 0;
/** A fresh, valid queue body: unique name and colour. */
function queueBody(extra: Record<string, unknown> = {}) {
  seq += 1;
  return { name: `Queue ${seq}`, color: `#A0${String(seq).padStart(4, '0')}`, greetingMessage: '', ...extra };
}

async function createQueue(extra: Record<string, unknown> = {}) {
  const res = await t.call('POST', '/api/queue', { token: t.admin, body: queueBody(extra) });
  expect(res.status).toBe(201);
  return res.body as { id: number; name: string; color: string; greetingMessage: string };
}

describe('POST /api/queue', () => {
  it('creates a queue with name, colour and greeting', async () => {
    const res = await t.call('POST', '/api/queue', {
      token: t.admin,
      body: { name: 'Sales', color: '#B80000', greetingMessage: 'Welcome to sales' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: expect.any(Number), name: 'Sales', color: '#B80000', greetingMessage: 'Welcome to sales' });
  });

  it('gives the default colour #7C7C7C and an empty greeting when none is sent', async () => {
    const res = await t.call('POST', '/api/queue', { token: t.admin, body: { name: 'Default colour' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ color: '#7C7C7C', greetingMessage: '' });
  });

  it('validates name 2–50 and colour 3–9 characters with the specification messages', async () => {
    const short = await t.call('POST', '/api/queue', { token: t.admin, body: { name: 'A', color: '#1' } });
    expect(short.status).toBe(400);
    expect(short.body.error).toBe('ERR_VALIDATION');
    expect(short.body.issues).toEqual([
      { path: 'name', message: 'Too Short!' },
      { path: 'color', message: 'Too Short!' },
    ]);
    const long = await t.call('POST', '/api/queue', { token: t.admin, body: { name: 'x'.repeat(51), color: '#1234567890' } });
    expect(long.body.issues).toEqual([
      { path: 'name', message: 'Too Long!' },
      { path: 'color', message: 'Too Long!' },
    ]);
    const empty = await t.call('POST', '/api/queue', { token: t.admin, body: {} });
    expect(empty.body.issues).toEqual([{ path: 'name', message: 'Required' }]);
  });

  it('refuses a taken name with ERR_QUEUE_NAME_ALREADY_EXISTS (409)', async () => {
    const queue = await createQueue();
    const res = await t.call('POST', '/api/queue', { token: t.admin, body: queueBody({ name: queue.name }) });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('ERR_QUEUE_NAME_ALREADY_EXISTS');
  });

  it('refuses a taken colour, in any letter case, with ERR_QUEUE_COLOR_ALREADY_EXISTS (409)', async () => {
    const queue = await createQueue({ color: '#ab12cd' });
    expect(queue.color).toBe('#ab12cd');
    const same = await t.call('POST', '/api/queue', { token: t.admin, body: queueBody({ color: '#ab12cd' }) });
    expect(same.status).toBe(409);
    expect(same.body.error).toBe('ERR_QUEUE_COLOR_ALREADY_EXISTS');
    expect(same.body.message).toBe('This color is already in use, pick another one.');
    const upper = await t.call('POST', '/api/queue', { token: t.admin, body: queueBody({ color: '#AB12CD' }) });
    expect(upper.status).toBe(409);
    expect(upper.body.error).toBe('ERR_QUEUE_COLOR_ALREADY_EXISTS');
  });

  it('lets only one of two concurrent creates with one colour win', async () => {
    const results = await Promise.all([
      t.call('POST', '/api/queue', { token: t.admin, body: queueBody({ color: '#00C0DE' }) }),
      t.call('POST', '/api/queue', { token: t.admin, body: queueBody({ color: '#00c0de' }) }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(results.find((r) => r.status === 409)!.body.error).toBe('ERR_QUEUE_COLOR_ALREADY_EXISTS');
  });

  it('lets only one of two concurrent creates with one name win', async () => {
    const results = await Promise.all([
      t.call('POST', '/api/queue', { token: t.admin, body: queueBody({ name: 'Racing name' }) }),
      t.call('POST', '/api/queue', { token: t.admin, body: queueBody({ name: 'Racing name' }) }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(results.find((r) => r.status === 409)!.body.error).toBe('ERR_QUEUE_NAME_ALREADY_EXISTS');
  });

  it('maps the unique indexes to the right code when a race gets past the friendly checks', async () => {
    vi.spyOn(QueuesRepository.prototype, 'nameTaken').mockResolvedValue(false);
    vi.spyOn(QueuesRepository.prototype, 'colorTaken').mockResolvedValue(false);
    const queue = await createQueue({ color: '#0a0b0c' });
    const color = await t.call('POST', '/api/queue', { token: t.admin, body: queueBody({ color: '#0A0B0C' }) });
    expect(color.status).toBe(409);
    expect(color.body.error).toBe('ERR_QUEUE_COLOR_ALREADY_EXISTS');
    const name = await t.call('POST', '/api/queue', { token: t.admin, body: queueBody({ name: queue.name }) });
    expect(name.status).toBe(409);
    expect(name.body.error).toBe('ERR_QUEUE_NAME_ALREADY_EXISTS');
    const other = await createQueue();
    const update = await t.call('PUT', `/api/queue/${other.id}`, { token: t.admin, body: { color: '#0a0b0C' } });
    expect(update.status).toBe(409);
    expect(update.body.error).toBe('ERR_QUEUE_COLOR_ALREADY_EXISTS');
  });

  it('is refused to a user with 403 ERR_NO_PERMISSION', async () => {
    const res = await t.call('POST', '/api/queue', { token: t.user, body: queueBody() });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('ERR_NO_PERMISSION');
  });
});

describe('GET /api/queue', () => {
  it('lists the queues by name for any signed-in user, with and without a trailing slash', async () => {
    await createQueue({ name: 'zz last' });
    await createQueue({ name: 'AA first' });
    const res = await t.call('GET', '/api/queue', { token: t.user });
    expect(res.status).toBe(200);
    const names = (res.body as { name: string }[]).map((q) => q.name);
    expect(names).toContain('AA first');
    expect(names.indexOf('AA first')).toBeLessThan(names.indexOf('zz last'));
    const slash = await t.call('GET', '/api/queue/', { token: t.user });
    expect(slash.status).toBe(200);
  });

  it('gives one queue by id, or ERR_NO_QUEUE_FOUND (404)', async () => {
    const queue = await createQueue();
    const res = await t.call('GET', `/api/queue/${queue.id}`, { token: t.user });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject(queue);
    const missing = await t.call('GET', '/api/queue/999999', { token: t.user });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('ERR_NO_QUEUE_FOUND');
  });

  it('needs a signed-in user (401 ERR_SESSION_EXPIRED)', async () => {
    const res = await t.call('GET', '/api/queue');
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('ERR_SESSION_EXPIRED');
  });
});

describe('PUT /api/queue/:id', () => {
  it('changes the fields given and keeps the others', async () => {
    const queue = await createQueue({ greetingMessage: 'Hello' });
    const res = await t.call('PUT', `/api/queue/${queue.id}`, { token: t.admin, body: { name: `${queue.name} renamed` } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: queue.id, name: `${queue.name} renamed`, color: queue.color, greetingMessage: 'Hello' });
  });

  it('lets a queue keep its own colour in another letter case', async () => {
    const queue = await createQueue({ color: '#abcdef' });
    const res = await t.call('PUT', `/api/queue/${queue.id}`, { token: t.admin, body: { color: '#ABCDEF' } });
    expect(res.status).toBe(200);
    expect(res.body.color).toBe('#ABCDEF');
  });

  it("refuses another queue's colour or name with 409", async () => {
    const first = await createQueue({ color: '#111222' });
    const second = await createQueue();
    const color = await t.call('PUT', `/api/queue/${second.id}`, { token: t.admin, body: { color: '#111222' } });
    expect(color.status).toBe(409);
    expect(color.body.error).toBe('ERR_QUEUE_COLOR_ALREADY_EXISTS');
    const name = await t.call('PUT', `/api/queue/${second.id}`, { token: t.admin, body: { name: first.name } });
    expect(name.status).toBe(409);
    expect(name.body.error).toBe('ERR_QUEUE_NAME_ALREADY_EXISTS');
  });

  it('validates like create, answers ERR_NO_QUEUE_FOUND for an unknown id, and is admin only', async () => {
    const queue = await createQueue();
    const invalid = await t.call('PUT', `/api/queue/${queue.id}`, { token: t.admin, body: { color: 'ab' } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.issues).toEqual([{ path: 'color', message: 'Too Short!' }]);
    // A colour the lists can paint (issue 33 item 19), on update as on create.
    for (const color of ['banana', '#12345G', '1273DE', '#12345']) {
      const notColour = await t.call('PUT', `/api/queue/${queue.id}`, { token: t.admin, body: { color } });
      expect(notColour.body.issues, color).toEqual([{ path: 'color', message: 'Must be a colour like #1273DE' }]);
    }
    const created = await t.call('POST', '/api/queue', { token: t.admin, body: { name: 'Not a colour', color: 'red-ish' } });
    expect(created.status).toBe(400);
    expect((await t.call('PUT', `/api/queue/${queue.id}`, { token: t.admin, body: { color: '#1273dE' } })).status).toBe(200);
    const missing = await t.call('PUT', '/api/queue/999999', { token: t.admin, body: { name: 'Whatever' } });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('ERR_NO_QUEUE_FOUND');
    const byUser = await t.call('PUT', `/api/queue/${queue.id}`, { token: t.user, body: { name: 'Mine now' } });
    expect(byUser.status).toBe(403);
    expect(byUser.body.error).toBe('ERR_NO_PERMISSION');
  });
});

describe('DELETE /api/queue/:id', () => {
  it('deletes the queue and keeps its tickets, without a queue', async () => {
    const queue = await createQueue();
    const { db } = t.app.database;
    const [w] = await db.insert(whatsapps).values({ name: 'Phone' }).returning();
    const [c] = await db.insert(contacts).values({ name: 'Queue customer', number: '5511911112222' }).returning();
    const [ticket] = await db
      .insert(tickets)
      .values({ contactId: c!.id, whatsappId: w!.id, queueId: queue.id, status: 'pending' })
      .returning();
    const res = await t.call('DELETE', `/api/queue/${queue.id}`, { token: t.admin });
    expect(res.status).toBe(200);
    expect((await t.call('GET', `/api/queue/${queue.id}`, { token: t.admin })).status).toBe(404);
    const [kept] = await db.select().from(tickets).where(eq(tickets.id, ticket!.id));
    expect(kept).toMatchObject({ id: ticket!.id, queueId: null, status: 'pending' });
  });

  it('answers ERR_NO_QUEUE_FOUND for an unknown id and is admin only', async () => {
    const missing = await t.call('DELETE', '/api/queue/999999', { token: t.admin });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('ERR_NO_QUEUE_FOUND');
    const queue = await createQueue();
    const byUser = await t.call('DELETE', `/api/queue/${queue.id}`, { token: t.user });
    expect(byUser.status).toBe(403);
    expect(byUser.body.error).toBe('ERR_NO_PERMISSION');
  });
});

describe('queue socket events', () => {
  it('tells every signed-in socket about create, update and delete', async () => {
    const socket = await t.socket(t.user);
    const created = nextEvent<{ action: string; queue: { id: number; name: string } }>(socket, 'queue');
    const queue = await createQueue({ name: 'Live queue' });
    expect(await created).toMatchObject({ action: 'create', queue: { id: queue.id, name: 'Live queue' } });

    const updated = nextEvent<{ action: string; queue: { name: string } }>(socket, 'queue');
    await t.call('PUT', `/api/queue/${queue.id}`, { token: t.admin, body: { name: 'Live queue 2' } });
    expect(await updated).toMatchObject({ action: 'update', queue: { name: 'Live queue 2' } });

    const deleted = nextEvent(socket, 'queue');
    await t.call('DELETE', `/api/queue/${queue.id}`, { token: t.admin });
    expect(await deleted).toEqual({ action: 'delete', queueId: queue.id });
  });
});
