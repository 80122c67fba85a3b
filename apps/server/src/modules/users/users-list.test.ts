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

describe('GET /api/users/?searchParam= for an attendant (the transfer modal of whaticket\'s client)', () => {
  it('answers colleagues found by name with id, name and queues, without e-mail or profile, a page at a time', async () => {
    const support = await createQueue(t, 'Search Support');
    const colleague = await t.createUser({ name: 'Óscar Searchable', email: 'oscar-hidden@test.local', queueIds: [support] });
    const me = await t.createUser({ name: 'Attendant Searching' });

    const res = await t.call('GET', '/api/users/?searchParam=oscar', { token: me.token });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['hasMore', 'users']);
    expect(res.body).toEqual({
      users: [{ id: colleague.user.id, name: 'Óscar Searchable', queues: [{ id: support, name: 'Search Support', color: expect.any(String) }] }],
      hasMore: false,
    });
    // The e-mail is neither shown nor searched.
    expect((await t.call('GET', '/api/users?searchParam=oscar-hidden', { token: me.token })).body).toEqual({ users: [], hasMore: false });
    const everyone = await t.call('GET', '/api/users', { token: me.token });
    for (const user of everyone.body.users) expect(Object.keys(user).sort()).toEqual(['id', 'name', 'queues']);
    expect(JSON.stringify(everyone.body)).not.toContain('@test.local');

    for (let i = 0; i < 21; i += 1) await t.createUser({ name: `Pagemate ${String(i).padStart(2, '0')}` });
    const page1 = await t.call('GET', '/api/users?searchParam=pagemate&pageNumber=1', { token: me.token });
    expect(page1.body.users).toHaveLength(20);
    expect(page1.body.hasMore).toBe(true);
    const page2 = await t.call('GET', '/api/users?searchParam=pagemate&pageNumber=2', { token: me.token });
    expect(page2.body.users.map((u: { name: string }) => u.name)).toEqual(['Pagemate 20']);
    expect(page2.body.hasMore).toBe(false);

    // An admin still gets every field, with the count.
    const asAdmin = await t.call('GET', '/api/users?searchParam=oscar', { token: await t.adminToken() });
    expect(asAdmin.body.count).toBe(1);
    expect(asAdmin.body.users[0]).toMatchObject({ name: 'Óscar Searchable', email: 'oscar-hidden@test.local', profile: 'user' });
  });
});
