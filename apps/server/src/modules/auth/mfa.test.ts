import { and, eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { beforeEach, describe, expect, it } from 'vitest';
import { auditLog, users } from '../../db/schema.js';
import { ADMIN, useTestApp, type FileTestApp } from '../../test/test-app.js';

// The codes depend on the time: the app's clock is set, never the hour the tests run at.
let now = new Date('2026-03-01T10:00:00Z');
const t = useTestApp({ admin: true, clock: () => now });

beforeEach(() => {
  now = new Date('2026-03-01T10:00:00Z');
});

function secretOf(uri: string): string {
  return new URL(uri).searchParams.get('secret')!;
}

function codeAt(secret: string, at: Date): string {
  return new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({ timestamp: at.getTime() });
}

/** Moves the clock to the next 30-second step (a new code). */
function nextStep(): void {
  now = new Date(now.getTime() + 30_000);
}

let ipCounter = 0;
/** Each test its own client address, so the per-address windows of one test do not reach another. */
function newIp(): string {
  ipCounter += 1;
  return `10.37.${Math.floor(ipCounter / 250)}.${ipCounter % 250}`;
}

async function enabledUser(app: FileTestApp, profile: 'admin' | 'user' = 'user') {
  const created = await app.createUser({ profile });
  const setup = await app.call('POST', '/api/auth/mfa/setup', { token: created.token });
  expect(setup.status).toBe(200);
  const secret = secretOf(setup.body.uri);
  const enable = await app.call('POST', '/api/auth/mfa/enable', { token: created.token, body: { code: codeAt(secret, now) } });
  expect(enable.status).toBe(200);
  nextStep();
  return { ...created, secret, recoveryCodes: enable.body.recoveryCodes as string[] };
}

async function passwordStep(email: string, password: string, ip = newIp()) {
  const res = await t.call('POST', '/api/auth/login', { body: { email, password }, ip });
  expect(res.status).toBe(401);
  expect(res.body.error).toBe('ERR_MFA_REQUIRED');
  return res.body.mfaToken as string;
}

async function auditActions(userId: number, action: string) {
  return t.app.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.targetId, String(userId))));
}

describe('two-factor set-up', () => {
  it('answers an otpauth:// URI and a PNG QR code, stores the secret but leaves sign-in unchanged until enabled', async () => {
    const { user, token, password } = await t.createUser();
    const res = await t.call('POST', '/api/auth/mfa/setup', { token });
    expect(res.status).toBe(200);
    expect(res.body.uri).toMatch(/^otpauth:\/\/totp\/WaDesk:.+\?.*secret=[A-Z2-7]+/);
    expect(res.body.uri).toContain(encodeURIComponent(user.email));
    expect(res.body.qrCode).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/);
    const [row] = await t.app.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.mfaSecret).toBe(secretOf(res.body.uri));
    expect(row!.mfaEnabledAt).toBeNull();
    const login = await t.call('POST', '/api/auth/login', { body: { email: user.email, password }, ip: newIp() });
    expect(login.status).toBe(200);
    expect(login.body.user.mfaEnabled).toBe(false);
  });

  it('replaces a secret not yet enabled when called again; the old secret no longer enables', async () => {
    const { token } = await t.createUser();
    const first = secretOf((await t.call('POST', '/api/auth/mfa/setup', { token })).body.uri);
    const second = secretOf((await t.call('POST', '/api/auth/mfa/setup', { token })).body.uri);
    expect(second).not.toBe(first);
    const old = await t.call('POST', '/api/auth/mfa/enable', { token, body: { code: codeAt(first, now) }, ip: newIp() });
    expect(old.status).toBe(401);
    expect(old.body.error).toBe('ERR_INVALID_MFA_CODE');
  });

  it('enables with a code of the app and answers 10 distinct recovery codes, stored hashed', async () => {
    const { user, recoveryCodes } = await enabledUser(t);
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    const [row] = await t.app.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.mfaEnabledAt).not.toBeNull();
    const stored = await t.app.database.db.execute<{ code_hash: string }>(
      `select code_hash from mfa_recovery_codes where user_id = ${user.id}` as never,
    );
    const hashes = (stored as unknown as { rows: { code_hash: string }[] }).rows.map((r) => r.code_hash);
    expect(hashes).toHaveLength(10);
    for (const code of recoveryCodes) expect(hashes.join(' ')).not.toContain(code.replace('-', ''));
    expect(await auditActions(user.id, 'mfa.enable')).toHaveLength(1);
  });

  it('refuses enable without a set-up (ERR_MFA_NOT_ENABLED), a wrong code, and set-up or enable once on (ERR_MFA_ALREADY_ENABLED)', async () => {
    const fresh = await t.createUser();
    const early = await t.call('POST', '/api/auth/mfa/enable', { token: fresh.token, body: { code: '123456' }, ip: newIp() });
    expect(early.status).toBe(400);
    expect(early.body.error).toBe('ERR_MFA_NOT_ENABLED');
    await t.call('POST', '/api/auth/mfa/setup', { token: fresh.token });
    const wrong = await t.call('POST', '/api/auth/mfa/enable', { token: fresh.token, body: { code: 'abc' }, ip: newIp() });
    expect(wrong.body.error).toBe('ERR_INVALID_MFA_CODE');

    const on = await enabledUser(t);
    const setup = await t.call('POST', '/api/auth/mfa/setup', { token: on.token });
    expect(setup.status).toBe(409);
    expect(setup.body.error).toBe('ERR_MFA_ALREADY_ENABLED');
    const again = await t.call('POST', '/api/auth/mfa/enable', { token: on.token, body: { code: codeAt(on.secret, now) }, ip: newIp() });
    expect(again.body.error).toBe('ERR_MFA_ALREADY_ENABLED');
  });
});

describe('signing in with two-factor sign-in on', () => {
  it('answers 401 ERR_MFA_REQUIRED with an mfaToken for the right password, and ERR_INVALID_CREDENTIALS without one for a wrong one', async () => {
    const { user, password } = await enabledUser(t);
    const res = await t.call('POST', '/api/auth/login', { body: { email: user.email, password }, ip: newIp() });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ error: 'ERR_MFA_REQUIRED' });
    expect(typeof res.body.mfaToken).toBe('string');
    expect(res.body.token).toBeUndefined();
    expect(res.cookies.find((c) => c.name === 'jrt')).toBeUndefined();
    const wrong = await t.call('POST', '/api/auth/login', { body: { email: user.email, password: 'wrong-pass' }, ip: newIp() });
    expect(wrong.body.error).toBe('ERR_INVALID_CREDENTIALS');
    expect(wrong.body.mfaToken).toBeUndefined();
  });

  it('completes the sign-in with the token and a code, as login does (token, user, refresh cookie that refreshes)', async () => {
    const { user, password, secret } = await enabledUser(t);
    const mfaToken = await passwordStep(user.email, password);
    const res = await t.call('POST', '/api/auth/mfa', { body: { mfaToken, code: codeAt(secret, now) }, ip: newIp() });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ id: user.id, mfaEnabled: true });
    const cookie = res.cookies.find((c) => c.name === 'jrt');
    expect(cookie?.httpOnly).toBe(true);
    const me = await t.call('GET', `/api/users/${user.id}`, { token: res.body.token });
    expect(me.status).toBe(200);
    const refreshed = await t.call('POST', '/api/auth/refresh_token', { cookies: { jrt: cookie!.value } });
    expect(refreshed.status).toBe(200);
    expect(typeof refreshed.body.token).toBe('string');
  });

  it('accepts a code of the step before or after (a phone a little off) but not two steps away', async () => {
    const { user, password, secret } = await enabledUser(t);
    nextStep();
    const mfaToken = await passwordStep(user.email, password);
    const far = await t.call('POST', '/api/auth/mfa', { body: { mfaToken, code: codeAt(secret, new Date(now.getTime() - 90_000)) }, ip: newIp() });
    expect(far.body.error).toBe('ERR_INVALID_MFA_CODE');
    const before = await t.call('POST', '/api/auth/mfa', { body: { mfaToken, code: codeAt(secret, new Date(now.getTime() - 30_000)) }, ip: newIp() });
    expect(before.status).toBe(200);
  });

  it('refuses a code replayed within its window (ERR_INVALID_MFA_CODE), and an older step after a newer one', async () => {
    const { user, password, secret } = await enabledUser(t);
    const code = codeAt(secret, now);
    const first = await t.call('POST', '/api/auth/mfa', { body: { mfaToken: await passwordStep(user.email, password), code }, ip: newIp() });
    expect(first.status).toBe(200);
    const replay = await t.call('POST', '/api/auth/mfa', { body: { mfaToken: await passwordStep(user.email, password), code }, ip: newIp() });
    expect(replay.status).toBe(401);
    expect(replay.body.error).toBe('ERR_INVALID_MFA_CODE');
    // The next step's code works; then the previous step's (still inside the window) does not.
    const next = codeAt(secret, new Date(now.getTime() + 30_000));
    nextStep();
    const later = await t.call('POST', '/api/auth/mfa', { body: { mfaToken: await passwordStep(user.email, password), code: next }, ip: newIp() });
    expect(later.status).toBe(200);
    const older = await t.call('POST', '/api/auth/mfa', { body: { mfaToken: await passwordStep(user.email, password), code }, ip: newIp() });
    expect(older.body.error).toBe('ERR_INVALID_MFA_CODE');
  });

  it('accepts a recovery code once (any case, with or without its dash), and audits its use', async () => {
    const { user, password, recoveryCodes } = await enabledUser(t);
    const code = recoveryCodes[3]!;
    const first = await t.call('POST', '/api/auth/mfa', {
      body: { mfaToken: await passwordStep(user.email, password), code: code.toUpperCase().replace('-', ' ') },
      ip: newIp(),
    });
    expect(first.status).toBe(200);
    const again = await t.call('POST', '/api/auth/mfa', { body: { mfaToken: await passwordStep(user.email, password), code }, ip: newIp() });
    expect(again.status).toBe(401);
    expect(again.body.error).toBe('ERR_INVALID_MFA_CODE');
    const other = await t.call('POST', '/api/auth/mfa', { body: { mfaToken: await passwordStep(user.email, password), code: recoveryCodes[4] }, ip: newIp() });
    expect(other.status).toBe(200);
    const used = await auditActions(user.id, 'mfa.recovery_code_used');
    expect(used).toHaveLength(2);
    expect(used.map((e) => (e.after as { unusedLeft: number }).unusedLeft).sort()).toEqual([8, 9]);
  });

  it('refuses a forged, tampered or access token as mfaToken with ERR_MFA_TOKEN_INVALID, and an mfaToken as an access token', async () => {
    const { user, password, secret } = await enabledUser(t);
    const mfaToken = await passwordStep(user.email, password);
    const code = codeAt(secret, now);
    for (const bad of ['nonsense', `${mfaToken.slice(0, -2)}xx`, await t.adminToken()]) {
      const res = await t.call('POST', '/api/auth/mfa', { body: { mfaToken: bad, code }, ip: newIp() });
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('ERR_MFA_TOKEN_INVALID');
    }
    const asAccess = await t.call('GET', `/api/users/${user.id}`, { token: mfaToken });
    expect(asAccess.status).toBe(403);
    expect(asAccess.body.error).toBe('ERR_SESSION_EXPIRED');
    await expect(t.socket(mfaToken)).rejects.toThrow(/ERR_SESSION_EXPIRED/);
  });

  it('refuses an mfaToken older than 5 minutes (on the app clock)', async () => {
    const { user, password, secret } = await enabledUser(t);
    const mfaToken = await passwordStep(user.email, password);
    now = new Date(now.getTime() + 5 * 60_000 + 1000);
    const res = await t.call('POST', '/api/auth/mfa', { body: { mfaToken, code: codeAt(secret, now) }, ip: newIp() });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('ERR_MFA_TOKEN_INVALID');
  });

  it('limits wrong codes like passwords: 429 ERR_RATE_LIMITED per address and account, even for the right code', async () => {
    const { user, password, secret } = await enabledUser(t);
    const ip = newIp();
    const mfaToken = await passwordStep(user.email, password);
    for (let i = 0; i < 5; i += 1) {
      const res = await t.call('POST', '/api/auth/mfa', { body: { mfaToken, code: '000000' }, ip });
      expect(res.body.error).toBe('ERR_INVALID_MFA_CODE');
    }
    const sixth = await t.call('POST', '/api/auth/mfa', { body: { mfaToken, code: codeAt(secret, now) }, ip });
    expect(sixth.status).toBe(429);
    expect(sixth.body.error).toBe('ERR_RATE_LIMITED');
  });

  it('limits wrong codes per account across addresses (10 in 15 minutes)', async () => {
    const { user, password, secret } = await enabledUser(t);
    const mfaToken = await passwordStep(user.email, password);
    for (let i = 0; i < 10; i += 1) {
      const res = await t.call('POST', '/api/auth/mfa', { body: { mfaToken, code: '000000' }, ip: newIp() });
      expect(res.body.error).toBe('ERR_INVALID_MFA_CODE');
    }
    const right = await t.call('POST', '/api/auth/mfa', { body: { mfaToken, code: codeAt(secret, now) }, ip: newIp() });
    expect(right.status).toBe(429);
  });

  it('limits wrong codes per address across accounts (30 in 15 minutes): another account from there waits, from elsewhere it passes', async () => {
    const ip = newIp();
    // Five wrong codes on each of six accounts (under the per-account windows), all from one address.
    for (let a = 0; a < 6; a += 1) {
      const { user, password } = await enabledUser(t);
      const mfaToken = await passwordStep(user.email, password);
      for (let i = 0; i < 5; i += 1) {
        const res = await t.call('POST', '/api/auth/mfa', { body: { mfaToken, code: '000000' }, ip });
        expect(res.body.error, `account ${a}, try ${i}`).toBe('ERR_INVALID_MFA_CODE');
      }
    }
    const fresh = await enabledUser(t);
    const mfaToken = await passwordStep(fresh.user.email, fresh.password);
    const refused = await t.call('POST', '/api/auth/mfa', { body: { mfaToken, code: codeAt(fresh.secret, now) }, ip });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe('ERR_RATE_LIMITED');
    const elsewhere = await t.call('POST', '/api/auth/mfa', { body: { mfaToken, code: codeAt(fresh.secret, now) }, ip: newIp() });
    expect(elsewhere.status).toBe(200);
  });
});

describe('turning it off', () => {
  it('disables with the password and a code; the user then signs in with the password alone', async () => {
    const { user, token, password, secret } = await enabledUser(t);
    const wrongPassword = await t.call('POST', '/api/auth/mfa/disable', { token, body: { password: 'nope-nope', code: codeAt(secret, now) }, ip: newIp() });
    expect(wrongPassword.body.error).toBe('ERR_INVALID_CREDENTIALS');
    const wrongCode = await t.call('POST', '/api/auth/mfa/disable', { token, body: { password, code: '000000' }, ip: newIp() });
    expect(wrongCode.body.error).toBe('ERR_INVALID_MFA_CODE');
    const off = await t.call('POST', '/api/auth/mfa/disable', { token, body: { password, code: codeAt(secret, now) }, ip: newIp() });
    expect(off.status).toBe(200);
    const login = await t.call('POST', '/api/auth/login', { body: { email: user.email, password }, ip: newIp() });
    expect(login.status).toBe(200);
    expect(login.body.user.mfaEnabled).toBe(false);
    expect(await auditActions(user.id, 'mfa.disable')).toHaveLength(1);
    const again = await t.call('POST', '/api/auth/mfa/disable', { token, body: { password, code: '123456' }, ip: newIp() });
    expect(again.body.error).toBe('ERR_MFA_NOT_ENABLED');
  });

  it('disables with a recovery code instead of a code of the app', async () => {
    const { token, password, recoveryCodes } = await enabledUser(t);
    const off = await t.call('POST', '/api/auth/mfa/disable', { token, body: { password, code: recoveryCodes[0] }, ip: newIp() });
    expect(off.status).toBe(200);
  });

  it("lets an admin reset another user's second factor (audited); a plain user may not", async () => {
    const { user, password, token } = await enabledUser(t);
    const other = await t.createUser();
    const refused = await t.call('DELETE', `/api/users/${user.id}/mfa`, { token: other.token });
    expect(refused.status).toBe(403);
    expect((await t.call('DELETE', `/api/users/${user.id}/mfa`, { token })).status).toBe(403);
    const res = await t.call('DELETE', `/api/users/${user.id}/mfa`, { token: t.admin });
    expect(res.status).toBe(200);
    const login = await t.call('POST', '/api/auth/login', { body: { email: user.email, password }, ip: newIp() });
    expect(login.status).toBe(200);
    const entries = await auditActions(user.id, 'mfa.reset');
    expect(entries).toHaveLength(1);
    expect(entries[0]!.actorKind).toBe('user');
    expect(entries[0]!.userName).toBeTruthy();
    const missing = await t.call('DELETE', '/api/users/999999/mfa', { token: t.admin });
    expect(missing.status).toBe(404);
  });

  it('refuses an mfaToken issued before the second factor was reset', async () => {
    const { user, password, secret } = await enabledUser(t);
    const mfaToken = await passwordStep(user.email, password);
    await t.call('DELETE', `/api/users/${user.id}/mfa`, { token: t.admin });
    const res = await t.call('POST', '/api/auth/mfa', { body: { mfaToken, code: codeAt(secret, now) }, ip: newIp() });
    expect(res.body.error).toBe('ERR_MFA_TOKEN_INVALID');
  });
});

describe('setting mfaRequiredForAdmins', () => {
  it("closes an admin's open socket at its next token renewal once the setting requires a second factor", async () => {
    const admin = await t.createUser({ profile: 'admin' });
    const socket = await t.socket(admin.token);
    await t.app.services.settings.update('mfaRequiredForAdmins', 'enabled');
    try {
      const closed = new Promise<void>((resolve) => socket.once('disconnect', () => resolve()));
      socket.emit('authenticate', { token: admin.token }, () => undefined);
      await closed;
      expect(socket.connected).toBe(false);
    } finally {
      await t.app.services.settings.update('mfaRequiredForAdmins', 'disabled');
    }
  });

  it('is disabled by default: an admin without a second factor signs in as before', async () => {
    const login = await t.call('POST', '/api/auth/login', { body: ADMIN, ip: newIp() });
    expect(login.status).toBe(200);
    expect(login.body.mfaSetupRequired).toBeUndefined();
  });

  it('makes an admin without it set it up first: login flags it, other routes and sockets answer ERR_MFA_SETUP_REQUIRED, set-up and enable pass', async () => {
    const admin = await t.createUser({ profile: 'admin' });
    const plain = await t.createUser();
    const onAdmin = await enabledUser(t, 'admin');
    const put = await t.call('PUT', '/api/settings/mfaRequiredForAdmins', { token: t.admin, body: { value: 'enabled' } });
    expect(put.status).toBe(200);
    try {
      const login = await t.call('POST', '/api/auth/login', { body: { email: admin.user.email, password: admin.password }, ip: newIp() });
      expect(login.status).toBe(200);
      expect(login.body.mfaSetupRequired).toBe(true);
      const token = login.body.token as string;
      for (const [method, url] of [['GET', '/api/users'], ['GET', '/api/tickets'], ['GET', '/api/settings']] as const) {
        const res = await t.call(method, url, { token });
        expect(res.status, url).toBe(403);
        expect(res.body.error).toBe('ERR_MFA_SETUP_REQUIRED');
      }
      await expect(t.socket(token)).rejects.toThrow(/ERR_MFA_SETUP_REQUIRED/);
      // The refresh keeps saying so.
      const cookie = login.cookies.find((c) => c.name === 'jrt')!.value;
      const refreshed = await t.call('POST', '/api/auth/refresh_token', { cookies: { jrt: cookie } });
      expect(refreshed.body.mfaSetupRequired).toBe(true);

      const setup = await t.call('POST', '/api/auth/mfa/setup', { token });
      expect(setup.status).toBe(200);
      const enable = await t.call('POST', '/api/auth/mfa/enable', { token, body: { code: codeAt(secretOf(setup.body.uri), now) }, ip: newIp() });
      expect(enable.status).toBe(200);
      expect((await t.call('GET', '/api/users', { token })).status).toBe(200);

      // Users are not concerned; an admin with a second factor goes through the two steps as usual.
      const userLogin = await t.call('POST', '/api/auth/login', { body: { email: plain.user.email, password: plain.password }, ip: newIp() });
      expect(userLogin.status).toBe(200);
      expect(userLogin.body.mfaSetupRequired).toBeUndefined();
      expect((await t.call('GET', '/api/tickets', { token: plain.token })).status).toBe(200);
      const mfaToken = await passwordStep(onAdmin.user.email, onAdmin.password);
      const second = await t.call('POST', '/api/auth/mfa', { body: { mfaToken, code: codeAt(onAdmin.secret, now) }, ip: newIp() });
      expect(second.status).toBe(200);
      expect(second.body.mfaSetupRequired).toBeUndefined();
    } finally {
      await t.app.services.settings.update('mfaRequiredForAdmins', 'disabled');
    }
  });
});
