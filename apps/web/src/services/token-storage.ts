/**
 * The access token lives in memory only, never in localStorage or sessionStorage (a script injected
 * into the page must not be able to read a long-lived copy). A reload gets a new one through the
 * httpOnly refresh cookie (`POST /api/auth/refresh_token` at start-up).
 */
let accessToken: string | null = null;

export function getToken(): string | null {
  return accessToken;
}

export function setToken(token: string): void {
  accessToken = token;
}

export function clearToken(): void {
  accessToken = null;
}

/**
 * How long an access token lives (its `exp - iat`, in ms), read without verifying it; null when the token
 * is not a JWT with both claims. Relative to `iat`, so a client clock that is off does not matter.
 */
export function tokenLifetimeMs(token: string): number | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(payload.length / 4) * 4, '='));
    const claims = JSON.parse(json) as { exp?: unknown; iat?: unknown };
    if (typeof claims.exp !== 'number' || typeof claims.iat !== 'number' || claims.exp <= claims.iat) return null;
    return (claims.exp - claims.iat) * 1000;
  } catch {
    return null;
  }
}

/** Keys an older version of the app (or another client) may have used to store a token. */
const TOKEN_LIKE_KEY = /token|jwt|auth/i;

/**
 * Removes any token left in web storage by an older version of the app. Called once at start-up;
 * never throws (storage may be disabled).
 */
export function forgetStoredTokens(storages: (Storage | undefined)[] = defaultStorages()): void {
  for (const storage of storages) {
    if (!storage) continue;
    try {
      const keys: string[] = [];
      for (let i = 0; i < storage.length; i += 1) {
        const key = storage.key(i);
        if (key !== null && TOKEN_LIKE_KEY.test(key)) keys.push(key);
      }
      for (const key of keys) storage.removeItem(key);
    } catch {
      // Storage unavailable (privacy mode, sandboxed frame): nothing stored then.
    }
  }
}

function defaultStorages(): (Storage | undefined)[] {
  const pick = (name: 'localStorage' | 'sessionStorage'): Storage | undefined => {
    try {
      return typeof window === 'undefined' ? undefined : window[name];
    } catch {
      return undefined;
    }
  };
  return [pick('localStorage'), pick('sessionStorage')];
}
