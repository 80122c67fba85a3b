import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { QueueDto, UserDto, WhatsappDto } from '@wadesk/contracts';
import { sql } from 'drizzle-orm';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../app.js';
import { openDatabase, rowsOf } from '../../db/client.js';
import { phoneNumbers } from '../../test/desk-factories.js';
import { eventually } from '../../test/session-helpers.js';
import { ADMIN, createTestApp } from '../../test/test-app.js';
import { databaseUrl, runStatement } from '../../test/throwaway-database.js';

const baseUrl = process.env.DATABASE_URL;

const PROCESSES = 3;
const TICKETS = 200;
const ATTENDANTS = 8;
/** Each attendant's limit while traffic arrives (capacity 80 of 200), then raised so that every ticket just fits. */
const FIRST_LIMIT = 10;
const SECOND_LIMIT = TICKETS / ATTENDANTS;

interface Server {
  app: App;
  url: string;
  token: string;
}

async function call<T>(server: Server, method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await server.app.http.inject({ method, url, payload: body as never, headers: { authorization: `Bearer ${server.token}` } });
  return { status: res.statusCode, body: (res.body ? JSON.parse(res.body) : undefined) as T };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Three server processes (app instances, each with its own pool, job queue, connection leases, Socket.IO server and
 * PostgreSQL adapter, as `npm start` builds them) on one PostgreSQL database, a queue with automatic assignment, 200
 * contacts writing at once to three connections (one run by each process), and eight attendants whose sockets connect
 * to and disconnect from random processes meanwhile (decision 0040).
 */
describe.skipIf(!baseUrl)('automatic assignment with three server processes (issue 36 §4)', () => {
  it('assigns every ticket once, to one attendant, nobody over their limit, all of them once capacity allows', { timeout: 90_000 }, async () => {
    const name = `wadesk_test_aa_${randomBytes(5).toString('hex')}`;
    await runStatement(baseUrl!, `create database ${name}`);
    const url = databaseUrl(baseUrl!, name);
    const servers: Server[] = [];
    const sockets = new Set<Socket>();
    const handles: Awaited<ReturnType<typeof openDatabase>>[] = [];
    const open = async () => {
      const handle = await openDatabase({ databaseUrl: url, poolSize: 6 });
      handles.push(handle);
      return handle;
    };
    try {
      // One after the other: the first migrates the database.
      const first = await createTestApp({ nodeId: 'process-1' }, { database: await open(), tempDataDir: true });
      for (let i = 0; i < PROCESSES; i += 1) {
        const app =
          i === 0
            ? first.app
            : await buildApp({ ...first.app.config, nodeId: `process-${i + 1}` }, { database: await open(), logger: false });
        await app.http.listen({ port: 0, host: '127.0.0.1' });
        const login = await app.http.inject({ method: 'POST', url: '/api/auth/login', payload: ADMIN });
        servers.push({ app, url: `http://127.0.0.1:${(app.http.server.address() as AddressInfo).port}`, token: (JSON.parse(login.body) as { token: string }).token });
      }
      const [one] = servers as [Server, ...Server[]];

      const queue = (await call<QueueDto>(one, 'POST', '/api/queue', { name: 'Auto', color: '#1273DE', autoAssign: true })).body;
      expect(queue.autoAssign).toBe(true);

      // One connection per process, made and paired there: each process runs one and stores its contacts' messages.
      const connections: { server: Server; connection: WhatsappDto }[] = [];
      for (const [i, server] of servers.entries()) {
        const created = await call<WhatsappDto>(server, 'POST', '/api/whatsapp', { name: `Auto ${i + 1}`, channel: 'simulator', queueIds: [queue.id] });
        expect(created.status).toBe(201);
        const id = created.body.id;
        await eventually(async () => server.app.services.sessions.status(id) === 'qrcode', 10_000, `connection ${id} qrcode`);
        expect((await call(server, 'POST', `/api/simulator/${id}/scan`)).status).toBeLessThan(300);
        await eventually(async () => server.app.services.sessions.status(id) === 'CONNECTED', 10_000, `connection ${id} connected`);
        connections.push({ server, connection: created.body });
      }

      const attendants: { user: UserDto; token: string }[] = [];
      for (let i = 0; i < ATTENDANTS; i += 1) {
        const password = 'attendant-pass-1';
        const created = await call<UserDto>(one, 'POST', '/api/users', {
          name: `Attendant ${i + 1}`,
          email: `attendant${i + 1}@auto.local`,
          password,
          queueIds: [queue.id],
          maxOpenTickets: FIRST_LIMIT,
        });
        expect(created.status).toBe(201);
        const login = await one.app.http.inject({ method: 'POST', url: '/api/auth/login', payload: { email: created.body.email, password } });
        attendants.push({ user: created.body, token: (JSON.parse(login.body) as { token: string }).token });
      }

      /** Each attendant's socket, if connected, and the process it is on. */
      const online = new Map<number, Socket>();
      /** Attendants whose socket is connecting: left alone meanwhile. */
      const connecting = new Set<number>();
      const connect = async (who: number, server: Server) => {
        connecting.add(who);
        const socket = connectSocket(server.url, { path: '/socket.io', auth: { token: attendants[who]!.token }, transports: ['websocket'], reconnection: false });
        sockets.add(socket);
        await new Promise<void>((resolve, reject) => {
          socket.once('connect', () => resolve());
          socket.once('connect_error', reject);
        }).finally(() => connecting.delete(who));
        online.set(who, socket);
      };
      const disconnect = (who: number) => {
        online.get(who)?.disconnect();
        online.delete(who);
      };

      // 200 contacts write at once, each to one of the connections, through the process that runs it.
      const next = phoneNumbers(74_000_000, 7);
      const started = Date.now();
      const inbound = Promise.all(
        Array.from({ length: TICKETS }, async (_, i) => {
          const { server, connection } = connections[i % connections.length]!;
          const res = await call<{ id: string }>(server, 'POST', `/api/simulator/${connection.id}/inbound`, { from: next(), name: `Contact ${i + 1}`, body: `Olá ${i + 1}` });
          expect(res.status).toBe(201);
        }),
      );
      // Meanwhile attendants connect and disconnect, on random processes: three at a time, each staying a moment.
      let churning = true;
      let churns = 0;
      const random = (n: number) => Math.floor(Math.random() * n);
      const churn = Promise.all(
        Array.from({ length: 3 }, async () => {
          while (churning) {
            const who = random(ATTENDANTS);
            if (connecting.has(who)) await sleep(5);
            else if (online.has(who)) disconnect(who);
            else await connect(who, servers[random(PROCESSES)]!);
            churns += 1;
            await sleep(50 + random(250));
          }
        }),
      );
      await inbound;
      await sleep(1500);
      churning = false;
      await churn;
      const inboundMs = Date.now() - started;

      const db = one.app.database.db;
      const facts = async () => {
        await Promise.all(servers.map((s) => s.app.services.autoAssign.idle()));
        const tickets = rowsOf<{ id: number; status: string; user_id: number | null; queue_id: number | null }>(
          await db.execute(sql`select id, status, user_id, queue_id from tickets`),
        );
        const assigned = rowsOf<{ ticket_id: number; to_user: number }>(
          await db.execute(sql`select ticket_id, (data->'toUser'->>'id')::int as to_user from ticket_events where kind = 'assigned'`),
        );
        return { tickets, assigned };
      };
      /** What must hold at any moment: each ticket assigned at most once, and to whom holds it; nobody over the limit. */
      const checkInvariants = (f: Awaited<ReturnType<typeof facts>>, limit: number) => {
        const perTicket = new Map<number, number[]>();
        for (const a of f.assigned) perTicket.set(a.ticket_id, [...(perTicket.get(a.ticket_id) ?? []), a.to_user]);
        const twice = [...perTicket].filter(([, users]) => users.length > 1);
        expect(twice).toEqual([]);
        for (const ticket of f.tickets) {
          const to = perTicket.get(ticket.id);
          if (to) expect(ticket).toMatchObject({ status: 'open', user_id: to[0] });
          else expect(ticket).toMatchObject({ status: 'pending', user_id: null });
        }
        const openOf = new Map<number, number>();
        for (const ticket of f.tickets) if (ticket.status === 'open') openOf.set(ticket.user_id!, (openOf.get(ticket.user_id!) ?? 0) + 1);
        expect(Math.max(0, ...openOf.values())).toBeLessThanOrEqual(limit);
        return openOf;
      };

      const during = await facts();
      expect(during.tickets).toHaveLength(TICKETS);
      expect(during.tickets.every((ticket) => ticket.queue_id === queue.id)).toBe(true);
      const assignedDuring = during.assigned.length;
      const assigneesDuring = new Set(during.assigned.map((a) => a.to_user)).size;
      // Whoever is online at the end has had their slots filled (200 tickets wait for 80 slots).
      const openDuring = checkInvariants(during, FIRST_LIMIT);
      for (const who of online.keys()) expect(openDuring.get(attendants[who]!.user.id) ?? 0).toBe(FIRST_LIMIT);

      // Everyone online (each on some process) and a higher limit: every ticket finds its attendant.
      for (let who = 0; who < ATTENDANTS; who += 1) if (!online.has(who)) await connect(who, servers[who % PROCESSES]!);
      for (const [i, { user }] of attendants.entries()) {
        const res = await call<UserDto>(servers[i % PROCESSES]!, 'PUT', `/api/users/${user.id}`, { maxOpenTickets: SECOND_LIMIT });
        expect(res.status).toBe(200);
      }
      const after = await eventually(async () => {
        const f = await facts();
        return f.assigned.length === TICKETS ? f : null;
      }, 30_000, 'every ticket assigned');
      const openAfter = checkInvariants(after, SECOND_LIMIT);
      expect(after.tickets.every((ticket) => ticket.status === 'open')).toBe(true);
      // Capacity exactly met (the limits rise one user at a time, and whoever's rises first fills up to it): 25 each.
      expect([...openAfter.values()].sort()).toEqual(Array.from({ length: ATTENDANTS }, () => TICKETS / ATTENDANTS));
      console.log(
        `auto-assign, ${PROCESSES} processes: ${TICKETS} inbound in ${inboundMs} ms with ${churns} socket connects/disconnects; ` +
          `${assignedDuring} assigned meanwhile to ${assigneesDuring} attendants (limit ${FIRST_LIMIT}), all ${TICKETS} once the limit rose; none twice, nobody over`,
      );
    } finally {
      for (const socket of sockets) socket.disconnect();
      for (const server of [...servers].reverse()) await server.app.close();
      for (const handle of handles) await handle.close();
      await runStatement(baseUrl!, `drop database if exists ${name} with (force)`);
    }
  });
});
