import { describe, expect, it } from 'vitest';
import { useTestApp } from '../test/test-app.js';

// Issue 33 item 9: Safari and iOS play audio and video only from a server that answers byte ranges.
describe('GET /api/media/:name byte ranges', () => {
  const t = useTestApp({ tempDataDir: true });
  const bytes = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 256));

  async function stored(): Promise<string> {
    return t.app.services.media.url(await t.app.services.media.save(bytes, 'audio/ogg'));
  }

  it('answers a Range request with 206, the asked bytes, Content-Range, ETag and the media type', async () => {
    const url = await stored();
    const res = await t.app.http.inject({ method: 'GET', url, headers: { range: 'bytes=100-199' } });
    expect(res.statusCode).toBe(206);
    expect(res.headers['content-range']).toBe('bytes 100-199/1000');
    expect(res.headers['content-length']).toBe('100');
    expect(res.rawPayload.equals(bytes.subarray(100, 200))).toBe(true);
    expect(res.headers.etag).toMatch(/^W\/".+"$/);
    expect(res.headers['last-modified']).toBeTruthy();
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.headers['content-type']).toBe('audio/ogg');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('private, max-age=86400');
  });

  it('sends the whole file with Accept-Ranges, 304 for a known ETag and 416 for a range past the end', async () => {
    const url = await stored();
    const whole = await t.app.http.inject({ method: 'GET', url });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.rawPayload.equals(bytes)).toBe(true);
    const again = await t.app.http.inject({ method: 'GET', url, headers: { 'if-none-match': String(whole.headers.etag) } });
    expect(again.statusCode).toBe(304);
    const past = await t.app.http.inject({ method: 'GET', url, headers: { range: 'bytes=5000-' } });
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toBe('bytes */1000');
  });

  it('still refuses a wrong signature and answers 404 for a signed name with no file', async () => {
    const url = await stored();
    const forged = await t.app.http.inject({ method: 'GET', url: url.replace(/sig=.*/, 'sig=x'), headers: { range: 'bytes=0-1' } });
    expect(forged.statusCode).toBe(403);
    const name = '00000000-0000-0000-0000-000000000000.ogg';
    const missing = await t.app.http.inject({ method: 'GET', url: t.app.services.media.url(name) });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe('ERR_NOT_FOUND');
  });
});
