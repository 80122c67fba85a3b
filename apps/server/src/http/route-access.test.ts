import { sql } from 'drizzle-orm';
import { ATTENDANT_TOOLS } from '@wadesk/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { tickets } from '../db/schema.js';
import { connectedSimulator, createQueue, inbound, queryRows } from '../test/desk-factories.js';
import { useTestApp } from '../test/test-app.js';
import type { RouteEntry } from './auth-hook.js';
import { EXPECTED_ROUTE_ACCESS, type ExpectedRoute } from './route-access.expected.js';

/**
 * The authorization table, generated from the server's own route table: every route × (anonymous, a user in
 * the ticket's queue, a user outside it, an admin) × the URL spellings an attacker tries. Access is decided on
 * the matched route, so `//api/users` and `/%61pi/users` get exactly the answer of `/api/users`.
 */

const SPELLINGS: [string, (path: string) => string][] = [
  ['/api', (p) => p],
  ['//api', (p) => `/${p}`],
  ['/%61pi', (p) => p.replace(/^\/api/, '/%61pi')],
  ['//%61pi', (p) => `/${p.replace(/^\/api/, '/%61pi')}`],
];

type Identity = 'anonymous' | 'outsider' | 'member' | 'admin';
const MISSING_ID = 999999;

const t = useTestApp();
const tokens: Record<Exclude<Identity, 'anonymous'>, string> = { outsider: '', member: '', admin: '' };
let ticketId = 0;
let messageId = 0;
let routes: RouteEntry[] = [];
const unlisted: RouteEntry[] = [];
const listed = (r: RouteEntry) => !unlisted.includes(r);

beforeAll(async () => {
  const queue = await createQueue(t, 'Route table queue');
  const other = await createQueue(t, 'Route table other queue');
  const connection = await connectedSimulator(t, { queueIds: [queue] });
  const ticket = await inbound(t, connection.id, { from: '5511987650001', body: 'a message only queue members may read' });
  await t.app.database.db.update(tickets).set({ queueId: queue, userId: null, status: 'pending' }).where(sql`${tickets.id} = ${ticket.id}`);
  ticketId = ticket.id;
  const [message] = await queryRows<{ id: number }>(t, sql`select id from messages where ticket_id = ${ticket.id} limit 1`);
  messageId = Number(message!.id);
  tokens.admin = await t.adminToken();
  tokens.member = (await t.createUser({ queueIds: [queue] })).token;
  tokens.outsider = (await t.createUser({ queueIds: [other] })).token;
  routes = t.app.http.routeTable.filter((r) => r.method !== 'HEAD');
  // Routes without an expected line fail the first test; the others check the rest.
  routes.forEach((r) => EXPECTED_ROUTE_ACCESS[key(r)] ?? unlisted.push(r));
});

const key = (r: { method: string; url: string }) => `${r.method} ${r.url}`;

/** The path of a route with its parameters filled: the fixture ticket for scoped routes, missing ids otherwise. */
function pathOf(route: RouteEntry, expected: ExpectedRoute, target: 'fixture' | 'missing'): string {
  return route.url.replace(/:(\w+)/g, (_m, name: string) => {
    if (target === 'fixture' && expected.scope === 'ticket' && (name === 'id' || name === 'ticketId')) return String(ticketId);
    if (target === 'fixture' && expected.scope === 'message' && (name === 'id' || name === 'messageId')) return String(messageId);
    if (name === 'key') return 'noSuchSetting';
    if (name === 'name') return 'nothing.jpg';
    return String(MISSING_ID);
  });
}

async function send(route: RouteEntry, url: string, identity: Identity): Promise<{ status: number; body: any }> {
  const token = identity === 'anonymous' ? undefined : tokens[identity];
  const res = await t.app.http.inject({
    method: route.method as 'GET',
    url,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    payload: route.method === 'GET' || route.method === 'DELETE' ? undefined : {},
  });
  const json = String(res.headers['content-type'] ?? '').includes('json');
  return { status: res.statusCode, body: json && res.body ? JSON.parse(res.body) : res.body };
}

describe('route table', () => {
  it('has an expected access and tool for every route, and every expected /api route exists', () => {
    const actual = Object.fromEntries(routes.map((r) => [key(r), { access: r.access, tool: r.tool }]));
    const missing = routes.filter((r) => !EXPECTED_ROUTE_ACCESS[key(r)]).map(key);
    expect(missing, 'routes without a line in route-access.expected.ts').toEqual([]);
    for (const [name, expected] of Object.entries(EXPECTED_ROUTE_ACCESS)) {
      if (!name.includes(' /api')) continue; // the web app's routes exist only when it is built
      expect(actual[name], name).toEqual({ access: expected.access, tool: expected.tool });
    }
  });

  it('answers 401 to anonymous callers of every non-public route, in every spelling of the URL, and never 5xx', async () => {
    const wrong: string[] = [];
    for (const route of routes.filter((r) => listed(r) && r.url.startsWith('/api'))) {
      const expected = EXPECTED_ROUTE_ACCESS[key(route)]!;
      for (const [spelling, spell] of SPELLINGS) {
        const res = await send(route, spell(pathOf(route, expected, 'fixture')), 'anonymous');
        // A public route checks its own proof (credentials, refresh cookie, URL signature): no 5xx is all we ask.
        const ok =
          expected.access === 'public'
            ? res.status < 500
            : res.status === 401 && res.body?.error === (expected.access === 'apiToken' ? 'ERR_INVALID_API_TOKEN' : 'ERR_SESSION_EXPIRED');
        if (!ok) wrong.push(`${key(route)} via ${spelling}: ${res.status} ${JSON.stringify(res.body)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('refuses admin routes to users (403 ERR_NO_PERMISSION) and lets them through the rest, in every spelling', async () => {
    const wrong: string[] = [];
    for (const identity of ['outsider', 'member'] as const) {
      for (const route of routes.filter((r) => listed(r) && r.url.startsWith('/api') && r.access !== 'public')) {
        const expected = EXPECTED_ROUTE_ACCESS[key(route)]!;
        for (const [spelling, spell] of SPELLINGS) {
          // Missing ids: the guard's answer without acting on any stored row.
          const res = await send(route, spell(pathOf(route, expected, 'missing')), identity);
          const refused = res.status === 403 && res.body?.error === 'ERR_NO_PERMISSION';
          const ok =
            res.status < 500 &&
            res.status !== 401 &&
            (expected.access === 'admin' || expected.access === 'apiToken' || expected.user === 'forbidden'
              ? refused
              : !refused && res.body?.error !== 'ERR_SESSION_EXPIRED');
          if (!ok) wrong.push(`${identity} ${key(route)} via ${spelling}: ${res.status} ${JSON.stringify(res.body)}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('refuses every tool route to users when attendantTools opens no tool, and no other route; admins pass (issue 32)', async () => {
    const put = (value: string) => t.call('PUT', '/api/settings/attendantTools', { token: tokens.admin, body: { value } });
    expect((await put('')).status).toBe(200);
    const wrong: string[] = [];
    try {
      for (const route of routes.filter((r) => listed(r) && r.url.startsWith('/api') && r.access === 'user')) {
        const expected = EXPECTED_ROUTE_ACCESS[key(route)]!;
        for (const [spelling, spell] of [SPELLINGS[0]!, SPELLINGS[3]!]) {
          const url = spell(pathOf(route, expected, 'missing'));
          const res = await send(route, url, 'member');
          const refused = res.status === 403 && res.body?.error === 'ERR_NO_PERMISSION';
          const ok = res.status < 500 && (expected.tool || expected.user === 'forbidden' ? refused : !refused);
          if (!ok) wrong.push(`member ${key(route)} via ${spelling}: ${res.status} ${JSON.stringify(res.body)}`);
          if (!expected.tool) continue;
          const admin = await send(route, url, 'admin');
          if (admin.status >= 500 || admin.status === 401 || admin.status === 403) wrong.push(`admin ${key(route)} via ${spelling}: ${admin.status}`);
        }
      }
    } finally {
      expect((await put(ATTENDANT_TOOLS.join(','))).status).toBe(200);
    }
    expect(wrong).toEqual([]);
  });

  it("hides a ticket, its messages and its actions from a user outside the ticket's queue, and changes nothing", async () => {
    const before = await queryRows(t, sql`select status, user_id, queue_id, updated_at from tickets where id = ${ticketId}`);
    const messagesBefore = await queryRows(t, sql`select count(*)::int as n from messages where ticket_id = ${ticketId} and is_deleted = false`);
    const wrong: string[] = [];
    for (const route of routes.filter((r) => EXPECTED_ROUTE_ACCESS[key(r)]?.scope)) {
      const expected = EXPECTED_ROUTE_ACCESS[key(route)]!;
      for (const [spelling, spell] of SPELLINGS) {
        const res = await send(route, spell(pathOf(route, expected, 'fixture')), 'outsider');
        if (!((res.status === 403 && res.body?.error === 'ERR_NO_PERMISSION') || res.status === 404)) {
          wrong.push(`${key(route)} via ${spelling}: ${res.status} ${JSON.stringify(res.body)}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(await queryRows(t, sql`select status, user_id, queue_id, updated_at from tickets where id = ${ticketId}`)).toEqual(before);
    expect(await queryRows(t, sql`select count(*)::int as n from messages where ticket_id = ${ticketId} and is_deleted = false`)).toEqual(
      messagesBefore,
    );
  });

  it("shows the ticket and its messages to a user of the ticket's queue, in every spelling", async () => {
    for (const [spelling, spell] of SPELLINGS) {
      const ticket = await t.call('GET', spell(`/api/tickets/${ticketId}`), { token: tokens.member });
      expect(ticket.status, spelling).toBe(200);
      const messages = await t.call('GET', spell(`/api/messages/${ticketId}`), { token: tokens.member });
      expect(messages.status, spelling).toBe(200);
      expect(messages.body.messages.length).toBeGreaterThan(0);
    }
  });

  it('lets admins through every route (the handler answers, with 404 for missing ids), and never 5xx', async () => {
    const wrong: string[] = [];
    for (const route of routes.filter((r) => listed(r) && r.url.startsWith('/api'))) {
      const expected = EXPECTED_ROUTE_ACCESS[key(route)]!;
      const res = await send(route, SPELLINGS[2]![1](pathOf(route, expected, 'missing')), 'admin');
      const refused = res.status === 401 || res.status === 403;
      if (res.status >= 500 || (refused && expected.access !== 'public')) wrong.push(`${key(route)}: ${res.status} ${JSON.stringify(res.body)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('answers HEAD like GET: 401 without a token on every non-public route', async () => {
    const heads = t.app.http.routeTable.filter((r) => r.method === 'HEAD' && r.url.startsWith('/api') && EXPECTED_ROUTE_ACCESS[`GET ${r.url}`]);
    for (const route of heads) {
      const expected = EXPECTED_ROUTE_ACCESS[`GET ${route.url}`]!;
      const res = await t.app.http.inject({ method: 'HEAD', url: `/${pathOf(route, expected, 'missing')}` });
      if (expected.access !== 'public') expect(res.statusCode, route.url).toBe(401);
    }
  });
});
