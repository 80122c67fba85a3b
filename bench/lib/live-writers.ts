/**
 * Who writes in bench/live (issue 35 item 5): three simulator connections and, for each, the contacts that write to
 * it. Some of the seed's active tickets move to the live connections (open ones each given to a team member, who may
 * or may not serve its queue; pending ones with a queue; on A pending ones without), and new numbers write too.
 */
import { sql } from 'drizzle-orm';
import { rowsOf, type Database } from '../../apps/server/src/db/client.js';
import { TAG } from './live-deliveries.js';
import type { TeamMember } from './live-team.js';

export type Sender = 'open' | 'pending with a queue' | 'pending without a queue' | 'new contact';
export const SENDERS: Sender[] = ['open', 'pending with a queue', 'pending without a queue', 'new contact'];

/** The three connections, and how many contacts of each kind write to each. */
export const CONNECTIONS: { name: string; queueIds: number[]; senders: Record<Sender, number> }[] = [
  { name: 'Live A', queueIds: [1, 2, 3, 4], senders: { open: 160, 'pending with a queue': 80, 'pending without a queue': 80, 'new contact': 80 } },
  { name: 'Live B', queueIds: [2], senders: { open: 200, 'pending with a queue': 100, 'pending without a queue': 0, 'new contact': 100 } },
  { name: 'Live C', queueIds: [3], senders: { open: 200, 'pending with a queue': 100, 'pending without a queue': 0, 'new contact': 100 } },
];

export interface Writer {
  kind: Sender;
  whatsappId: number;
  number: string;
}

/** A fixed order that mixes a list (the same every run): by a multiplicative hash of the position. */
function mixed<T>(items: T[]): T[] {
  return items.map((item, i) => ({ item, key: (i * 2654435761) % 4294967296 })).sort((a, b) => a.key - b.key).map((x) => x.item);
}

/**
 * Moves some of the seed's active tickets of its first connection to the live ones (open ones to a team member),
 * and gives every live connection's writers: those tickets' contacts and new numbers.
 */
export async function prepareWriters(db: Database, whatsappIds: number[], team: TeamMember[]): Promise<Writer[][]> {
  const attendants = team.filter((m) => !m.admin);
  const wanted = (kind: Sender) => CONNECTIONS.reduce((sum, c) => sum + c.senders[kind], 0);
  // Contacts whose stored number is their WhatsApp id (area codes up to 30 keep the ninth digit, whatsapp-number.ts):
  // a message from another would be a new contact's.
  const pick = async (kind: Sender, where: ReturnType<typeof sql>) =>
    rowsOf<{ id: number; number: string }>(
      await db.execute(sql`
        select t.id, c.number from tickets t join contacts c on c.id = t.contact_id
        where t.whatsapp_id = 1 and ${where} and length(c.number) = 13 and substr(c.number, 3, 2)::int between 11 and 30
        order by md5(t.id::text) limit ${wanted(kind)}`),
    );
  const pools: Record<Sender, { id: number; number: string }[]> = {
    open: await pick('open', sql`t.status = 'open' and t.queue_id is not null`),
    'pending with a queue': await pick('pending with a queue', sql`t.status = 'pending' and t.queue_id is not null`),
    'pending without a queue': await pick('pending without a queue', sql`t.status = 'pending' and t.queue_id is null`),
    'new contact': [],
  };
  const moves: [ticketId: number, whatsappId: number, userId: number | null][] = [];
  const writers = CONNECTIONS.map((connection, c) =>
    SENDERS.flatMap((kind) =>
      Array.from({ length: connection.senders[kind] }, (_, k): Writer => {
        const whatsappId = whatsappIds[c]!;
        // Area code 10, which the seed does not use: numbers nobody has written from.
        if (kind === 'new contact') return { kind, whatsappId, number: `55109${String(c * 100_000 + k).padStart(8, '0')}` };
        const ticket = pools[kind].pop();
        if (!ticket) throw new Error(`the seed has too few ${kind} tickets`);
        const owner = kind === 'open' && attendants.length > 0 ? attendants[ticket.id % attendants.length]!.userId : null;
        moves.push([ticket.id, whatsappId, owner]);
        return { kind, whatsappId, number: ticket.number };
      }),
    ),
  );
  await db.execute(sql`
    update tickets t set whatsapp_id = (m->>1)::int, user_id = coalesce((m->>2)::int, t.user_id)
    from json_array_elements(${JSON.stringify(moves)}::json) as m where t.id = (m->>0)::int`);
  return writers.map(mixed);
}

/** Each process's writers: those of the connections it runs, taken in turn so the mix is even over time. */
export function writersByProcess(writers: Writer[][], processes: number): Writer[][] {
  return Array.from({ length: processes }, (_, p) => {
    const own = writers.filter((_, c) => c % processes === p);
    const longest = Math.max(...own.map((w) => w.length));
    return Array.from({ length: longest }, (_, i) => own.flatMap((w) => (i < w.length ? [w[i]!] : []))).flat();
  });
}

/** The kind of writer of each stored tagged message, from its contact's number and connection. */
export async function storedKinds(db: Database, whatsappIds: number[], writers: Writer[]): Promise<Sender[]> {
  const kindOf = new Map(writers.map((w) => [`${w.whatsappId} ${w.number}`, w.kind]));
  const rows = rowsOf<{ whatsappId: number; number: string }>(
    await db.execute(sql`
      select m.whatsapp_id as "whatsappId", c.number from messages m join contacts c on c.id = m.contact_id
      where m.whatsapp_id = any(${`{${whatsappIds.join(',')}}`}::int[]) and m.channel_message_id like ${`${TAG}-%`}`),
  );
  return rows.flatMap((r) => {
    const kind = kindOf.get(`${r.whatsappId} ${r.number}`);
    return kind ? [kind] : [];
  });
}
