import { OutreachStepJob } from '@wadesk/contracts';
import { z } from 'zod';
import type { JobDefinition, JobQueue } from '../../jobs/job-queue.js';
import type { OutreachService } from './outreach.service.js';

/** `outreach.step` sends to one recipient and queues the next; `outreach.watchdog` gives a lost chain a new one. */
export async function registerOutreachJobs(jobs: JobQueue, outreach: OutreachService): Promise<void> {
  const step: JobDefinition<typeof OutreachStepJob> = {
    name: 'outreach.step',
    payload: OutreachStepJob,
    handler: ({ batchId, chain }) => outreach.step(batchId, chain),
    expireInSeconds: 180,
    // A step that died with its process is retried within seconds (job-runs.ts); its chain decides what it still does.
    resumable: true,
    retryLimit: 3,
    retryDelaySeconds: 5,
    pollingIntervalSeconds: 0.5,
  };
  const watchdog: JobDefinition<z.ZodObject> = {
    name: 'outreach.watchdog',
    payload: z.object({}),
    handler: async () => {
      await outreach.recoverOverdue();
    },
    retryLimit: 0,
  };
  await jobs.register(step);
  await jobs.register(watchdog);
  await jobs.schedule(watchdog, '* * * * *', {});
  outreach.useScheduler((data, at) => jobs.send(step, data, { startAfter: at }));
}
