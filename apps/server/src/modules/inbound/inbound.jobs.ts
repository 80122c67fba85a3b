import { z } from 'zod';
import type { JobDefinition, JobQueue } from '../../jobs/job-queue.js';
import { otherProcessRetryMs } from '../../jobs/other-process.js';
import type { InboundService } from './inbound.service.js';

const QueueMenuJob = z.object({
  ticketId: z.number().int().positive(),
  /** The contact's message that asked for the menu: a newer one supersedes it (the debounce). */
  messageId: z.number().int().positive(),
  /** The ticket's connection (absent from jobs queued before it was carried): see MENU_HAND_ON_MS. */
  whatsappId: z.number().int().positive().optional(),
  /** When the job was first handed on by a process that does not run the connection (ms since the epoch). */
  handedOnAt: z.number().int().positive().optional(),
});

/**
 * How long a menu job taken by a process that does not run its connection is handed on for the one that does, before
 * that process sends it itself through the connection's owner (decision 0020's routed send). Sent where its
 * connection runs, a menu is read, stored and sent there; routed, it is stored here and then sent by a `message.send`
 * job of its own, run one at a time per process: on three processes at 400 first messages a second, 1,113 such jobs
 * for 1,344 menus were where the menus waited (issue 35 item 6).
 */
const MENU_HAND_ON_MS = 3000;

/**
 * `queue.menu`: the queue menu a contact's message asks for, sent once the contact has been quiet for the
 * debounce time. A job rather than a timer (issue 17): run once across processes, and kept over a restart.
 */
export async function registerInboundJobs(jobs: JobQueue, inbound: InboundService): Promise<void> {
  const menu: JobDefinition<typeof QueueMenuJob> = {
    name: 'queue.menu',
    payload: QueueMenuJob,
    handler: async (data) => {
      const { ticketId, messageId, whatsappId } = data;
      const handedOnAt = data.handedOnAt ?? Date.now();
      if (whatsappId !== undefined && !inbound.runsConnection(whatsappId) && Date.now() - handedOnAt < MENU_HAND_ON_MS) {
        const next = await jobs.send(menu, { ...data, handedOnAt }, { startAfter: new Date(Date.now() + otherProcessRetryMs()) });
        return { outcome: 'elsewhere', next };
      }
      return { outcome: await inbound.sendMenuIfDue(ticketId, messageId) };
    },
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
  inbound.useMenuScheduler((ticketId, messageId, delayMs, whatsappId) =>
    jobs.send(menu, { ticketId, messageId, whatsappId }, { startAfter: new Date(Date.now() + delayMs) }),
  );
}
