import type { TicketDto } from '@wadesk/contracts';
import type { Database } from '../../db/client.js';
import type { DomainEvents } from '../../events/domain-events.js';
import { TicketEventsRepository, type TicketEventWrite } from '../tickets/ticket-events.repository.js';
import { TicketsRepository } from '../tickets/tickets.repository.js';
import { AutoAssignRepository } from './auto-assign.repository.js';

/** Which of these users are online (a connected socket on any process): realtime/presence.ts. */
export type Presence = (userIds: number[]) => Promise<ReadonlySet<number>>;

export interface AutoAssignOptions {
  /** "Now": the assignment's time (users.last_assigned_at, the ticket's update). */
  clock?: () => Date;
  /** A run this often anyway, should a kick have been missed (a process that died mid-run): 30 s by default; 0 = never. */
  sweepMs?: number;
  log: { warn(obj: object, msg?: string): void };
}

/** Tickets locked and handed out per transaction. */
const BATCH = 50;
const DEFAULT_SWEEP_MS = 30_000;
/** A run again this soon after one that could not hear from every process. */
const RETRY_MS = 2_000;

/**
 * Automatic assignment (issue 36 §4, decision 0040). A pending ticket nobody holds, in a queue with `autoAssign` on,
 * goes to the queue's online user with the fewest open tickets (ties: longest since their last assignment) below their
 * `maxOpenTickets`; it becomes open for them, with an `assigned` line in the chat and a `ticketAssigned` notice.
 *
 * A run is kicked by what may make a ticket assignable: a ticket waiting in a queue (inbound, the queue menu, a transfer
 * to a queue), a ticket leaving someone's hands (a slot freed), a socket connecting, a queue or user saved. Kicks
 * arriving during a run make one more run after it. Runs of every process take turns on one advisory lock in their
 * transaction, and lock the tickets they hand out (`for update skip locked`) and the chosen user's row: no ticket is
 * assigned twice, no user passes their limit.
 */
export class AutoAssignService {
  private presence: Presence = async () => new Set();
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private sweep: NodeJS.Timeout | undefined;
  private retry: NodeJS.Timeout | undefined;
  private readonly now: () => Date;

  constructor(
    private readonly db: Database,
    private readonly events: DomainEvents,
    private readonly options: AutoAssignOptions,
  ) {
    this.now = options.clock ?? (() => new Date());
  }

  /** How presence is known: set once the socket server runs (app.ts). */
  usePresence(presence: Presence): void {
    this.presence = presence;
  }

  /** Listens for what may make a ticket assignable, and sweeps now and then. */
  start(): void {
    this.events.on('ticket.updated', ({ ticket, previous }) => {
      const waiting = ticket.status === 'pending' && ticket.userId === null && ticket.queueId !== null;
      const freed = previous?.status === 'open' && previous.userId !== null && (ticket.status !== 'open' || ticket.userId !== previous.userId);
      if (waiting || freed) this.kick();
    });
    this.events.on('tickets.changed', () => this.kick());
    this.events.on('ticket.deleted', ({ ticket }) => {
      if (ticket.status === 'open') this.kick();
    });
    this.events.on('queue.saved', ({ queue }) => {
      if (queue.autoAssign) this.kick();
    });
    this.events.on('user.saved', () => this.kick());
    const sweepMs = this.options.sweepMs ?? DEFAULT_SWEEP_MS;
    if (sweepMs > 0) {
      this.sweep = setInterval(() => this.kick(), sweepMs);
      this.sweep.unref();
    }
  }

  /** Asks for a run: now, or right after the one under way. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        try {
          await this.run();
        } catch (err) {
          this.options.log.warn({ err }, 'automatic assignment: a run failed; the next kick or sweep tries again');
        }
      } while (this.again && !this.stopped);
    })().finally(() => {
      this.running = null;
    });
  }

  /** A run in a moment (presence was partial: a process did not answer in time). */
  kickSoon(): void {
    if (this.stopped || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.kick();
    }, RETRY_MS);
    this.retry.unref();
  }

  /** Resolves once no run is under way or asked for (tests). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** No more runs; waits for the one under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.sweep);
    clearTimeout(this.retry);
    await this.idle();
  }

  /** One pass over the waiting tickets: gives each one it can to someone. Resolves with how many it assigned. */
  async run(): Promise<number> {
    const candidates = await new AutoAssignRepository(this.db).candidateUserIds();
    if (candidates.length === 0) return 0;
    const online = [...(await this.presence(candidates))];
    if (online.length === 0) return 0;
    let afterId = 0;
    let total = 0;
    for (;;) {
      const base = this.now().getTime();
      const batch = await this.db.transaction(async (tx) => {
        const repo = new AutoAssignRepository(tx);
        await repo.lockRun();
        const pending = await repo.lockPending(afterId, BATCH);
        const assigned: TicketEventWrite[] = [];
        for (const ticket of pending) {
          const assignee = await repo.chooseAssignee(ticket.queueId, online);
          // One millisecond apart, so that "longest since the last assignment" orders those of one batch too.
          if (assignee && (await repo.assign(ticket.id, assignee.id, new Date(base + assigned.length)))) {
            assigned.push({ ticketId: ticket.id, kind: 'assigned', actorUserId: null, toUser: assignee });
          }
        }
        await new TicketEventsRepository(tx).insert(assigned);
        return { assigned, lastId: pending.at(-1)?.id ?? afterId, full: pending.length === BATCH };
      });
      total += batch.assigned.length;
      await this.announce(batch.assigned);
      if (!batch.full) break;
      afterId = batch.lastId;
    }
    return total;
  }

  private async announce(assigned: TicketEventWrite[]): Promise<void> {
    if (assigned.length === 0) return;
    const tickets = new Map<number, TicketDto>((await new TicketsRepository(this.db).findDtos(assigned.map((a) => a.ticketId))).map((t) => [t.id, t]));
    for (const { ticketId, toUser } of assigned) {
      const ticket = tickets.get(ticketId);
      if (!ticket || !toUser) continue;
      this.events.emit('ticket.updated', { ticket, previous: { queueId: ticket.queueId, userId: null, status: 'pending' } });
      this.events.emit('ticket.assigned', { ticket, toUserId: toUser.id });
    }
  }
}
