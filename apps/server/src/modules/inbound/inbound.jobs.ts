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
    // One per new conversation: at hundreds of first messages a second, menus of different tickets go side by side, 25
    // taken in one fetch and completed in one statement once all have run. A job is a dozen statements in a row, so a
    // process drains a batch in a dozen round trips: 10 at once drained 40 menus a second on the loaded machine while
    // inbound ran at 77 (bench/menus). Larger batches would queue more of their statements on the pool (10 connections)
    // ahead of inbound's requests, and leave more menus run but not yet completed when a process dies (run again then).
    batchSize: 25,
  };
  await jobs.register(menu);
  inbound.useMenuScheduler((ticketId, messageId, delayMs) => jobs.send(menu, { ticketId, messageId }, { startAfter: new Date(Date.now() + delayMs) }));
}
