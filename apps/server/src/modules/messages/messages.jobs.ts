import { z } from 'zod';
import { WAKE_GRID_MS, type JobDefinition, type JobQueue, type SendOptions } from '../../jobs/job-queue.js';
import { otherProcessRetryMs } from '../../jobs/other-process.js';
import { onEveryProcess, type RealtimeServer } from '../../realtime/socket-server.js';
import { ROUTED_ACTION_GIVE_UP_MS, RoutedActionSchema, RoutedMediaSchema, type MessagesService, type RoutedActionOutcome } from './messages.service.js';

const MessageSendJob = z.object({
  messageId: z.number().int().positive(),
  /** Its ticket: the ticket's sends run one after another (absent from jobs queued before it was carried). */
  ticketId: z.number().int().positive().optional(),
  /** Its connection: the process that runs it is told when the job falls due (absent likewise). */
  whatsappId: z.number().int().positive().optional(),
  /** When the message was first queued (ms since the epoch): a send waits at most ROUTED_SEND_GIVE_UP_MS. */
  queuedAt: z.number().int().nonnegative(),
  /** A file (already in media storage): what the driver needs beside the stored row. */
  media: RoutedMediaSchema.optional(),
});

const MessageActJob = z.object({
  action: RoutedActionSchema,
  /** Its connection: the process that runs it is told when the job falls due (absent from jobs queued before). */
  whatsappId: z.number().int().positive().optional(),
  /** When it was first queued: it gives up after ROUTED_ACTION_GIVE_UP_MS. */
  queuedAt: z.number().int().nonnegative(),
});

/** How many routed sends a process takes at a fetch. */
export const SEND_BATCH_SIZE = 25;

/** How soon a job whose connection is down here (reconnecting) is tried again. */
export const WAITING_RETRY_MS = 2_000;

/** How long a routed action's HTTP call waits for its outcome: past the job's own give-up time. */
const ACTION_ANSWER_TIMEOUT_MS = ROUTED_ACTION_GIVE_UP_MS + 5_000;

/**
 * `message.send` and `message.act` (decision 0020): a text or file stored, or a delete, reaction or template
 * asked, on a process that does not run the connection is carried out by the one that does. pg-boss hands a job to any
 * process; one that does not run the connection queues it again after a short random delay, so it reaches the
 * owner in a few hops, and the new owner after a takeover. A send is queued a moment ahead and the process that runs
 * its connection told to look for it then (OwnerCalls), so that it seldom hops at all. A message already sent (acked), failed or deleted
 * makes the job do nothing: a repeated job never sends or deletes twice.
 */
export async function registerMessageJobs(jobs: JobQueue, messages: MessagesService, clock: () => Date = () => new Date()): Promise<MessageJobs> {
  /** pg-boss runs on the real time (the injected clock only measures how long the work has waited). */
  const later = (outcome: 'elsewhere' | 'waiting') => ({ startAfter: new Date(Date.now() + (outcome === 'elsewhere' ? otherProcessRetryMs() : WAITING_RETRY_MS)) });
  const owners = new OwnerCalls(jobs, messages);
  /**
   * A routed job taken by a process that cannot do it, queued again: for its told owner in its first
   * OWNER_TOLD_FOR_MS (a job queued before jobs carried their connection has none), else after a while.
   */
  const again = <S extends z.ZodType>(definition: JobDefinition<S>, data: z.input<S> & { whatsappId?: number; queuedAt: number }, outcome: 'elsewhere' | 'waiting', now: number) =>
    outcome === 'elsewhere' && data.whatsappId && now - data.queuedAt < OWNER_TOLD_FOR_MS
      ? owners.queue(definition, data, data.whatsappId, later(outcome))
      : jobs.send(definition, data, later(outcome));

  const send: JobDefinition<typeof MessageSendJob> = {
    name: 'message.send',
    payload: MessageSendJob,
    handler: async (data) => {
      const now = clock().getTime();
      const outcome = await messages.sendStored(data.messageId, data.queuedAt, now, data.media);
      if (outcome === 'elsewhere' || outcome === 'waiting') await again(send, data, outcome, now);
      return { outcome };
    },
    // A batch at a fetch, its tickets side by side and each ticket's sends in order (issue 35 item 6: one job a fetch,
    // three processes drained routed menus slower than inbound made them). A job without its ticket waits its turn
    // with the others without one.
    batchSize: SEND_BATCH_SIZE,
    laneOf: (data) => data.ticketId,
    // One send takes seconds at most (a ticket's lane of a batch holds one or a few): a job still active after a minute
    // died with its process and is retried (scripts/faults/scale-out.mjs settles within its expiry and maintenance).
    expireInSeconds: 60,
    retryLimit: 3,
    retryDelaySeconds: 2,
    pollingIntervalSeconds: 0.5,
  };

  const act: JobDefinition<typeof MessageActJob> = {
    name: 'message.act',
    payload: MessageActJob,
    handler: async (data): Promise<RoutedActionOutcome | { outcome: 'elsewhere' | 'waiting'; next: string }> => {
      const now = clock().getTime();
      const outcome = await messages.actStored(data.action, data.queuedAt, now);
      if (outcome !== 'elsewhere' && outcome !== 'waiting') return outcome;
      // The caller follows `next` (JobQueue.settle) to the job that ends up doing it.
      return { outcome, next: await again(act, data, outcome, now) };
    },
    expireInSeconds: 60,
    // Not retried: a second attempt could send a reaction or template twice; the caller sees the failure.
    retryLimit: 0,
    pollingIntervalSeconds: 0.5,
  };

  await jobs.register(send);
  await jobs.register(act);
  messages.useRouter({
    // Queued for the process that runs the connection, which is told to take it: another process that takes it first
    // queues it again (each such hop cost 0.1–0.8 s and a poll, two in three of them on three processes).
    send: (messageId, ticket, media) =>
      owners.queue(send, { messageId, ticketId: ticket.id, whatsappId: ticket.whatsappId, queuedAt: clock().getTime(), media }, ticket.whatsappId),
    act: async (action, whatsappId) => {
      const job = await jobs.settle(act, await owners.queue(act, { action, whatsappId, queuedAt: clock().getTime() }, whatsappId), ACTION_ANSWER_TIMEOUT_MS);
      if (!job) return null;
      if (job.state !== 'completed') return { outcome: 'failed', error: 'ERR_SENDING_WAPP_MSG', message: job.lastError ?? 'It failed.' };
      return job.output as RoutedActionOutcome;
    },
  });
  return { tellOwnersThrough: (io) => owners.through(io) };
}

export interface MessageJobs {
  /** Routed sends are announced to the process that runs their connection over the processes' realtime link. */
  tellOwnersThrough(io: RealtimeServer): void;
}

/** How far ahead a routed send falls due: time for the announcement to reach the owner before it does. */
export const OWNER_NOTICE_MS = 50;
/**
 * How long a routed job is queued again 50 ms ahead with its owner told. Past it (no process has been running the
 * connection: between a process's death and the takeover, or a connection started nowhere) it is queued again 0.1–0.8 s
 * ahead as before, so that a job waiting minutes for its connection is not taken at every poll of every process.
 */
export const OWNER_TOLD_FOR_MS = 3_000;

/**
 * The processes that run connections are told of routed jobs (`message.send`, `message.act`) queued for them
 * (`routedJobs`, over the cluster adapter): each looks for due jobs of that queue at the moment they fall due, before
 * the other processes' next polls, so that a job rarely lands on a process that must queue it again. The announcements
 * of one turn of the event loop go out as one, per queue and due time. pg-boss still decides who takes a job: one taken
 * elsewhere hops as before.
 */
class OwnerCalls {
  private emit: ((e: { queue: string; whatsappIds: number[]; at: number }) => void) | null = null;
  /** Announcements of this turn, by queue and due time. */
  private readonly pending = new Map<string, { queue: string; at: number; whatsappIds: Set<number> }>();

  constructor(
    private readonly jobs: JobQueue,
    private readonly messages: MessagesService,
  ) {}

  /**
   * Queues a job due in a moment and tells the process that runs the connection to take it then; before the processes
   * can be told (no realtime link yet), as `unreachable` says (by default due now).
   */
  async queue<S extends z.ZodType>(definition: JobDefinition<S>, data: z.input<S>, whatsappId: number, unreachable: SendOptions = {}): Promise<string> {
    if (!this.emit) return this.jobs.send(definition, data, unreachable);
    // Due times on wakeAt's grid, so that a batch's announcements share a few of them.
    const at = Math.ceil((Date.now() + OWNER_NOTICE_MS) / WAKE_GRID_MS) * WAKE_GRID_MS;
    const id = await this.jobs.send(definition, data, { startAfter: new Date(at) });
    this.tell(definition.name, whatsappId, at);
    return id;
  }

  through(io: RealtimeServer): void {
    this.emit = onEveryProcess(io, 'routedJobs', ({ queue, whatsappIds, at }) => {
      if (whatsappIds.some((id) => this.messages.runsHere(id))) this.jobs.wakeAt(queue, at);
    });
  }

  private tell(queue: string, whatsappId: number, at: number): void {
    const key = `${queue}@${at}`;
    const pending = this.pending.get(key);
    if (pending) {
      pending.whatsappIds.add(whatsappId);
      return;
    }
    this.pending.set(key, { queue, at, whatsappIds: new Set([whatsappId]) });
    setImmediate(() => {
      const announced = this.pending.get(key);
      this.pending.delete(key);
      if (announced && this.emit) this.emit({ queue, whatsappIds: [...announced.whatsappIds], at });
    });
  }
}
