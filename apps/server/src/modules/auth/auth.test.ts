import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, createTestApp, useTestApp } from '../../test/test-app.js';

const t = useTestApp();

describe('POST /api/auth/login', () => {
  it('answers a token and the user, and sets an httpOnly refresh cookie', async () => {
    const res = await t.call('POST', '/api/auth/login', { body: ADMIN });
    expect(res.status).toBe(200);
    expect(typeof res.body.token).toBe('string');
    expect(res.body.user).toMatchObject({ email: ADMIN.email, profile: 'admin' });
    expect(res.body.user.passwordHash).toBeUndefined();
    const cookie = res.cookies.find((c) => c.name === 'jrt');
    expect(cookie?.httpOnly).toBe(true);
    // No Path: the browser scopes it to the folder it called, /api/auth (or a proxy's /prefix/api/auth).
    expect(cookie?.path).toBeUndefined();
  });

  it('refuses a wrong pair with ERR_INVALID_CREDENTIALS (401)', async () => {
    const wrongPassword = await t.call('POST', '/api/auth/login', { body: { ...ADMIN, password: 'nope!' }, ip: '10.0.0.1' });
    expect(wrongPassword.status).toBe(401);
    expect(wrongPassword.body.error).toBe('ERR_INVALID_CREDENTIALS');
    const unknownEmail = await t.call('POST', '/api/auth/login', {
      body: { email: 'nobody@test.local', password: 'whatever' },
      ip: '10.0.0.1',
    });
    expect(unknownEmail.status).toBe(401);
    expect(unknownEmail.body.error).toBe('ERR_INVALID_CREDENTIALS');
  });

  it('accepts the e-mail in any case', async () => {
    const res = await t.call('POST', '/api/auth/login', { body: { ...ADMIN, email: ADMIN.email.toUpperCase() } });
    expect(res.status).toBe(200);
  });

  it('refuses an invalid body with ERR_VALIDATION', async () => {
    const res = await t.call('POST', '/api/auth/login', { body: { email: 'not-an-email' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_VALIDATION');
    expect(res.body.issues).toEqual(
      expect.arrayContaining([
        { path: 'email', message: 'Invalid email' },
        { path: 'password', message: 'Required' },
      ]),
    );
  });

  it('limits failed logins to 5 per 5 minutes per IP and e-mail with 429 ERR_RATE_LIMITED', async () => {
    const { user, password } = await t.createUser();
    const ip = '10.9.9.9';
    for (let i = 0; i < 5; i += 1) {
      const res = await t.call('POST', '/api/auth/login', { body: { email: user.email, password: 'wrong-pass' }, ip });
      expect(res.status).toBe(401);
    }
    const sixth = await t.call('POST', '/api/auth/login', { body: { email: user.email, password: 'wrong-pass' }, ip });
    expect(sixth.status).toBe(429);
    expect(sixth.body.error).toBe('ERR_RATE_LIMITED');
    // Even the right password is refused while the window lasts.
    const right = await t.call('POST', '/api/auth/login', { body: { email: user.email, password }, ip });
    expect(right.status).toBe(429);
    // Another IP, or another e-mail from the same IP, is not affected.
    const otherIp = await t.call('POST', '/api/auth/login', { body: { email: user.email, password }, ip: '10.9.9.10' });
    expect(otherIp.status).toBe(200);
    const otherEmail = await t.call('POST', '/api/auth/login', { body: ADMIN, ip });
    expect(otherEmail.status).toBe(200);
  });

  it('starts a new window when the old one is over', async () => {
    const { user, password } = await t.createUser();
    const ip = '10.9.9.11';
    for (let i = 0; i < 5; i += 1) {
      await t.call('POST', '/api/auth/login', { body: { email: user.email, password: 'wrong-pass' }, ip });
    }
    await t.app.database.db.execute(
      "update rate_limits set reset_at = now() - interval '1 second' where key like 'login:10.9.9.11:%'",
    );
    const res = await t.call('POST', '/api/auth/login', { body: { email: user.email, password }, ip });
    expect(res.status).toBe(200);
  });
});

describe('access tokens', () => {
  it('refuses a route without a token with 401 ERR_SESSION_EXPIRED', async () => {
    const res = await t.call('GET', '/api/settings');
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('ERR_SESSION_EXPIRED');
  });

  it('refuses an invalid or expired token with 403, so the client refreshes', async () => {
    const res = await t.call('GET', '/api/settings', { token: 'not.a.jwt' });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('ERR_SESSION_EXPIRED');
    const { SignJWT } = await import('jose');
    const expired = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('1')
      .setIssuedAt(Math.floor(Date.now() / 1000) - 3600)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(new TextEncoder().encode(t.app.config.jwtSecret));
    const expiredRes = await t.call('GET', '/api/settings', { token: expired });
    expect(expiredRes.status).toBe(403);
    expect(expiredRes.body.error).toBe('ERR_SESSION_EXPIRED');
  });

  it('gives access tokens a 15-minute lifetime', async () => {
    const { token } = await t.login();
    const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { iat: number; exp: number };
    expect(payload.exp - payload.iat).toBe(15 * 60);
  });

  it("stops a deleted user's token at once", async () => {
    const { user, token } = await t.createUser();
    expect((await t.call('GET', `/api/users/${user.id}`, { token })).status).toBe(200);
    await t.call('DELETE', `/api/users/${user.id}`, { token: await t.adminToken() });
    expect((await t.call('GET', `/api/users/${user.id}`, { token })).status).toBe(403);
  });
});

describe('POST /api/auth/refresh_token', () => {
  it('rotates the refresh token: the new one works, the old one gets ERR_SESSION_EXPIRED', async () => {
    const session = await t.login();
    const first = await t.call('POST', '/api/auth/refresh_token', { cookies: { jrt: session.refreshCookie } });
    expect(first.status).toBe(200);
    expect(first.body.user.email).toBe(ADMIN.email);
    const rotated = first.cookies.find((c) => c.name === 'jrt')!.value;
    expect(rotated).not.toBe(session.refreshCookie);
    const settings = await t.call('GET', '/api/settings', { token: first.body.token });
    expect(settings.status).toBe(200);

    const next = await t.call('POST', '/api/auth/refresh_token', { cookies: { jrt: rotated } });
    expect(next.status).toBe(200);
    const old = await t.call('POST', '/api/auth/refresh_token', { cookies: { jrt: rotated } });
    expect(old.status).toBe(401);
    expect(old.body.error).toBe('ERR_SESSION_EXPIRED');
    // Reusing a rotated token also ends its whole family: see session-security.test.ts.
  });

  it('refuses a missing, forged or expired cookie with ERR_SESSION_EXPIRED', async () => {
    const missing = await t.call('POST', '/api/auth/refresh_token');
    expect(missing.status).toBe(401);
    expect(missing.body.error).toBe('ERR_SESSION_EXPIRED');
    const session = await t.login();
    const [id] = session.refreshCookie.split('.');
    const forged = await t.call('POST', '/api/auth/refresh_token', { cookies: { jrt: `${id}.forged-secret` } });
    expect(forged.status).toBe(401);
    await t.app.database.db.execute(`update refresh_tokens set expires_at = now() - interval '1 second' where id = '${id}'`);
    const expired = await t.call('POST', '/api/auth/refresh_token', { cookies: { jrt: session.refreshCookie } });
    expect(expired.status).toBe(401);
    expect(expired.body.error).toBe('ERR_SESSION_EXPIRED');
  });

  it('lets only one of two concurrent refreshes with the same token win', async () => {
    const session = await t.login();
    const results = await Promise.all([
      t.call('POST', '/api/auth/refresh_token', { cookies: { jrt: session.refreshCookie } }),
      t.call('POST', '/api/auth/refresh_token', { cookies: { jrt: session.refreshCookie } }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 401]);
  });
});

describe('DELETE /api/auth/logout', () => {
  it('revokes the refresh token and clears the cookie', async () => {
    const session = await t.login();
    const res = await t.call('DELETE', '/api/auth/logout', { cookies: { jrt: session.refreshCookie } });
    expect(res.status).toBe(204);
    const cleared = res.cookies.find((c) => c.name === 'jrt');
    expect(cleared?.value).toBe('');
    const after = await t.call('POST', '/api/auth/refresh_token', { cookies: { jrt: session.refreshCookie } });
    expect(after.status).toBe(401);
    expect(after.body.error).toBe('ERR_SESSION_EXPIRED');
  });
});

describe('POST /api/auth/signup', () => {
  // Sign-up is off on a fresh install (the first admin exists); these tests open it as an admin would.
  beforeAll(async () => {
    await t.call('PUT', '/api/settings/userCreation', { token: await t.adminToken(), body: { value: 'enabled' } });
  });

  it('is off by default on a fresh install: ERR_USER_CREATION_DISABLED', async () => {
    const fresh = await createTestApp();
    try {
      const res = await fresh.call('POST', '/api/auth/signup', {
        body: { name: 'Eve Intruder', email: 'eve@test.local', password: 'eve-pass-1' },
        ip: '10.9.0.1',
      });
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('ERR_USER_CREATION_DISABLED');
    } finally {
      await fresh.close();
    }
  });

  it('creates a user profile that can sign in', async () => {
    const body = { name: 'Maria Silva', email: 'maria@test.local', password: 'maria123' };
    const res = await t.call('POST', '/api/auth/signup', { body, ip: '10.1.0.1' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ message: 'If the e-mail was free, your account is ready: sign in.' });
    const login = await t.call('POST', '/api/auth/login', { body: { email: body.email, password: body.password } });
    expect(login.status).toBe(200);
    expect(login.body.user).toMatchObject({ name: 'Maria Silva', email: 'maria@test.local', profile: 'user', queues: [] });
  });

  it('ignores a profile sent by the client: sign-up never makes an admin', async () => {
    const res = await t.call('POST', '/api/auth/signup', {
      body: { name: 'Sneaky', email: 'sneaky@test.local', password: 'sneaky1', profile: 'admin' },
      ip: '10.1.0.2',
    });
    expect(res.status).toBe(201);
    const login = await t.call('POST', '/api/auth/login', { body: { email: 'sneaky@test.local', password: 'sneaky1' } });
    expect(login.body.user.profile).toBe('user');
  });

  it('validates with the specification messages', async () => {
    const res = await t.call('POST', '/api/auth/signup', {
      body: { name: 'A', email: 'x', password: '1234' },
      ip: '10.1.0.3',
    });
    expect(res.status).toBe(400);
    expect(res.body.issues).toEqual([
      { path: 'name', message: 'Too Short!' },
      { path: 'email', message: 'Invalid email' },
      { path: 'password', message: 'Too Short!' },
    ]);
    const long = await t.call('POST', '/api/auth/signup', {
      body: { name: 'x'.repeat(51), email: 'long@test.local', password: 'y'.repeat(51) },
      ip: '10.1.0.3',
    });
    expect(long.body.issues).toEqual([
      { path: 'name', message: 'Too Long!' },
      { path: 'password', message: 'Too Long!' },
    ]);
    const empty = await t.call('POST', '/api/auth/signup', { body: {}, ip: '10.1.0.3' });
    expect(empty.body.issues.map((i: { message: string }) => i.message)).toEqual(['Required', 'Required', 'Required']);
  });

  it('answers a taken e-mail exactly as a free one, and changes nothing (no e-mail enumeration)', async () => {
    const free = await t.call('POST', '/api/auth/signup', {
      body: { name: 'Fresh', email: 'fresh-signup@test.local', password: 'fresh123' },
      ip: '10.1.0.4',
    });
    const taken = await t.call('POST', '/api/auth/signup', {
      body: { name: 'Dup', email: ADMIN.email, password: 'dup123' },
      ip: '10.1.0.4',
    });
    expect(taken.status).toBe(free.status);
    expect(taken.body).toEqual(free.body);
    expect(taken.cookies).toEqual(free.cookies);
    // The existing account keeps its name and password; the new password does not sign in.
    expect((await t.call('POST', '/api/auth/login', { body: ADMIN })).body.user.name).not.toBe('Dup');
    const intruder = await t.call('POST', '/api/auth/login', { body: { email: ADMIN.email, password: 'dup123' }, ip: '10.1.0.44' });
    expect(intruder.status).toBe(401);
  });

  it('is refused with ERR_USER_CREATION_DISABLED when userCreation is disabled', async () => {
    const token = await t.adminToken();
    await t.call('PUT', '/api/settings/userCreation', { token, body: { value: 'disabled' } });
    const res = await t.call('POST', '/api/auth/signup', {
      body: { name: 'Late', email: 'late@test.local', password: 'late123' },
      ip: '10.1.0.5',
    });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('ERR_USER_CREATION_DISABLED');
    // The login page asks before it offers the link (issue 33 item 19): no token needed.
    expect((await t.call('GET', '/api/auth/signup')).body).toEqual({ open: false });
    await t.call('PUT', '/api/settings/userCreation', { token, body: { value: 'enabled' } });
    expect((await t.call('GET', '/api/auth/signup')).body).toEqual({ open: true });
  });

  it('is rate limited per IP', async () => {
    const limited = await createTestApp({ signupLimitPerHour: 2 });
    try {
      await limited.call('PUT', '/api/settings/userCreation', { token: await limited.adminToken(), body: { value: 'enabled' } });
      const signup = (n: number) =>
        limited.call('POST', '/api/auth/signup', {
          body: { name: `Person ${n}`, email: `p${n}@test.local`, password: 'secret1' },
          ip: '10.2.0.1',
        });
      expect((await signup(1)).status).toBe(201);
      expect((await signup(2)).status).toBe(201);
      const third = await signup(3);
      expect(third.status).toBe(429);
      expect(third.body.error).toBe('ERR_RATE_LIMITED');
    } finally {
      await limited.close();
    }
  });
});
