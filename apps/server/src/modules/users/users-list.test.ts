import { describe, expect, it } from 'vitest';
import { createQueue } from '../../test/desk-factories.js';
import { useTestApp } from '../../test/test-app.js';

const t = useTestApp();

describe('GET /api/users/list (the colleagues a ticket can be transferred to)', () => {
  it('gives any signed-in user every colleague with id, name and queues, and nothing more', async () => {
    const sales = await createQueue(t, 'Colleague Sales');
    const colleague = await t.createUser({ name: 'Zélia Colleague', queueIds: [sales] });
    const me = await t.createUser({ name: 'Attendant Me' });

    const res = await t.call('GET', '/api/users/list', { token: me.token });
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    for (const entry of res.body) expect(Object.keys(entry).sort()).toEqual(['id', 'name', 'queues']);
    const zelia = res.body.find((u: { id: number }) => u.id === colleague.user.id);
    expect(zelia).toEqual({ id: colleague.user.id, name: 'Zélia Colleague', queues: [{ id: sales, name: 'Colleague Sales', color: expect.any(String) }] });
    for (const queue of zelia.queues) expect(Object.keys(queue).sort()).toEqual(['color', 'id', 'name']);
    expect(res.body.find((u: { id: number }) => u.id === me.user.id)).toEqual({ id: me.user.id, name: 'Attendant Me', queues: [] });
    // Sorted by name, case-insensitively.
    const names: string[] = res.body.map((u: { name: string }) => u.name.toLowerCase());
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    // The trailing-slash form answers the same.
    expect((await t.call('GET', '/api/users/list/', { token: me.token })).body).toEqual(res.body);
  });

  it('refuses an anonymous caller with 401', async () => {
    const res = await t.call('GET', '/api/users/list');
    expect(res.status).toBe(401);
  });

  it('leaves GET /api/users/:id as it was', async () => {
    const me = await t.createUser();
    const own = await t.call('GET', `/api/users/${me.user.id}`, { token: me.token });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ id: me.user.id, email: me.user.email });
    const admin = await t.adminToken();
    const missing = await t.call('GET', '/api/users/99999999', { token: admin });
    expect(missing.status).toBe(404);
  });
});
