import { GroupStepJob } from '@wadesk/contracts';
import { z } from 'zod';
import type { JobDefinition, JobQueue } from '../../jobs/job-queue.js';
import type { GroupsService } from './groups.service.js';

/**
 * The group actions' jobs: `group.step` does one group (or participant) and queues the next step after the pause;
 * `group.watchdog` (every minute) gives an action whose step job was lost a new chain.
 */
export async function registerGroupJobs(jobs: JobQueue, groups: GroupsService): Promise<void> {
  const step: JobDefinition<typeof GroupStepJob> = {
    name: 'group.step',
    payload: GroupStepJob,
    handler: ({ groupActionId, chain }) => groups.step(groupActionId, chain),
    // A step is one network call (at most a minute, two for a title and a description); still active after
    // 3 minutes, it died with its process.
    expireInSeconds: 180,
    // A step that died with its process is retried within seconds (job-runs.ts); its chain decides what it still does.
    resumable: true,
    retryLimit: 3,
    retryDelaySeconds: 5,
    pollingIntervalSeconds: 0.5,
  };
  const watchdog: JobDefinition<z.ZodObject> = {
    name: 'group.watchdog',
    payload: z.object({}),
    handler: async () => {
      await groups.recoverOverdue();
    },
    retryLimit: 0,
  };
  await jobs.register(step);
  await jobs.register(watchdog);
  await jobs.schedule(watchdog, '* * * * *', {});
  groups.useScheduler((data, at) => jobs.send(step, data, { startAfter: at }));
}
