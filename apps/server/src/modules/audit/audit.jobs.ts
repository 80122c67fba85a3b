import { z } from 'zod';
import type { JobDefinition, JobQueue } from '../../jobs/job-queue.js';
import type { AuditService } from './audit.service.js';

/** Every day at 03:17 (the server's time zone, pg-boss's clock): entries older than auditRetentionDays go. */
export const AUDIT_RETENTION_CRON = '17 3 * * *';

/** The audit log's retention (issue 37 §2): one daily pg-boss job, run once across processes. */
export async function registerAuditJobs(jobs: JobQueue, auditLog: AuditService, cron: string = AUDIT_RETENTION_CRON): Promise<void> {
  const retention: JobDefinition<z.ZodObject> = {
    name: 'audit.retention',
    payload: z.object({}),
    handler: async () => ({ deleted: await auditLog.applyRetention() }),
    retryLimit: 2,
  };
  await jobs.register(retention);
  await jobs.schedule(retention, cron, {});
}
