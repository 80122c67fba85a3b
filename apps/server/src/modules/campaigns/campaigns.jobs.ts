import { CampaignStepJob } from '@wadesk/contracts';
import { z } from 'zod';
import type { JobDefinition, JobQueue } from '../../jobs/job-queue.js';
import type { CampaignsService } from './campaigns.service.js';

/**
 * The campaigns' jobs: `campaign.step` sends one recipient and queues the next step after the pauses;
 * `campaign.watchdog` (every minute) gives a campaign whose step job was lost a new chain.
 */
export async function registerCampaignJobs(jobs: JobQueue, campaigns: CampaignsService): Promise<void> {
  const step: JobDefinition<typeof CampaignStepJob> = {
    name: 'campaign.step',
    payload: CampaignStepJob,
    handler: ({ campaignId, chain }) => campaigns.step(campaignId, chain),
    // A step is one send (at most a minute); a step still active after 3 minutes died with its process.
    expireInSeconds: 180,
    // A step that died with its process is retried within seconds (job-runs.ts); its chain decides what it still does.
    resumable: true,
    retryLimit: 3,
    retryDelaySeconds: 5,
    pollingIntervalSeconds: 0.5,
  };
  const watchdog: JobDefinition<z.ZodObject> = {
    name: 'campaign.watchdog',
    payload: z.object({}),
    handler: async () => {
      await campaigns.recoverOverdue();
    },
    retryLimit: 0,
  };
  await jobs.register(step);
  await jobs.register(watchdog);
  await jobs.schedule(watchdog, '* * * * *', {});
  campaigns.useScheduler((data, at) => jobs.send(step, data, { startAfter: at }));
}
