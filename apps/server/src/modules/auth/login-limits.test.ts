import { describe, expect, it } from 'vitest';
import { parseTrustProxy } from '../../config.js';
import { ADMIN, createTestApp, type TestApp, useTestApp } from '../../test/test-app.js';
import { ACCOUNT_FAILURE_LIMIT } from './auth.service.js';

const t = useTestApp();

const login = (app: TestApp, body: { email: string; password: string }, ip: string, forwardedFor?: string) =>
  app.call('POST', '/api/auth/login', { body, ip, headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {} });

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
    const next = await login(t, { email: user.email, password: 'wrong-pass' }, '10.41.99.1');
    expect(next.status).toBe(429);
    expect(next.body.error).toBe('ERR_RATE_LIMITED');
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
});
