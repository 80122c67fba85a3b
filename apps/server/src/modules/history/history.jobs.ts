import { HistoryStepJob } from '@wadesk/contracts';
import { z } from 'zod';
import type { JobDefinition, JobQueue } from '../../jobs/job-queue.js';
import type { HistoryService } from './history.service.js';

/**
 * The history imports' jobs: `history.step` imports one chat and queues the next step; `history.watchdog` (every
 * minute) gives an import whose step job was lost a new chain.
 */
export async function registerHistoryJobs(jobs: JobQueue, history: HistoryService): Promise<void> {
  const step: JobDefinition<typeof HistoryStepJob> = {
    name: 'history.step',
    payload: HistoryStepJob,
    handler: ({ historyImportId, chain, waits }) => history.step(historyImportId, chain, waits),
    // A step is one chat (its media fetched again, at most a few minutes); still active after 10, it died with its process.
    expireInSeconds: 600,
    retryLimit: 3,
    retryDelaySeconds: 5,
    pollingIntervalSeconds: 0.5,
  };
  const watchdog: JobDefinition<z.ZodObject> = {
    name: 'history.watchdog',
    payload: z.object({}),
    handler: async () => {
      await history.recoverOverdue();
    },
    retryLimit: 0,
  };
  await jobs.register(step);
  await jobs.register(watchdog);
  await jobs.schedule(watchdog, '* * * * *', {});
  history.useScheduler((data, startAfter) => jobs.send(step, data, startAfter ? { startAfter } : {}));
}
