import { readdir } from 'node:fs/promises';
import { isErrorCode } from '@wadesk/contracts';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { connectedSimulator, createQueue, inbound } from '../test/desk-factories.js';
import { createTestApp } from '../test/test-app.js';
import {
  hostileBody,
  hostileJson,
  hostileParam,
  hostileQuery,
  hostileString,
  inertDrivers,
  queryString,
  settledChecksum,
  storedChecksum,
} from '../test/bad-input-fixtures.js';

/**
 * Every route of the server's own route table, fed hostile path parameters, query strings and bodies: the
 * answer is never a 5xx, every error is a JSON `{ error: <catalogue code> }` (ERR_VALIDATION with `issues`),
 * and a refused request (≥ 400) leaves the stored desk exactly as it was.
 *
 * Reproduce a failure with its seed: BAD_INPUT_SEED=<seed> (and BAD_INPUT_RUNS=<n> for more runs a route).
 */

const SEED = Number(process.env.BAD_INPUT_SEED ?? 20261123);
const RUNS = Number(process.env.BAD_INPUT_RUNS ?? 30);

const t = await createTestApp({}, { tempDataDir: true, channels: { drivers: inertDrivers } });
const admin = await t.adminToken();

// A small desk for refused requests to leave alone: a queue, a connection with a ticket and its messages, a
// user, a quick answer. Fuzzed ids never name these rows (see hostileParam), so no success path destroys them.
const queueId = await createQueue(t, 'Fuzz queue');
const connection = await connectedSimulator(t, { queueIds: [queueId] });
const ticket = await inbound(t, connection.id, { from: '5511900001111', body: 'a message the fuzzer must not change' });
await t.createUser({ queueIds: [queueId] });
await t.call('POST', '/api/quickAnswers', { token: admin, body: { shortcut: 'hello', message: 'Hello, how can I help?' } });

/**
 * POST /api/delContacts deletes every contact when its caller is allowed (the send API's contract: `{ token }` and
 * nothing else), so an accepted empty body would take the fixture desk with it: send-api.test.ts covers it.
 */
const DESTRUCTIVE_BY_CONTRACT = new Set(['POST /api/delContacts']);
const routes = t.app.http.routeTable.filter(
  (r) => r.method !== 'HEAD' && r.url.startsWith('/api') && !DESTRUCTIVE_BY_CONTRACT.has(`${r.method} ${r.url}`),
);
let baseline = await settledChecksum(t);

/**
 * How long the stored desk must stay unchanged after an accepted request before the next one is judged: longer
 * than the simulator's delivery acks (200 ms after a send), with room for a loaded machine.
 */
const SETTLE_MS = 1000;

/** Temporary upload files still there after a short grace (they are removed as the request ends). */
async function uploadsLeft(): Promise<string[]> {
  const until = Date.now() + 2000;
  for (;;) {
    const left = await readdir(t.app.services.media.uploadDir).catch(() => []);
    if (left.length === 0 || Date.now() > until) return left;
    await new Promise((r) => setTimeout(r, 50));
  }
}

afterAll(async () => {
  await t.close();
});

type Payload =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
  | { kind: 'raw'; contentType: string; payload: string };

const rawPayload = fc.oneof(
  fc.record({
    contentType: fc.constant('application/json'),
    payload: fc.constantFrom('{', '{"name":', '', '{"a":1}{', '"\\u0000"', '{"__proto__":{"x":1}}', '[1e999]', '{"id":1e400}'),
  }),
  fc.record({
    contentType: fc.constantFrom('multipart/form-data', 'multipart/form-data; boundary=', 'multipart/form-data; boundary=X'),
    payload: fc.constantFrom('', '--X\r\nContent-Disposition: form-data; name="medias"; filename="a\u0000.txt"\r\n\r\nabc', 'garbage'),
  }),
  fc.record({ contentType: fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/xml'), payload: fc.string({ maxLength: 30 }) }),
);

const payloadFor = (method: string): fc.Arbitrary<Payload> =>
  method === 'GET' || method === 'DELETE'
    ? fc.constant({ kind: 'none' })
    : fc.oneof(
        { weight: 6, arbitrary: hostileBody.map((value): Payload => ({ kind: 'json', value })) },
        { weight: 1, arbitrary: hostileJson.map((value): Payload => ({ kind: 'json', value })) },
        { weight: 2, arbitrary: rawPayload.map((raw): Payload => ({ kind: 'raw', ...raw })) },
        { weight: 1, arbitrary: fc.constant<Payload>({ kind: 'none' }) },
      );

function seedOf(key: string): number {
  let hash = SEED;
  for (const char of key) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) | 0;
  return hash;
}

async function send(method: string, url: string, payload: Payload) {
  const headers: Record<string, string> = { authorization: `Bearer ${admin}` };
  let body: string | undefined;
  if (payload.kind === 'json') {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(payload.value);
  } else if (payload.kind === 'raw') {
    headers['content-type'] = payload.contentType;
    body = payload.payload;
  }
  const res = await t.app.http.inject({ method: method as 'GET', url, headers, payload: body });
  return { status: res.statusCode, contentType: String(res.headers['content-type'] ?? ''), text: res.body };
}

/** fc.assert, with a failure reported as its request and answer (counterexamples can be 40,000 characters). */
async function assertConcisely<T>(property: fc.IAsyncProperty<T>, params: fc.Parameters<T>): Promise<void> {
  try {
    await fc.assert(property, params);
  } catch (err) {
    const text = err instanceof Error ? err.message : String(err);
    const replay = /\{ seed: [^}]*\}/.exec(text)?.[0] ?? '';
    const cause = err instanceof Error && err.cause instanceof Error ? err.cause.message : text;
    // The original error is left out on purpose: its message repeats the whole counterexample.
    // eslint-disable-next-line preserve-caught-error
    throw new Error(`${cause.slice(0, 1500)}\nreplay: ${replay}`);
  }
}

function describeRequest(method: string, url: string, payload: Payload): string {
  const shown = payload.kind === 'json' ? JSON.stringify(payload.value) : payload.kind === 'raw' ? `${payload.contentType}: ${JSON.stringify(payload.payload)}` : '';
  return `${method} ${url} ${shown.slice(0, 300)}`;
}

describe('hostile input on every route', () => {
  it('has the routes of the desk to fuzz', () => {
    expect(routes.length).toBeGreaterThan(40);
  });

  for (const route of routes) {
    it(`${route.method} ${route.url}: never a 5xx, always a JSON error code, refused requests change nothing`, async () => {
      const params = (route.url.match(/:\w+/g) ?? []).map(() => hostileParam);
      await assertConcisely(
        fc.asyncProperty(fc.tuple(...params), hostileQuery, payloadFor(route.method), async (values, query, payload) => {
          let i = 0;
          const url = route.url.replace(/:\w+/g, () => values[i++]!) + queryString(query);
          const res = await send(route.method, url, payload);
          const what = `${describeRequest(route.method, url, payload)} → ${res.status} ${res.text.slice(0, 300)}`;
          if (res.status >= 500) throw new Error(`server error: ${what}`);
          if (res.status < 400) {
            // A success that wrote something may have started background work (a delivery, its acks): let it settle.
            const now = await storedChecksum(t);
            baseline = JSON.stringify(now) === JSON.stringify(baseline) ? now : await settledChecksum(t, SETTLE_MS);
            return;
          }
          if (!res.contentType.includes('application/json')) throw new Error(`error without JSON: ${what}`);
          const body = JSON.parse(res.text) as { error?: unknown; message?: unknown; issues?: unknown };
          if (!isErrorCode(body.error) || typeof body.message !== 'string') throw new Error(`error without a code: ${what}`);
          if (body.error === 'ERR_VALIDATION' && !Array.isArray(body.issues)) throw new Error(`ERR_VALIDATION without issues: ${what}`);
          const after = await storedChecksum(t);
          const changed = Object.keys(after).filter((table) => after[table] !== baseline[table]);
          baseline = after;
          if (changed.length > 0) throw new Error(`refused request changed ${changed.join(', ')}: ${what}`);
        }),
        { numRuns: RUNS, seed: seedOf(`${route.method} ${route.url}`), endOnFailure: true },
      );
    }, 120_000);
  }

  it('POST /api/messages/:ticketId on a real ticket: hostile multipart bodies never a 5xx, never a temporary file left', async () => {
    const header = fc.oneof(
      { weight: 3, arbitrary: fc.constant('multipart/form-data; boundary=B') },
      { weight: 1, arbitrary: fc.constantFrom('multipart/form-data', 'multipart/form-data; boundary=', 'multipart/form-data; boundary=Z') },
    );
    const part = fc.record({
      name: fc.constantFrom('body', 'medias', '__proto__', 'constructor', 'x', ''),
      filename: fc.option(fc.oneof(hostileString, fc.constantFrom('a.pdf', 'x.png', 'nota.ogg')), { nil: undefined }),
      type: fc.option(fc.oneof(fc.constantFrom('application/pdf', 'image/png', 'audio/ogg', 'application/json', ''), hostileString), { nil: undefined }),
      content: fc.oneof(hostileString, fc.string({ maxLength: 50 })),
    });
    const body = fc.record({ parts: fc.array(part, { maxLength: 4 }), end: fc.oneof({ weight: 3, arbitrary: fc.constant('--B--\r\n') }, { weight: 1, arbitrary: fc.constantFrom('--B', '', '\r\n--B--') }) });
    await assertConcisely(
      fc.asyncProperty(header, body, async (contentType, { parts, end }) => {
        const text =
          parts
            .map((p) => {
              const disposition = `form-data; name="${p.name}"${p.filename === undefined ? '' : `; filename="${p.filename}"`}`;
              return `--B\r\nContent-Disposition: ${disposition}\r\n${p.type === undefined ? '' : `Content-Type: ${p.type}\r\n`}\r\n${p.content}\r\n`;
            })
            .join('') + end;
        const payload: Payload = { kind: 'raw', contentType, payload: text };
        const url = `/api/messages/${ticket.id}`;
        const res = await send('POST', url, payload);
        const what = `${describeRequest('POST', url, payload)} → ${res.status} ${res.text.slice(0, 300)}`;
        if (res.status >= 500) throw new Error(`server error: ${what}`);
        if ((await uploadsLeft()).length > 0) throw new Error(`temporary files left: ${what}`);
        if (res.status < 400) {
          baseline = await settledChecksum(t, SETTLE_MS);
          return;
        }
        const json = JSON.parse(res.text) as { error?: unknown; issues?: unknown };
        if (!isErrorCode(json.error)) throw new Error(`error without a code: ${what}`);
        if (json.error === 'ERR_VALIDATION' && !Array.isArray(json.issues)) throw new Error(`ERR_VALIDATION without issues: ${what}`);
        const after = await storedChecksum(t);
        const changed = Object.keys(after).filter((table) => after[table] !== baseline[table]);
        baseline = after;
        if (changed.length > 0) throw new Error(`refused request changed ${changed.join(', ')}: ${what}`);
      }),
      { numRuns: RUNS * 2, seed: seedOf('multipart'), endOnFailure: true },
    );
  }, 120_000);

  it('left the admin signed in and the fixture desk in place', async () => {
    const res = await t.call('GET', '/api/tickets?showAll=true', { token: admin });
    expect(res.status).toBe(200);
    expect(res.body.tickets.length).toBeGreaterThan(0);
  });
});
