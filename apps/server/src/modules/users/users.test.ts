import { eq, ne } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { contacts, queues, tickets, users, whatsapps } from '../../db/schema.js';
import { ADMIN, useTestApp } from '../../test/test-app.js';

const t = useTestApp({ admin: true });

async function createQueue(name: string, color: string): Promise<number> {
  const [row] = await t.app.database.db.insert(queues).values({ name, color }).returning({ id: queues.id });
  return row!.id;
}

describe('GET /api/users', () => {
  it('lists users 20 a page with hasMore, and searches name and e-mail lowercased', async () => {
    for (let i = 0; i < 22; i += 1) await t.app.services.users.create({ name: `Pager ${String(i).padStart(2, '0')}`, email: `pager${i}@list.local`, password: 'secret1', profile: 'user', queueIds: [] });
    const page1 = await t.call('GET', '/api/users?searchParam=PAGER&pageNumber=1', { token: t.admin });
    expect(page1.status).toBe(200);
    expect(page1.body.users).toHaveLength(20);
    expect(page1.body.hasMore).toBe(true);
    expect(page1.body.count).toBe(22);
    const page2 = await t.call('GET', '/api/users/?searchParam=pager&pageNumber=2', { token: t.admin });
    expect(page2.body.users).toHaveLength(2);
    expect(page2.body.hasMore).toBe(false);
    const byEmail = await t.call('GET', '/api/users?searchParam=pager13@', { token: t.admin });
    expect(byEmail.body.users.map((u: { email: string }) => u.email)).toEqual(['pager13@list.local']);
  });

  it('treats % and _ in the search as plain text', async () => {
    const res = await t.call('GET', '/api/users?searchParam=%25', { token: t.admin });
    expect(res.body.users).toEqual([]);
  });

  // An attendant gets colleagues only (id, name, queues): users-list.test.ts.
});

describe('POST /api/users', () => {
  it('creates a user with profile, queues and connection', async () => {
    const sales = await createQueue('Sales', '#FF0000');
    const [w] = await t.app.database.db.insert(whatsapps).values({ name: 'Main' }).returning({ id: whatsapps.id });
    const res = await t.call('POST', '/api/users', {
      token: t.admin,
      body: { name: 'Ana', email: 'Ana@Desk.local', password: 'ana123', profile: 'admin', queueIds: [sales], whatsappId: w!.id },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Ana',
      email: 'ana@desk.local',
      profile: 'admin',
      whatsappId: w!.id,
      whatsapp: { id: w!.id, name: 'Main' },
      queues: [{ id: sales, name: 'Sales', color: '#FF0000' }],
    });
  });

  it('refuses a taken e-mail with ERR_EMAIL_ALREADY_EXISTS', async () => {
    const res = await t.call('POST', '/api/users', {
      token: t.admin,
      body: { name: 'Other', email: ADMIN.email.toUpperCase(), password: 'secret1' },
    });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('ERR_EMAIL_ALREADY_EXISTS');
  });

  it('validates with the specification messages', async () => {
    const res = await t.call('POST', '/api/users', { token: t.admin, body: { name: '', email: 'x@', password: '' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_VALIDATION');
    const byPath = Object.fromEntries(res.body.issues.map((i: { path: string; message: string }) => [i.path, i.message]));
    expect(byPath).toEqual({ name: 'Required', email: 'Invalid email', password: 'Required' });
  });

  it('refuses an unknown queue id without creating the user', async () => {
    const res = await t.call('POST', '/api/users', {
      token: t.admin,
      body: { name: 'Ghost', email: 'ghost@desk.local', password: 'secret1', queueIds: [999999] },
    });
    expect(res.status).toBe(400);
    const list = await t.call('GET', '/api/users?searchParam=ghost', { token: t.admin });
    expect(list.body.users).toEqual([]);
  });

  it('is refused to a user', async () => {
    const { token } = await t.createUser();
    const res = await t.call('POST', '/api/users', { token, body: { name: 'Nope', email: 'nope@desk.local', password: 'secret1' } });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('ERR_NO_PERMISSION');
  });
});

describe('GET /api/users/:id', () => {
  it('lets a user read themselves but not others', async () => {
    const a = await t.createUser();
    const b = await t.createUser();
    expect((await t.call('GET', `/api/users/${a.user.id}`, { token: a.token })).status).toBe(200);
    const other = await t.call('GET', `/api/users/${b.user.id}`, { token: a.token });
    expect(other.status).toBe(403);
    expect(other.body.error).toBe('ERR_NO_PERMISSION');
  });

  it('answers ERR_NO_USER_FOUND for an unknown id and ERR_VALIDATION for a bad one', async () => {
    expect((await t.call('GET', '/api/users/999999', { token: t.admin })).body.error).toBe('ERR_NO_USER_FOUND');
    expect((await t.call('GET', '/api/users/abc', { token: t.admin })).body.error).toBe('ERR_VALIDATION');
  });
});

describe('PUT /api/users/:id', () => {
  it('lets an admin change everything', async () => {
    const q = await createQueue('Support', '#00FF00');
    const { user } = await t.createUser();
    const res = await t.call('PUT', `/api/users/${user.id}`, {
      token: t.admin,
      body: { name: 'Renamed', profile: 'admin', queueIds: [q], password: '' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Renamed', profile: 'admin', queues: [{ id: q }] });
  });

  it('lets a user change their own name, e-mail and password', async () => {
    const { user, token } = await t.createUser();
    const res = await t.call('PUT', `/api/users/${user.id}`, {
      token,
      body: { name: 'Self Named', email: `self-${user.id}@desk.local`, password: 'new-pass' },
    });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe('Self Named');
    expect((await t.call('POST', '/api/auth/login', { body: { email: `self-${user.id}@desk.local`, password: 'new-pass' } })).status).toBe(200);
  });

  it('keeps the password when an empty one is sent', async () => {
    const { user, token, password } = await t.createUser();
    await t.call('PUT', `/api/users/${user.id}`, { token, body: { name: 'Keeps Pass', password: '' } });
    expect((await t.call('POST', '/api/auth/login', { body: { email: user.email, password } })).status).toBe(200);
  });

  it("refuses a user's change of their own profile or queues, and any change of another user", async () => {
    const q = await createQueue('Billing', '#0000FF');
    const me = await t.createUser();
    const other = await t.createUser();
    const profile = await t.call('PUT', `/api/users/${me.user.id}`, { token: me.token, body: { profile: 'admin' } });
    expect(profile.status).toBe(403);
    expect(profile.body.error).toBe('ERR_NO_PERMISSION');
    const queuesRes = await t.call('PUT', `/api/users/${me.user.id}`, { token: me.token, body: { queueIds: [q] } });
    expect(queuesRes.status).toBe(403);
    const others = await t.call('PUT', `/api/users/${other.user.id}`, { token: me.token, body: { name: 'Hacked' } });
    expect(others.status).toBe(403);
    const stored = await t.call('GET', `/api/users/${me.user.id}`, { token: t.admin });
    expect(stored.body.profile).toBe('user');
    expect(stored.body.queues).toEqual([]);
    // Sending the unchanged profile (as a generic form does) is fine.
    const same = await t.call('PUT', `/api/users/${me.user.id}`, { token: me.token, body: { name: 'Same Profile', profile: 'user' } });
    expect(same.status).toBe(200);
  });

  it('refuses to demote the last admin', async () => {
    const me = await t.login();
    // Other tests made admins too: leave only this one.
    await t.app.database.db.update(users).set({ profile: 'user' }).where(ne(users.id, me.user.id));
    const res = await t.call('PUT', `/api/users/${me.user.id}`, { token: t.admin, body: { profile: 'user' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_LAST_ADMIN');
  });

  it('refuses a taken e-mail', async () => {
    const { user } = await t.createUser();
    const res = await t.call('PUT', `/api/users/${user.id}`, { token: t.admin, body: { email: ADMIN.email } });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('ERR_EMAIL_ALREADY_EXISTS');
  });
});

describe('DELETE /api/users/:id', () => {
  it('deletes a user and returns their open tickets to pending', async () => {
    const { user } = await t.createUser();
    const db = t.app.database.db;
    const [w] = await db.insert(whatsapps).values({ name: 'Deletion' }).returning({ id: whatsapps.id });
    const [c1] = await db.insert(contacts).values({ name: 'C1', number: '5511900000001' }).returning({ id: contacts.id });
    const [c2] = await db.insert(contacts).values({ name: 'C2', number: '5511900000002' }).returning({ id: contacts.id });
    const [open] = await db
      .insert(tickets)
      .values({ status: 'open', contactId: c1!.id, whatsappId: w!.id, userId: user.id })
      .returning({ id: tickets.id });
    const [closed] = await db
      .insert(tickets)
      .values({ status: 'closed', contactId: c2!.id, whatsappId: w!.id, userId: user.id })
      .returning({ id: tickets.id });

    const res = await t.call('DELETE', `/api/users/${user.id}`, { token: t.admin });
    expect(res.status).toBe(200);
    expect((await t.call('GET', `/api/users/${user.id}`, { token: t.admin })).status).toBe(404);
    const [openAfter] = await db.select().from(tickets).where(eq(tickets.id, open!.id));
    expect(openAfter).toMatchObject({ status: 'pending', userId: null });
    const [closedAfter] = await db.select().from(tickets).where(eq(tickets.id, closed!.id));
    expect(closedAfter).toMatchObject({ status: 'closed', userId: null });
  });

  it('refuses deleting yourself, and is admin only', async () => {
    const me = await t.login();
    const self = await t.call('DELETE', `/api/users/${me.user.id}`, { token: t.admin });
    expect(self.status).toBe(400);
    expect(self.body.error).toBe('ERR_CANNOT_DELETE_SELF');
    const a = await t.createUser();
    const b = await t.createUser();
    const res = await t.call('DELETE', `/api/users/${b.user.id}`, { token: a.token });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('ERR_NO_PERMISSION');
  });
});
