import { z } from 'zod';
import type { JobDefinition, JobQueue } from '../../jobs/job-queue.js';
import type { TicketsService } from './tickets.service.js';

/**
 * Auto-close (§4, §9): open tickets idle for 24 hours are closed, on a pg-boss schedule run once across processes.
 * Without a cron (`AUTO_CLOSE_CRON=off`) the schedule is removed, for every process on the database.
 */
export async function registerTicketJobs(jobs: JobQueue, tickets: TicketsService, cron: string | null): Promise<void> {
  const autoClose: JobDefinition<z.ZodObject> = {
    name: 'tickets.auto-close',
    payload: z.object({}),
    handler: async () => {
      await tickets.autoClose();
    },
    retryLimit: 2,
  };
  await jobs.register(autoClose);
  if (cron === null) await jobs.unschedule(autoClose);
  else await jobs.schedule(autoClose, cron, {});
}
