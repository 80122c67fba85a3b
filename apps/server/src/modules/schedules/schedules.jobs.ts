import { ScheduleSendJob } from '@wadesk/contracts';
import { z } from 'zod';
import type { JobDefinition, JobQueue } from '../../jobs/job-queue.js';
import type { SchedulesService } from './schedules.service.js';

/**
 * The scheduled messages' jobs: `schedule.send` sends one schedule at its time (a pg-boss delayed job, `startAfter`);
 * `schedule.watchdog` (every minute, once across processes) runs the sweep that also runs at boot: due schedules
 * whose job was lost are queued again, sends left half-done by a dead process are failed (never sent twice).
 */
export async function registerScheduleJobs(jobs: JobQueue, schedules: SchedulesService): Promise<void> {
  const send: JobDefinition<typeof ScheduleSendJob> = {
    name: 'schedule.send',
    payload: ScheduleSendJob,
    handler: (data) => schedules.deliver(data),
    // One send (at most a minute): still active after 3 minutes, it died with its process. A retry finds the row
    // claimed (or sent) and does nothing: the claim, not the job, decides who sends.
    expireInSeconds: 180,
    retryLimit: 3,
    retryDelaySeconds: 5,
    pollingIntervalSeconds: 0.5,
  };
  const watchdog: JobDefinition<z.ZodObject> = {
    name: 'schedule.watchdog',
    payload: z.object({}),
    handler: async () => ({ queued: await schedules.sweep() }),
    retryLimit: 0,
  };
  await jobs.register(send);
  await jobs.register(watchdog);
  await jobs.schedule(watchdog, '* * * * *', {});
  schedules.useSender((data, at) => jobs.send(send, data, at ? { startAfter: at } : {}));
}
