/**
 * A team of attendants for bench/live (issue 35 item 5): written straight into a copy of the seeded database (with
 * the seed's password hash, so the seed's password signs them in), each in none, one or two of the seed's queues;
 * then signed in and connected as the web client connects them (tickets-live.ts: `joinNotification` and the three
 * status channels), spread over the server processes. Each socket counts the tagged `appMessage` events it receives.
 */
import { sql } from 'drizzle-orm';
import { io, type Socket } from 'socket.io-client';
import type { Database } from '../../apps/server/src/db/client.js';
import { rowsOf } from '../../apps/server/src/db/client.js';
import { signIn, type ServerProcess } from './server-process.js';
import { SEED_PASSWORD } from '../seed/data-set.js';

/** The seed's four queues (bench/seed/data-set.ts). */
export const QUEUE_IDS = [1, 2, 3, 4];

export interface TeamMember {
  userId: number;
  email: string;
  admin: boolean;
  /** The queues the user serves (empty for the admin, who sees every ticket). */
  queueIds: ReadonlySet<number>;
}

/**
 * The queues of live attendant `i`: a tenth in none; the others in queue 1 + i % 4, and a third of them in the next
 * one as well. About 60 attendants a queue.
 */
export function queuesOfAttendant(i: number): number[] {
  if (i % 10 === 9) return [];
  const first = QUEUE_IDS[i % 4]!;
  return i % 3 === 0 ? [first, QUEUE_IDS[(i + 1) % 4]!] : [first];
}

/** Inserts `count` attendants (live1..N@bench.local) and their queues; gives the team, the seed's admin first. */
export async function insertTeam(db: Database, count: number): Promise<TeamMember[]> {
  await db.execute(sql`
    insert into users (name, email, password_hash, profile)
    select 'Live attendant ' || g, 'live' || g || '@bench.local', (select password_hash from users where email = 'admin@bench.local'), 'user'
    from generate_series(1, ${count}::int) g`);
  const rows = rowsOf<{ id: number; email: string }>(
    await db.execute(sql`select id, email from users where email like 'live%@bench.local' order by id`),
  );
  const pairs = rows.flatMap((row, i) => queuesOfAttendant(i).map((queueId) => [row.id, queueId]));
  await db.execute(sql`
    insert into user_queues (user_id, queue_id)
    select (p->>0)::int, (p->>1)::int from json_array_elements(${JSON.stringify(pairs)}::json) as p`);
  const admin = rowsOf<{ id: number }>(await db.execute(sql`select id from users where email = 'admin@bench.local'`))[0]!;
  return [
    { userId: admin.id, email: 'admin@bench.local', admin: true, queueIds: new Set() },
    ...rows.map((row, i) => ({ userId: row.id, email: row.email, admin: false, queueIds: new Set(queuesOfAttendant(i)) })),
  ];
}

/** Whether the member may see a ticket: the server's rule (ticket-access.ts canSeeTicket), written again here. */
export function maySee(member: TeamMember, ticket: { queueId: number | null; userId: number | null }): boolean {
  if (member.admin) return true;
  if (ticket.userId === member.userId) return true;
  if (ticket.queueId === null) return true;
  return member.queueIds.has(ticket.queueId);
}

/** Runs `work` on every item, at most `limit` at a time. */
export async function eachLimited<T>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        await work(items[i]!, i);
      }
    }),
  );
}

export interface TeamSockets {
  /** Member i's socket is on process i % N. */
  sockets: Socket[];
  close(): void;
}

/**
 * Signs every member in and connects their socket to process i % N, joined as the web client joins. Sign-ins go
 * ten at a time: a burst of concurrent attempts from one address counts against its failed-login window until each
 * succeeds (login-limits.ts). `onMessage` hears every `appMessage` create from a contact (member index, event).
 */
export async function connectTeam(
  team: TeamMember[],
  servers: ServerProcess[],
  onMessage: (member: number, e: AppMessageEvent) => void,
): Promise<TeamSockets> {
  const sockets: Socket[] = new Array<Socket>(team.length);
  const close = () => {
    for (const socket of sockets) socket?.close();
  };
  try {
    await eachLimited(team, 10, async (member, i) => {
      const server = servers[i % servers.length]!;
      const token = await signIn(server.baseUrl, member.email, SEED_PASSWORD);
      const socket = io(server.baseUrl, { path: '/socket.io', auth: { token }, transports: ['websocket'], reconnection: false, forceNew: true });
      sockets[i] = socket;
      socket.on('appMessage', (e: AppMessageEvent) => {
        if (e.action === 'create' && !e.message.fromMe) onMessage(i, e);
      });
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve());
        socket.once('connect_error', reject);
      });
      const joined = (event: 'joinNotification' | 'joinTickets', ...args: string[]) =>
        new Promise<void>((resolve, reject) => {
          socket.emit(event, ...args, (result: { ok: boolean; error?: string }) =>
            result.ok ? resolve() : reject(new Error(`${member.email}: ${event} ${args.join(' ')}: ${result.error}`)),
          );
        });
      await joined('joinNotification');
      for (const status of ['open', 'pending', 'closed']) await joined('joinTickets', status);
    });
  } catch (err) {
    close();
    throw err;
  }
  return { sockets, close };
}

/** What bench/live reads of an `appMessage` event. */
export interface AppMessageEvent {
  action: 'create' | 'update';
  message: { body: string; fromMe: boolean };
  ticket: { id: number; queueId: number | null; userId: number | null };
}
