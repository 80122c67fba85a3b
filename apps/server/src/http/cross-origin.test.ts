import { describe, expect, it } from 'vitest';
import { parseCorsOrigins } from '../config.js';
import { ADMIN, useTestApp } from '../test/test-app.js';

/** A front end served apart from the API (issue 32 §4): CORS_ORIGINS, and a proxy that strips a path prefix. */

const FRONT = 'https://front.example.com';
const STRANGER = 'https://evil.example.net';
const t = useTestApp({ config: { corsOrigins: parseCorsOrigins(`${FRONT}, http://localhost:3000/`) } });

describe('CORS_ORIGINS', () => {
  it('reads comma-separated origins, none by default, and refuses what is not an origin', () => {
    expect(parseCorsOrigins(undefined)).toEqual([]);
    expect(parseCorsOrigins(' ')).toEqual([]);
    expect(parseCorsOrigins('https://a.example.com, http://localhost:3000/,https://A.example.com:443')).toEqual([
      'https://a.example.com',
      'http://localhost:3000',
    ]);
    for (const bad of ['*', 'https://*.example.com', 'https://a.example.com/app', 'a.example.com', 'ftp://a.example.com', 'https://u:p@a.example.com']) {
      expect(() => parseCorsOrigins(bad), bad).toThrow(/CORS_ORIGINS/);
    }
  });

  it('lets a listed origin call the API and Socket.IO with credentials, and gives any other origin no CORS header', async () => {
    const preflight = (origin: string) =>
      t.app.http.inject({
        method: 'OPTIONS',
        url: '/api/tickets',
        headers: { origin, 'access-control-request-method': 'PUT', 'access-control-request-headers': 'authorization,content-type' },
      });
    const allowed = await preflight(FRONT);
    expect(allowed.statusCode).toBe(204);
    expect(allowed.headers['access-control-allow-origin']).toBe(FRONT);
    expect(allowed.headers['access-control-allow-credentials']).toBe('true');
    expect(String(allowed.headers['access-control-allow-methods'])).toMatch(/PUT.*DELETE|DELETE.*PUT/);
    expect(String(allowed.headers['access-control-allow-headers']).toLowerCase()).toContain('authorization');
    expect((await preflight(STRANGER)).headers['access-control-allow-origin']).toBeUndefined();

    const login = (origin: string) => t.app.http.inject({ method: 'POST', url: '/api/auth/login', headers: { origin }, payload: ADMIN });
    const fromFront = await login(FRONT);
    expect(fromFront.statusCode).toBe(200);
    expect(fromFront.headers['access-control-allow-origin']).toBe(FRONT);
    expect(fromFront.headers['access-control-allow-credentials']).toBe('true');
    expect(String(fromFront.headers.vary).toLowerCase()).toContain('origin');
    // An <img> of the front end loads the media files: same-site, not only same-origin.
    expect(fromFront.headers['cross-origin-resource-policy']).toBe('same-site');
    expect((await login(STRANGER)).headers['access-control-allow-origin']).toBeUndefined();

    // Socket.IO's handshake (long-polling, the transport a browser's CORS rules apply to).
    const base = await t.listen();
    const handshake = (origin: string) => fetch(`${base}/socket.io/?EIO=4&transport=polling`, { headers: { origin } });
    const socketFromFront = await handshake(FRONT);
    expect(socketFromFront.headers.get('access-control-allow-origin')).toBe(FRONT);
    expect(socketFromFront.headers.get('access-control-allow-credentials')).toBe('true');
    await socketFromFront.text();
    const socketFromStranger = await handshake(STRANGER);
    expect(socketFromStranger.headers.get('access-control-allow-origin')).toBeNull();
    await socketFromStranger.text();
  });
});

/** The path a browser gives a cookie set by a response to `requestPath` (RFC 6265 §5.2.4, default-path §5.1.4). */
function storedPath(cookiePath: string | undefined, requestPath: string): string {
  if (cookiePath?.startsWith('/')) return cookiePath;
  const lastSlash = requestPath.lastIndexOf('/');
  return lastSlash <= 0 ? '/' : requestPath.slice(0, lastSlash);
}

/** Whether a browser sends a cookie of `cookiePath` with a request to `requestPath` (RFC 6265 §5.1.4 path-match). */
function pathMatches(cookiePath: string, requestPath: string): boolean {
  if (requestPath === cookiePath) return true;
  return requestPath.startsWith(cookiePath) && (cookiePath.endsWith('/') || requestPath[cookiePath.length] === '/');
}

describe('behind a proxy that serves the API under /desk and strips it', () => {
  it('the refresh cookie set by /desk/api/auth/login reaches /desk/api/auth/refresh_token and logout', async () => {
    // The proxy forwards https://example.com/desk/api/auth/login as /api/auth/login.
    const login = await t.call('POST', '/api/auth/login', { body: ADMIN });
    const cookie = login.cookies.find((c) => c.name === 'jrt')!;
    const path = storedPath(cookie.path, '/desk/api/auth/login');
    expect(path).toBe('/desk/api/auth');
    expect(pathMatches(path, '/desk/api/auth/refresh_token')).toBe(true);
    expect(pathMatches(path, '/desk/api/auth/logout')).toBe(true);
    // Not sent to the rest of the API, and without the proxy it is the same folder as always.
    expect(pathMatches(path, '/desk/api/tickets')).toBe(false);
    expect(storedPath(cookie.path, '/api/auth/login')).toBe('/api/auth');

    const refreshed = await t.call('POST', '/api/auth/refresh_token', { cookies: { jrt: cookie.value } });
    expect(refreshed.status).toBe(200);
    const renewed = refreshed.cookies.find((c) => c.name === 'jrt')!;
    expect(storedPath(renewed.path, '/desk/api/auth/refresh_token')).toBe('/desk/api/auth');
    const logout = await t.call('DELETE', '/api/auth/logout', { cookies: { jrt: renewed.value } });
    const cleared = logout.cookies.find((c) => c.name === 'jrt')!;
    expect(storedPath(cleared.path, '/desk/api/auth/logout')).toBe('/desk/api/auth');
  });
});
