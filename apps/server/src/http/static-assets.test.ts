import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../test/test-app.js';

const INDEX = '<!doctype html><title>WA Desk</title><script type="module" src="/assets/app-abc123.js"></script>';
const SCRIPT = `export const answer = ${'42 + '.repeat(200)}0;`;

/** A built web app as Vite writes it: index.html and hashed assets, each with its .br and .gz beside it. */
function fakeWebDist(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'wadesk-static-'));
  mkdirSync(path.join(dir, 'assets'));
  mkdirSync(path.join(dir, '.vite'));
  const write = (file: string, text: string) => {
    writeFileSync(path.join(dir, file), text);
    writeFileSync(path.join(dir, `${file}.br`), brotliCompressSync(text));
    writeFileSync(path.join(dir, `${file}.gz`), gzipSync(text));
  };
  write('index.html', INDEX);
  write('assets/app-abc123.js', SCRIPT);
  writeFileSync(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(path.join(dir, '.vite', 'manifest.json'), '{}');
  return dir;
}

const webDist = fakeWebDist();
const t = useTestApp({ config: { webDist } });
afterAll(() => rmSync(webDist, { recursive: true, force: true }));

const get = (url: string, encoding?: string) =>
  t.app.http.inject({ method: 'GET', url, headers: encoding === undefined ? {} : { 'accept-encoding': encoding } });

const IMMUTABLE = 'public, max-age=31536000, immutable';

describe('the built web app is served precompressed and cached by kind', () => {
  it('sends a hashed asset as brotli to a browser that accepts it, cached for a year', async () => {
    const res = await get('/assets/app-abc123.js', 'gzip, deflate, br');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe(IMMUTABLE);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(SCRIPT);
  });

  it('sends it as gzip to a browser that accepts only gzip', async () => {
    const res = await get('/assets/app-abc123.js', 'gzip');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['cache-control']).toBe(IMMUTABLE);
    expect(gunzipSync(res.rawPayload).toString()).toBe(SCRIPT);
  });

  it('sends it as is (identity) to a client that accepts no compression', async () => {
    for (const encoding of [undefined, 'identity']) {
      const res = await get('/assets/app-abc123.js', encoding);
      expect(res.statusCode, String(encoding)).toBe(200);
      expect(res.headers['content-encoding'], String(encoding)).toBeUndefined();
      expect(res.headers['cache-control'], String(encoding)).toBe(IMMUTABLE);
      expect(res.body, String(encoding)).toBe(SCRIPT);
    }
  });

  it('revalidates index.html, at / and for every client-side route, and sends it compressed too', async () => {
    for (const url of ['/', '/login', '/tickets/12', '/Settings']) {
      const res = await get(url, 'gzip, br');
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/text\/html/);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.headers['content-encoding'], url).toBe('br');
      expect(brotliDecompressSync(res.rawPayload).toString(), url).toBe(INDEX);
      const plain = await get(url);
      expect(plain.headers['cache-control'], url).toBe('no-cache');
      expect(plain.body, url).toBe(INDEX);
    }
  });

  it('revalidates the files that are not hashed (public/) and sends them without a compressed copy', async () => {
    const res = await get('/favicon.svg', 'gzip, br');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('answers 304 to a revalidation of an unchanged index.html', async () => {
    const first = await get('/', 'br');
    const etag = String(first.headers.etag);
    const again = await t.app.http.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'br', 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
  });

  it('keeps the browser-hardening headers on compressed files', async () => {
    for (const url of ['/', '/assets/app-abc123.js']) {
      const res = await get(url, 'br');
      expect(String(res.headers['content-security-policy']), url).toContain("script-src 'self'");
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['x-frame-options'], url).toBe('DENY');
    }
  });

  it('does not serve the build manifest, and answers a missing asset with 404', async () => {
    const manifest = await get('/.vite/manifest.json');
    expect(manifest.body).toBe(INDEX);
    const missing = await get('/assets/missing-abc123.js', 'br');
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['cache-control']).toBeUndefined();
  });

  it('leaves the API alone: no precompressed files, no long caching, JSON 404s', async () => {
    const health = await get('/api/health', 'gzip, br');
    expect(health.statusCode).toBe(200);
    expect(health.headers['content-encoding']).toBeUndefined();
    expect(health.headers['cache-control']).toBe('no-store');
    const unknown = await get('/api/nothing-here', 'br');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ error: 'ERR_NOT_FOUND' });
    expect(unknown.headers['cache-control']).toBeUndefined();
  });
});
