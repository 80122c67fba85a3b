import { z } from 'zod';
import type { JobDefinition, JobQueue } from '../../jobs/job-queue.js';
import type { TicketsService } from './tickets.service.js';

/** Auto-close (§4, §9): open tickets idle for 24 hours are closed, on a pg-boss schedule run once across processes. */
export async function registerTicketJobs(jobs: JobQueue, tickets: TicketsService, cron: string): Promise<void> {
  const autoClose: JobDefinition<z.ZodObject> = {
    name: 'tickets.auto-close',
    payload: z.object({}),
    handler: async () => {
      await tickets.autoClose();
    },
    retryLimit: 2,
  };
  await jobs.register(autoClose);
  await jobs.schedule(autoClose, cron, {});
}
