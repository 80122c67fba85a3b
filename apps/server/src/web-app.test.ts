import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTestApp } from './test/test-app.js';

/** A built web app in a temp folder: the page and one asset. */
function builtWebApp(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'wadesk-web-'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>WA Desk</title>');
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'assets', 'app.js'), 'console.log(1)');
  return dir;
}

const webDist = builtWebApp();
const t = useTestApp({ config: { webDist } });

describe('one origin: web app, API and sockets', () => {
  it('serves the web app at / and for every client-side route', async () => {
    for (const url of ['/', '/tickets', '/tickets/12', '/Settings', '/login']) {
      const res = await t.app.http.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.body).toContain('WA Desk');
    }
  });

  it('answers /metrics with a JSON 404 while the metrics are off, never the web app’s page (issue 17)', async () => {
    for (const url of ['/metrics', '/metrics?name[]=x']) {
      const res = await t.app.http.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toMatchObject({ error: 'ERR_NOT_FOUND' });
    }
  });

  it('serves built assets, files added after start included, and 404 for a missing one', async () => {
    expect((await t.app.http.inject({ method: 'GET', url: '/assets/app.js' })).statusCode).toBe(200);
    writeFileSync(path.join(webDist, 'assets', 'later.js'), 'console.log(2)');
    expect((await t.app.http.inject({ method: 'GET', url: '/assets/later.js' })).statusCode).toBe(200);
    expect((await t.app.http.inject({ method: 'GET', url: '/assets/missing.js' })).statusCode).toBe(404);
  });

  it('answers unknown API paths with JSON ERR_NOT_FOUND, with or without a token (no handler is reached)', async () => {
    const anonymous = await t.call('GET', '/api/nothing-here');
    expect(anonymous.status).toBe(404);
    expect(anonymous.body.error).toBe('ERR_NOT_FOUND');
    const res = await t.call('GET', '/api/nothing-here', { token: await t.adminToken() });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('ERR_NOT_FOUND');
  });

  it('answers with and without a trailing slash', async () => {
    const token = await t.adminToken();
    expect((await t.call('GET', '/api/users/', { token })).status).toBe(200);
    expect((await t.call('GET', '/api/users', { token })).status).toBe(200);
    expect((await t.call('GET', '/api/whatsapp/', { token })).status).toBe(200);
  });

  it('sends the browser-hardening headers on the web app and on the API', async () => {
    for (const url of ['/', '/tickets', '/assets/app.js', '/api/health']) {
      const res = await t.app.http.inject({ method: 'GET', url });
      const csp = String(res.headers['content-security-policy']);
      expect(csp, url).toContain("script-src 'self'");
      expect(csp, url).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(csp, url).toContain("frame-ancestors 'none'");
      expect(csp, url).toContain("object-src 'none'");
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['referrer-policy'], url).toBe('strict-origin-when-cross-origin');
      expect(res.headers['x-frame-options'], url).toBe('DENY');
      // Plain HTTP by default (COOKIE_SECURE off): no HSTS, no upgrade of requests to https.
      expect(res.headers['strict-transport-security'], url).toBeUndefined();
      expect(csp, url).not.toContain('upgrade-insecure-requests');
    }
  });

  it('reports its health without a token', async () => {
    const res = await t.call('GET', '/api/health');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('ok');
  });
});
