import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../test/test-app.js';

/** Issue 17: readiness, request ids in the log and the response, and /metrics when the metrics are off. */
const lines: string[] = [];
const logStream = new Writable({
  write(chunk: Buffer, _encoding, done) {
    lines.push(chunk.toString('utf8'));
    done();
  },
});
const t = useTestApp({ config: { logLevel: 'debug' }, logStream });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The JSON log lines of one request id. */
const linesOf = (reqId: string) =>
  lines
    .join('')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { reqId?: string; msg?: string; level?: number; req?: { url?: string }; res?: { statusCode?: number } })
    .filter((line) => line.reqId === reqId);

describe('GET /api/ready', () => {
  it('answers 200 with every check ok, without a token', async () => {
    const res = await t.call('GET', '/api/ready');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', checks: { database: 'ok', migrations: 'ok', jobs: 'ok', shutdown: 'ok' } });
  });

  it('keeps /api/health as it was (liveness)', async () => {
    const res = await t.call('GET', '/api/health');
    expect(res.status).toBe(200);
    // No GUIDE_URL here: Help opens the guide the desk serves at /guide/ (decision 0036).
    expect(res.body).toMatchObject({ status: 'ok', simulator: true, guideUrl: null });
  });
});

describe('request ids', () => {
  it('takes a sane X-Request-Id, echoes it and writes it on the request’s JSON log lines', async () => {
    const res = await t.app.http.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': 'edge-7f3a.42:retry_1' } });
    expect(res.headers['x-request-id']).toBe('edge-7f3a.42:retry_1');
    const logged = linesOf('edge-7f3a.42:retry_1');
    expect(logged).toEqual([expect.objectContaining({ msg: 'request completed', level: 20, req: expect.objectContaining({ url: '/api/health' }), res: { statusCode: 200 } })]);
  });

  it('logs one line per request at debug and none at info, so polling (the simulator page) stays out of the info log (issue 33 item 23)', async () => {
    const log = t.app.http.log;
    try {
      log.level = 'info';
      await t.app.http.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': 'at-info-level' } });
      expect(linesOf('at-info-level')).toEqual([]);
    } finally {
      log.level = 'debug';
    }
  });

  it('replaces an id that is not a short token with a new UUID', async () => {
    for (const bad of ['has spaces', 'line\\nbreak', '<script>', 'x'.repeat(200), '-leading-dash']) {
      const res = await t.app.http.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': bad } });
      expect(res.headers['x-request-id'], bad).toMatch(UUID);
      expect(linesOf(bad)).toEqual([]);
    }
  });

  it('gives every request an id, errors and unknown routes included, each a different one', async () => {
    const a = await t.app.http.inject({ method: 'GET', url: '/api/users' });
    const b = await t.app.http.inject({ method: 'GET', url: '/api/no-such-route' });
    expect(a.statusCode).toBe(401);
    expect(b.statusCode).toBe(404);
    expect(a.headers['x-request-id']).toMatch(UUID);
    expect(b.headers['x-request-id']).toMatch(UUID);
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
  });
});

describe('GET /metrics with the metrics off (the default)', () => {
  it('is a JSON 404, with or without a token, never the web app', async () => {
    for (const headers of [{}, { authorization: 'Bearer a-metrics-token-of-32-characters' }]) {
      const res = await t.app.http.inject({ method: 'GET', url: '/metrics', headers });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ error: 'ERR_NOT_FOUND' });
    }
    expect(t.app.metrics).toBeNull();
  });
});
