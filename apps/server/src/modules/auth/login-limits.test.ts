import { describe, expect, it } from 'vitest';
import { parseTrustProxy } from '../../config.js';
import { ADMIN, createTestApp, type TestApp, useTestApp } from '../../test/test-app.js';
import { ACCOUNT_FAILURE_LIMIT, ADDRESS_FAILURE_LIMIT, ADDRESS_FAILURE_WINDOW_SECONDS, clientAddressKey } from './login-limits.js';

const t = useTestApp();

const login = (app: TestApp, body: { email: string; password: string }, ip: string, forwardedFor?: string) =>
  app.call('POST', '/api/auth/login', { body, ip, headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {} });

/** A login whose answer keeps its headers (Retry-After). */
async function loginWithHeaders(app: TestApp, body: { email: string; password: string }, ip: string, forwardedFor?: string) {
  const res = await app.app.http.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: body,
    remoteAddress: ip,
    headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
  });
  return { status: res.statusCode, body: res.json<{ error?: string }>(), retryAfter: res.headers['retry-after'] };
}

/** A wrong password on a different account each time (unknown e-mails count like known ones). */
let guess = 0;
const wrongOnAnotherAccount = () => {
  guess += 1;
  return { email: `victim-${guess}@test.local`, password: 'guess-123' };
};

describe('login limits without a trusted proxy (the default)', () => {
  it('ignores X-Forwarded-For: 30 wrong passwords with rotating headers are limited, and so is the right one', async () => {
    const { user, password } = await t.createUser();
    const statuses: number[] = [];
    for (let i = 0; i < 30; i += 1) {
      const res = await login(t, { email: user.email, password: 'wrong-pass' }, '10.40.0.1', `198.51.100.${i + 1}`);
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.slice(5).every((s) => s === 429)).toBe(true);
    const right = await login(t, { email: user.email, password }, '10.40.0.1', '198.51.100.200');
    expect(right.status).toBe(429);
    expect(right.body.error).toBe('ERR_RATE_LIMITED');
  });
});

describe('login limits per account, across every address', () => {
  it(`refuses the account with 429 after ${ACCOUNT_FAILURE_LIMIT} failures from different addresses, even the right password`, async () => {
    const { user, password } = await t.createUser();
    for (let i = 0; i < ACCOUNT_FAILURE_LIMIT; i += 1) {
      const res = await login(t, { email: user.email, password: 'wrong-pass' }, `10.41.${i}.1`);
      expect(res.status).toBe(401);
    }
    const next = await loginWithHeaders(t, { email: user.email, password: 'wrong-pass' }, '10.41.99.1');
    expect(next.status).toBe(429);
    expect(next.body.error).toBe('ERR_RATE_LIMITED');
    expect(Number(next.retryAfter)).toBeGreaterThan(0);
    expect(Number(next.retryAfter)).toBeLessThanOrEqual(15 * 60);
    const right = await login(t, { email: user.email, password }, '10.41.99.2');
    expect(right.status).toBe(429);
    expect(right.body.error).toBe('ERR_RATE_LIMITED');
    // Other accounts are not affected.
    expect((await login(t, ADMIN, '10.41.99.3')).status).toBe(200);
  });

  it('counts unknown e-mails too (no difference between existing and unknown accounts)', async () => {
    const email = 'nobody-here@test.local';
    for (let i = 0; i < ACCOUNT_FAILURE_LIMIT; i += 1) {
      expect((await login(t, { email, password: 'x' }, `10.42.${i}.1`)).status).toBe(401);
    }
    expect((await login(t, { email, password: 'x' }, '10.42.99.1')).status).toBe(429);
  });

  it('opens again when the window is over', async () => {
    const { user, password } = await t.createUser();
    for (let i = 0; i < ACCOUNT_FAILURE_LIMIT; i += 1) {
      await login(t, { email: user.email, password: 'wrong-pass' }, `10.43.${i}.1`);
    }
    expect((await login(t, { email: user.email, password }, '10.43.99.1')).status).toBe(429);
    await t.app.database.db.execute(
      `update rate_limits set reset_at = now() - interval '1 second' where key = 'login-account:${user.email}'`,
    );
    expect((await login(t, { email: user.email, password }, '10.43.99.1')).status).toBe(200);
  });
});

describe('login limits per address, across every account', () => {
  it(`refuses the address with 429, Retry-After and ERR_RATE_LIMITED after ${ADDRESS_FAILURE_LIMIT} failures on as many accounts, even the right password`, async () => {
    for (let i = 0; i < ADDRESS_FAILURE_LIMIT; i += 1) {
      expect((await login(t, wrongOnAnotherAccount(), '10.44.0.1')).status).toBe(401);
    }
    const next = await loginWithHeaders(t, wrongOnAnotherAccount(), '10.44.0.1');
    expect(next.status).toBe(429);
    expect(next.body.error).toBe('ERR_RATE_LIMITED');
    expect(Number(next.retryAfter)).toBeGreaterThan(ADDRESS_FAILURE_WINDOW_SECONDS - 60);
    expect(Number(next.retryAfter)).toBeLessThanOrEqual(ADDRESS_FAILURE_WINDOW_SECONDS);
    const right = await loginWithHeaders(t, ADMIN, '10.44.0.1');
    expect(right.status).toBe(429);
    expect(right.body.error).toBe('ERR_RATE_LIMITED');
    expect(Number(right.retryAfter)).toBeGreaterThan(0);
    // Another address is not affected, nor are the accounts tried.
    expect((await login(t, ADMIN, '10.44.0.2')).status).toBe(200);
  });

  it('lets an office behind one address work: signing in right counts nothing', async () => {
    const office = '10.45.0.1';
    const team = await Promise.all([t.createUser(), t.createUser(), t.createUser()]);
    for (let i = 0; i < ADDRESS_FAILURE_LIMIT - 1; i += 1) {
      expect((await login(t, wrongOnAnotherAccount(), office)).status).toBe(401);
    }
    for (let round = 0; round < 3; round += 1) {
      for (const member of team) expect((await login(t, { email: member.user.email, password: member.password }, office)).status).toBe(200);
    }
    expect((await login(t, wrongOnAnotherAccount(), office)).status).toBe(401);
    expect((await login(t, wrongOnAnotherAccount(), office)).status).toBe(429);
  });

  it('lets no more than the limit through in a burst of concurrent failures', async () => {
    const burst = await Promise.all(
      Array.from({ length: ADDRESS_FAILURE_LIMIT + 15 }, () => login(t, wrongOnAnotherAccount(), '10.46.0.1')),
    );
    const statuses = burst.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(ADDRESS_FAILURE_LIMIT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
  });

  it('counts IPv6 clients by their /64: a new interface address buys no more tries', async () => {
    for (let i = 0; i < ADDRESS_FAILURE_LIMIT; i += 1) {
      expect((await login(t, wrongOnAnotherAccount(), `2001:db8:47:1::${(i + 1).toString(16)}`)).status).toBe(401);
    }
    expect((await login(t, wrongOnAnotherAccount(), '2001:db8:47:1:ffff:ffff:ffff:ffff')).status).toBe(429);
    expect((await login(t, wrongOnAnotherAccount(), '2001:db8:47:2::1')).status).toBe(401);
  });

  it('opens again when the window is over', async () => {
    for (let i = 0; i < ADDRESS_FAILURE_LIMIT; i += 1) await login(t, wrongOnAnotherAccount(), '10.48.0.1');
    expect((await login(t, ADMIN, '10.48.0.1')).status).toBe(429);
    await t.app.database.db.execute(`update rate_limits set reset_at = now() - interval '1 second' where key = 'login-address:10.48.0.1'`);
    expect((await login(t, ADMIN, '10.48.0.1')).status).toBe(200);
  });

  it('keys an address: IPv4 as written (also IPv4-mapped), IPv6 by its /64', () => {
    expect(clientAddressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddressKey('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(clientAddressKey('2001:db8:1:2::9')).toBe('2001:db8:1:2::/64');
  });
});

describe('TRUST_PROXY', () => {
  it('trusts nothing unless told: unset, empty, false and 0', () => {
    for (const value of [undefined, '', 'false', '0', '  ']) expect(parseTrustProxy(value)).toBe(false);
  });

  it('takes a hop count: the nearest N hops may set the address', () => {
    const one = parseTrustProxy('1');
    expect(typeof one).toBe('function');
    const trust = one as (address: string, hop: number) => boolean;
    expect(trust('10.0.0.1', 0)).toBe(true);
    expect(trust('10.0.0.2', 1)).toBe(false);
  });

  it('takes addresses and CIDR ranges, and refuses true', () => {
    expect(parseTrustProxy('127.0.0.1, 10.0.0.0/8')).toEqual(['127.0.0.1', '10.0.0.0/8']);
    expect(() => parseTrustProxy('true')).toThrow(/TRUST_PROXY/);
  });

  it('uses X-Forwarded-For only from a trusted proxy', async () => {
    const proxied = await createTestApp({ trustProxy: parseTrustProxy('127.0.0.1') });
    try {
      const { user } = await proxied.createUser();
      const wrong = { email: user.email, password: 'wrong-pass' };
      // Through the trusted proxy, each client address has its own per-address window.
      for (let i = 0; i < 5; i += 1) expect((await login(proxied, wrong, '127.0.0.1', '203.0.113.7')).status).toBe(401);
      expect((await login(proxied, wrong, '127.0.0.1', '203.0.113.7')).status).toBe(429);
      expect((await login(proxied, wrong, '127.0.0.1', '203.0.113.8')).status).toBe(401);
      // From an untrusted peer, the header is ignored: the peer's own address counts.
      for (let i = 0; i < 4; i += 1) await login(proxied, wrong, '192.0.2.50', `203.0.113.${20 + i}`);
      expect((await login(proxied, wrong, '192.0.2.50', '203.0.113.99')).status).toBe(429);
    } finally {
      await proxied.close();
    }
  });

  it('limits the address across accounts by the client address a trusted proxy names, and by the peer otherwise', async () => {
    const proxied = await createTestApp({ trustProxy: parseTrustProxy('127.0.0.1') });
    try {
      for (let i = 0; i < ADDRESS_FAILURE_LIMIT; i += 1) {
        expect((await login(proxied, wrongOnAnotherAccount(), '127.0.0.1', '203.0.113.60')).status).toBe(401);
      }
      const limited = await loginWithHeaders(proxied, wrongOnAnotherAccount(), '127.0.0.1', '203.0.113.60');
      expect(limited.status).toBe(429);
      expect(Number(limited.retryAfter)).toBeGreaterThan(0);
      // Another client behind the same proxy has its own budget.
      expect((await login(proxied, wrongOnAnotherAccount(), '127.0.0.1', '203.0.113.61')).status).toBe(401);
      // An untrusted peer's header is ignored: rotating it does not escape the peer's own budget.
      for (let i = 0; i < ADDRESS_FAILURE_LIMIT; i += 1) {
        expect((await login(proxied, wrongOnAnotherAccount(), '192.0.2.60', `198.51.100.${i + 1}`)).status).toBe(401);
      }
      expect((await login(proxied, wrongOnAnotherAccount(), '192.0.2.60', '198.51.100.200')).status).toBe(429);
    } finally {
      await proxied.close();
    }
  });
});
