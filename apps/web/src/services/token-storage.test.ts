import { describe, expect, it } from 'vitest';
import { clearToken, forgetStoredTokens, getToken, setToken, tokenLifetimeMs } from './token-storage';

/** A minimal Web Storage over a Map. */
function memoryStorage(entries: Record<string, string>): Storage {
  const map = new Map(Object.entries(entries));
  return {
    get length() {
      return map.size;
    },
    key: (i: number) => [...map.keys()][i] ?? null,
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, String(v)),
    removeItem: (k: string) => void map.delete(k),
    clear: () => map.clear(),
  };
}

const keysOf = (s: Storage) => Array.from({ length: s.length }, (_, i) => s.key(i));

describe('token storage (memory only)', () => {
  it('keeps the token in memory and forgets it', () => {
    expect(getToken()).toBeNull();
    setToken('abc');
    expect(getToken()).toBe('abc');
    setToken('def');
    expect(getToken()).toBe('def');
    clearToken();
    expect(getToken()).toBeNull();
  });

  it('never writes to web storage', () => {
    const g = globalThis as { localStorage?: Storage; sessionStorage?: Storage };
    const local = memoryStorage({});
    const session = memoryStorage({});
    g.localStorage = local;
    g.sessionStorage = session;
    try {
      setToken('secret.jwt');
      expect(getToken()).toBe('secret.jwt');
      expect(local.length + session.length).toBe(0);
      clearToken();
    } finally {
      delete g.localStorage;
      delete g.sessionStorage;
    }
  });

  it('removes stale token-like keys and keeps the other preferences', () => {
    const local = memoryStorage({ token: 'old.jwt', i18nextLng: 'pt', accessToken: 'x', 'wadesk.audioSpeed': '1.5' });
    const session = memoryStorage({ refresh_token: 'y', JWT: 'z', other: '1' });
    forgetStoredTokens([local, session]);
    expect(keysOf(local)).toEqual(['i18nextLng', 'wadesk.audioSpeed']);
    expect(keysOf(session)).toEqual(['other']);
  });

  it('survives a missing or failing storage', () => {
    const broken = {
      get length(): number {
        throw new Error('SecurityError');
      },
    } as unknown as Storage;
    expect(() => forgetStoredTokens([undefined, broken])).not.toThrow();
    expect(() => forgetStoredTokens()).not.toThrow();
  });
});

describe('tokenLifetimeMs', () => {
  const b64url = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const jwt = (claims: object) => `${b64url({ alg: 'HS256' })}.${b64url(claims)}.sig`;

  it('reads exp - iat of a JWT, whatever the local clock says', () => {
    expect(tokenLifetimeMs(jwt({ sub: '1', iat: 1_000, exp: 1_900 }))).toBe(900_000);
    expect(tokenLifetimeMs(jwt({ iat: 5, exp: 6, name: 'Ação ✓' }))).toBe(1_000);
  });

  it('is null for anything else', () => {
    expect(tokenLifetimeMs('opaque')).toBeNull();
    expect(tokenLifetimeMs('a.%%%.c')).toBeNull();
    expect(tokenLifetimeMs(jwt({ exp: 10 }))).toBeNull();
    expect(tokenLifetimeMs(jwt({ iat: 10, exp: 5 }))).toBeNull();
  });
});
