import { z } from 'zod';
import type { JobDefinition, JobQueue } from '../../jobs/job-queue.js';
import type { InboundService } from './inbound.service.js';

const QueueMenuJob = z.object({
  ticketId: z.number().int().positive(),
  /** The contact's message that asked for the menu: a newer one supersedes it (the debounce). */
  messageId: z.number().int().positive(),
});

/**
 * `queue.menu`: the queue menu a contact's message asks for, sent once the contact has been quiet for the
 * debounce time. A job rather than a timer (issue 17): run once across processes, and kept over a restart.
 */
export async function registerInboundJobs(jobs: JobQueue, inbound: InboundService): Promise<void> {
  const menu: JobDefinition<typeof QueueMenuJob> = {
    name: 'queue.menu',
    payload: QueueMenuJob,
    handler: async ({ ticketId, messageId }) => ({ outcome: await inbound.sendMenuIfDue(ticketId, messageId) }),
    retryLimit: 2,
    retryDelaySeconds: 2,
    expireInSeconds: 60,
    pollingIntervalSeconds: 0.5,
    // One per new conversation: at hundreds of first messages a second, menus of different tickets go side by side,
    // fifty taken in one fetch and completed in one statement, twenty-five running at once. A job is a dozen statements
    // one after another, so a process drains `concurrency` jobs in a dozen round trips: with 10 at once the queue drained
    // 40 a second on the loaded machine (200 every 5 s) while inbound ran at 77 and fell behind; with 25 it kept up. More
    // only queues more of theirs on the pool (10 connections) ahead of inbound's requests.
    batchSize: 50,
    concurrency: 25,
  };
  await jobs.register(menu);
  inbound.useMenuScheduler((ticketId, messageId, delayMs) => jobs.send(menu, { ticketId, messageId }, { startAfter: new Date(Date.now() + delayMs) }));
}
