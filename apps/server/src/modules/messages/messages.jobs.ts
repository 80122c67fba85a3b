import { z } from 'zod';
import type { JobDefinition, JobQueue } from '../../jobs/job-queue.js';
import { otherProcessRetryMs } from '../../jobs/other-process.js';
import { ROUTED_ACTION_GIVE_UP_MS, RoutedActionSchema, RoutedMediaSchema, type MessagesService, type RoutedActionOutcome } from './messages.service.js';

const MessageSendJob = z.object({
  messageId: z.number().int().positive(),
  /** When the message was first queued (ms since the epoch): a send waits at most ROUTED_SEND_GIVE_UP_MS. */
  queuedAt: z.number().int().nonnegative(),
  /** A file (already in media storage): what the driver needs beside the stored row. */
  media: RoutedMediaSchema.optional(),
});

const MessageActJob = z.object({
  action: RoutedActionSchema,
  /** When it was first queued: it gives up after ROUTED_ACTION_GIVE_UP_MS. */
  queuedAt: z.number().int().nonnegative(),
});

/** How soon a job whose connection is down here (reconnecting) is tried again. */
export const WAITING_RETRY_MS = 2_000;

/** How long a routed action's HTTP call waits for its outcome: past the job's own give-up time. */
const ACTION_ANSWER_TIMEOUT_MS = ROUTED_ACTION_GIVE_UP_MS + 5_000;

/**
 * `message.send` and `message.act` (decision 0020): a text or file stored, or a delete, reaction or template
 * asked, on a process that does not run the connection is carried out by the one that does. pg-boss hands a job to any
 * process; one that does not run the connection queues it again after a short random delay, so it reaches the
 * owner in a few hops, and the new owner after a takeover. A message already sent (acked), failed or deleted
 * makes the job do nothing: a repeated job never sends or deletes twice.
 */
export async function registerMessageJobs(jobs: JobQueue, messages: MessagesService, clock: () => Date = () => new Date()): Promise<void> {
  /** pg-boss runs on the real time (the injected clock only measures how long the work has waited). */
  const later = (outcome: 'elsewhere' | 'waiting') => ({ startAfter: new Date(Date.now() + (outcome === 'elsewhere' ? otherProcessRetryMs() : WAITING_RETRY_MS)) });

  const send: JobDefinition<typeof MessageSendJob> = {
    name: 'message.send',
    payload: MessageSendJob,
    handler: async (data) => {
      const outcome = await messages.sendStored(data.messageId, data.queuedAt, clock().getTime(), data.media);
      if (outcome === 'elsewhere' || outcome === 'waiting') await jobs.send(send, data, later(outcome));
      return { outcome };
    },
    // One send (seconds at most): a job still active after a minute died with its process and is retried.
    expireInSeconds: 60,
    retryLimit: 3,
    retryDelaySeconds: 2,
    pollingIntervalSeconds: 0.5,
  };

  const act: JobDefinition<typeof MessageActJob> = {
    name: 'message.act',
    payload: MessageActJob,
    handler: async (data): Promise<RoutedActionOutcome | { outcome: 'elsewhere' | 'waiting'; next: string }> => {
      const outcome = await messages.actStored(data.action, data.queuedAt, clock().getTime());
      if (outcome !== 'elsewhere' && outcome !== 'waiting') return outcome;
      // The caller follows `next` (JobQueue.settle) to the job that ends up doing it.
      return { outcome, next: await jobs.send(act, data, later(outcome)) };
    },
    expireInSeconds: 60,
    // Not retried: a second attempt could send a reaction or template twice; the caller sees the failure.
    retryLimit: 0,
    pollingIntervalSeconds: 0.5,
  };

  await jobs.register(send);
  await jobs.register(act);
  messages.useRouter({
    send: (messageId, media) => jobs.send(send, { messageId, queuedAt: clock().getTime(), media }),
    act: async (action) => {
      const job = await jobs.settle(act, await jobs.send(act, { action, queuedAt: clock().getTime() }), ACTION_ANSWER_TIMEOUT_MS);
      if (!job) return null;
      if (job.state !== 'completed') return { outcome: 'failed', error: 'ERR_SENDING_WAPP_MSG', message: job.lastError ?? 'It failed.' };
      return job.output as RoutedActionOutcome;
    },
  });
}
