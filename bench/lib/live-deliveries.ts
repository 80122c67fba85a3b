/**
 * What bench/live's sockets received against who may see each message (issue 35 item 5): every inbound body is
 * tagged with its number; after the run each stored message's ticket is read from the database and the server's
 * rule (live-team.ts maySee) says which members should have had its `appMessage` event.
 */
import { sql } from 'drizzle-orm';
import { rowsOf, type Database } from '../../apps/server/src/db/client.js';
import { maySee, type AppMessageEvent, type TeamMember } from './live-team.js';

/** Each inbound message's id is `live-bench-N` and its body starts `live-bench N `. */
export const TAG = 'live-bench';
const TAGGED = /^live-bench (\d+) /;

/** What the sockets received: per tagged message, how many times each member got it, and when. */
export class Deliveries {
  readonly sentAt: number[] = [];
  readonly counts = new Map<number, Uint8Array>();
  readonly latencies: number[] = [];
  /** Each message's ticket as its first event carried it. */
  readonly ticketAtEvent = new Map<number, { queueId: number | null; userId: number | null }>();

  constructor(private readonly members: number) {}

  record(member: number, e: AppMessageEvent): void {
    const match = TAGGED.exec(e.message.body);
    if (!match) return;
    const n = Number(match[1]);
    const at = performance.now();
    let counts = this.counts.get(n);
    if (!counts) {
      counts = new Uint8Array(this.members);
      this.counts.set(n, counts);
      this.ticketAtEvent.set(n, { queueId: e.ticket.queueId, userId: e.ticket.userId });
    }
    counts[member] = Math.min(255, counts[member]! + 1);
    this.latencies.push(at - this.sentAt[n]!);
  }
}

export interface StoredMessage {
  n: number;
  queueId: number | null;
  userId: number | null;
}

export async function storedMessages(db: Database, whatsappIds: number[]): Promise<StoredMessage[]> {
  return rowsOf<StoredMessage>(
    await db.execute(sql`
      select substr(m.channel_message_id, ${TAG.length + 2})::int as n, t.queue_id as "queueId", t.user_id as "userId"
      from messages m join tickets t on t.id = m.ticket_id
      where m.whatsapp_id = any(${`{${whatsappIds.join(',')}}`}::int[]) and m.channel_message_id like ${`${TAG}-%`}`),
  );
}

/** Expected (member may see it), delivered, missed and wrong deliveries of the stored messages. */
export function tally(stored: StoredMessage[], team: TeamMember[], deliveries: Deliveries) {
  let expected = 0;
  let delivered = 0;
  let wrong = 0;
  let duplicated = 0;
  let moved = 0;
  for (const message of stored) {
    const counts = deliveries.counts.get(message.n);
    const atEvent = deliveries.ticketAtEvent.get(message.n);
    if (atEvent && (atEvent.queueId !== message.queueId || atEvent.userId !== message.userId)) moved += 1;
    team.forEach((member, i) => {
      const got = counts?.[i] ?? 0;
      if (got > 1) duplicated += got - 1;
      if (maySee(member, message)) {
        expected += 1;
        if (got > 0) delivered += 1;
      } else if (got > 0) wrong += 1;
    });
  }
  return { expected, delivered, missed: expected - delivered, wrong, duplicated, moved };
}
