import { describe, expect, it } from 'vitest';
import { ADMIN, useTestApp } from '../test/test-app.js';
import { resetAdminPassword } from './admin-reset.js';

// Issue 33 item 24: `npm run admin:reset -- --email … [--password …]` resets an admin's password.
describe('resetAdminPassword (npm run admin:reset)', () => {
  const t = useTestApp();

  it('sets the given password, and every earlier sign-in of the admin ends', async () => {
    const before = await t.login();
    const reset = await resetAdminPassword(t.app.database.db, ` ${ADMIN.email.toUpperCase()} `, 'brand-new-pass');
    expect(reset).toEqual({ email: ADMIN.email, password: 'brand-new-pass', generated: false });
    expect((await t.call('POST', '/api/auth/login', { body: ADMIN })).status).toBe(401);
    expect((await t.call('GET', '/api/users', { token: before.token })).status).toBe(403); // ERR_INVALID_TOKEN (decision 0003)
    expect((await t.call('POST', '/api/auth/refresh_token', { cookies: { jrt: before.refreshCookie } })).status).toBe(401);
    const after = await t.login(ADMIN.email, 'brand-new-pass');
    expect((await t.call('GET', '/api/users', { token: after.token })).status).toBe(200);
  });

  it('generates a password when none is given', async () => {
    const reset = await resetAdminPassword(t.app.database.db, ADMIN.email);
    expect(reset.generated).toBe(true);
    expect(reset.password).toMatch(/^[\w-]{12}$/);
    await t.login(ADMIN.email, reset.password);
  });

  it('refuses an unknown e-mail, an attendant and a password outside the rules, changing nothing', async () => {
    const { user, password } = await t.createUser({ profile: 'user' });
    await expect(resetAdminPassword(t.app.database.db, 'nobody@test.local', 'whatever-1')).rejects.toThrow('No user has the e-mail nobody@test.local.');
    await expect(resetAdminPassword(t.app.database.db, user.email, 'whatever-1')).rejects.toThrow('is not an admin');
    await expect(resetAdminPassword(t.app.database.db, ADMIN.email, 'abc')).rejects.toThrow('5 to 50 characters');
    await t.login(user.email, password);
  });
});
