import { WebhookDeliveryJob } from '@wadesk/contracts';
import { z } from 'zod';
import type { JobDefinition, JobQueue } from '../../jobs/job-queue.js';
import type { WebhookEventRecorder } from './webhook-events.js';
import type { WebhooksService } from './webhooks.service.js';

/**
 * Webhook deliveries (decision 0045): one job per attempt (`webhooks.deliver`, the delivery's own retries are its
 * rows' `next_attempt_at`, not pg-boss's), and a sweep every minute, once across processes, that records the events
 * left in the outbox (by a process that stopped before it recorded them) and queues the due deliveries again (a job
 * lost with its process, a webhook turned back on); each night, the log's ended deliveries older than 30 days are
 * deleted.
 */
export async function registerWebhookJobs(jobs: JobQueue, webhooks: WebhooksService, recorder: WebhookEventRecorder): Promise<void> {
  const deliver: JobDefinition<typeof WebhookDeliveryJob> = {
    name: 'webhooks.deliver',
    payload: WebhookDeliveryJob,
    handler: async ({ deliveryId }) => {
      await webhooks.attempt(deliveryId);
    },
    // A throw is the database's trouble, not the receiver's (that one is the delivery's own backoff).
    retryLimit: 3,
    retryDelaySeconds: 5,
    expireInSeconds: 120,
    pollingIntervalSeconds: 0.5,
  };
  const sweep: JobDefinition<z.ZodObject> = {
    name: 'webhooks.sweep',
    payload: z.object({}),
    handler: async () => {
      await recorder.idle();
      return { queued: await webhooks.sweep() };
    },
    retryLimit: 1,
  };
  const prune: JobDefinition<z.ZodObject> = {
    name: 'webhooks.prune',
    payload: z.object({}),
    handler: async () => ({ deleted: await webhooks.prune() }),
    retryLimit: 1,
  };
  await jobs.register(deliver);
  await jobs.register(sweep);
  await jobs.register(prune);
  await jobs.schedule(sweep, '* * * * *', {});
  await jobs.schedule(prune, '23 3 * * *', {});
  webhooks.useQueue(async (deliveryId, startAfter) => {
    await jobs.send(deliver, { deliveryId }, startAfter ? { startAfter } : {});
  });
}
