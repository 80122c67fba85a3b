import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../test/desk-factories.js';
import { useTestApp } from '../../test/test-app.js';

const t = useTestApp();

const refresh = (cookie: string) => t.call('POST', '/api/auth/refresh_token', { cookies: { jrt: cookie } });
const cookieOf = (res: { cookies: { name: string; value: string }[] }) => res.cookies.find((c) => c.name === 'jrt')!.value;

function sign(claims: { sub?: string; iat?: number; exp?: number }, secret = t.app.config.jwtSecret): Promise<string> {
  const jwt = new SignJWT({}).setProtectedHeader({ alg: 'HS256' });
  if (claims.sub !== undefined) jwt.setSubject(claims.sub);
  if (claims.iat !== undefined) jwt.setIssuedAt(claims.iat);
  if (claims.exp !== undefined) jwt.setExpirationTime(claims.exp);
  return jwt.sign(new TextEncoder().encode(secret));
}

/** Moves the rotation of a refresh token a minute back, past the grace for tabs racing on one cookie. */
async function ageRotation(cookie: string): Promise<void> {
  const [id] = cookie.split('.');
  await t.app.database.db.execute(`update refresh_tokens set revoked_at = now() - interval '1 minute' where id = '${id}'`);
}

describe('refresh token families', () => {
  it('revokes the whole family when a rotated refresh token is reused, with ERR_SESSION_EXPIRED', async () => {
    const { user, password } = await t.createUser();
    const session = await t.login(user.email, password);
    const first = await refresh(session.refreshCookie);
    expect(first.status).toBe(200);
    const second = await refresh(cookieOf(first));
    expect(second.status).toBe(200);
    const live = cookieOf(second);

    // The first, rotated-away token comes back a minute later (a thief replays it): refused, and the family ends.
    await ageRotation(session.refreshCookie);
    const reused = await refresh(session.refreshCookie);
    expect(reused.status).toBe(401);
    expect(reused.body.error).toBe('ERR_SESSION_EXPIRED');
    const legit = await refresh(live);
    expect(legit.status).toBe(401);
    expect(legit.body.error).toBe('ERR_SESSION_EXPIRED');
  });

  it('leaves the other sign-ins of the same user alone', async () => {
    const { user, password } = await t.createUser();
    const stolen = await t.login(user.email, password);
    const otherDevice = await t.login(user.email, password);
    const rotated = await refresh(stolen.refreshCookie);
    expect(rotated.status).toBe(200);
    await ageRotation(stolen.refreshCookie);
    expect((await refresh(stolen.refreshCookie)).status).toBe(401);
    expect((await refresh(otherDevice.refreshCookie)).status).toBe(200);
  });

  it('treats the old token sent right after its rotation as a race between tabs: refused, the sign-in goes on', async () => {
    const { user, password } = await t.createUser();
    const session = await t.login(user.email, password);
    const rotated = await refresh(session.refreshCookie);
    expect(rotated.status).toBe(200);
    const late = await refresh(session.refreshCookie);
    expect(late.status).toBe(401);
    expect((await refresh(cookieOf(rotated))).status).toBe(200);
  });

  it('keeps the family on every rotation', async () => {
    const { user, password } = await t.createUser();
    const session = await t.login(user.email, password);
    const rotated = await refresh(session.refreshCookie);
    const [firstId] = session.refreshCookie.split('.');
    const [secondId] = cookieOf(rotated).split('.');
    const rows = await queryRows<{ id: string; family_id: string }>(
      t,
      `select id, family_id from refresh_tokens where id in ('${firstId}', '${secondId}')`,
    );
    expect(rows).toHaveLength(2);
    expect(new Set(rows.map((r) => r.family_id)).size).toBe(1);
  });

  it('logout ends the family: neither the current nor an older token refreshes', async () => {
    const { user, password } = await t.createUser();
    const session = await t.login(user.email, password);
    const rotated = cookieOf(await refresh(session.refreshCookie));
    const out = await t.call('DELETE', '/api/auth/logout', { cookies: { jrt: rotated } });
    expect(out.status).toBe(204);
    expect((await refresh(rotated)).status).toBe(401);
    expect((await refresh(session.refreshCookie)).status).toBe(401);
  });
});

describe('password change ends the other sessions', () => {
  it('a user changing their own password keeps this sign-in; the others lose their tokens', async () => {
    const { user, password } = await t.createUser();
    const here = await t.login(user.email, password);
    const elsewhere = await t.login(user.email, password);
    const res = await t.call('PUT', `/api/users/${user.id}`, { token: here.token, body: { password: 'brand-new-1' } });
    expect(res.status).toBe(200);

    // The other sign-in: its access token stops at once, its refresh token is revoked.
    const stale = await t.call('GET', `/api/users/${user.id}`, { token: elsewhere.token });
    expect(stale.status).toBe(403);
    expect(stale.body.error).toBe('ERR_SESSION_EXPIRED');
    expect((await refresh(elsewhere.refreshCookie)).status).toBe(401);

    // This sign-in goes on.
    expect((await t.call('GET', `/api/users/${user.id}`, { token: here.token })).status).toBe(200);
    expect((await refresh(here.refreshCookie)).status).toBe(200);

    // The old password is refused, the new one signs in and its token works at once.
    expect((await t.call('POST', '/api/auth/login', { body: { email: user.email, password }, ip: '10.77.0.1' })).status).toBe(401);
    const fresh = await t.login(user.email, 'brand-new-1');
    expect((await t.call('GET', `/api/users/${user.id}`, { token: fresh.token })).status).toBe(200);
  });

  it('an admin changing a password ends every session of that user', async () => {
    const { user, password, token } = await t.createUser();
    const session = await t.login(user.email, password);
    const res = await t.call('PUT', `/api/users/${user.id}`, { token: await t.adminToken(), body: { password: 'set-by-admin' } });
    expect(res.status).toBe(200);
    expect((await t.call('GET', `/api/users/${user.id}`, { token })).status).toBe(403);
    expect((await t.call('GET', `/api/users/${user.id}`, { token: session.token })).status).toBe(403);
    expect((await refresh(session.refreshCookie)).status).toBe(401);
    // The admin's own session is untouched.
    expect((await t.call('GET', '/api/settings', { token: await t.adminToken() })).status).toBe(200);
  });

  it('a profile edit without a password changes no session', async () => {
    const { user, token } = await t.createUser();
    const res = await t.call('PUT', `/api/users/${user.id}`, { token: await t.adminToken(), body: { name: 'Renamed Person' } });
    expect(res.status).toBe(200);
    expect((await t.call('GET', `/api/users/${user.id}`, { token })).status).toBe(200);
  });
});

describe('access token claims', () => {
  it('refuses a token without exp, without sub or without iat, even when signed with the right secret', async () => {
    const now = Math.floor(Date.now() / 1000);
    const noExp = await sign({ sub: '1', iat: now });
    const noSub = await sign({ iat: now, exp: now + 600 });
    const noIat = await sign({ sub: '1', exp: now + 600 });
    for (const token of [noExp, noSub, noIat]) {
      const res = await t.call('GET', '/api/settings', { token });
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('ERR_SESSION_EXPIRED');
    }
    // The same claims with exp, sub and iat work: the refusals above are about the missing claims.
    const complete = await sign({ sub: '1', iat: now, exp: now + 600 });
    expect((await t.call('GET', '/api/settings', { token: complete })).status).toBe(200);
  });

  it('refuses a token signed with another secret', async () => {
    const now = Math.floor(Date.now() / 1000);
    const forged = await sign({ sub: '1', iat: now, exp: now + 600 }, 'another-secret');
    expect((await t.call('GET', '/api/settings', { token: forged })).status).toBe(403);
  });
});
