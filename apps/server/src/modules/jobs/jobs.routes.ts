import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../http/app-error.js';
import { parse } from '../../http/validate.js';
import type { JobQueue } from '../../jobs/job-queue.js';

const JobParams = z.object({ id: z.uuid('Must be a job id') });

/** A job's state, attempts, last error and output (the send API answers `202 { jobId }`): the API token or an admin. */
export function jobsRoutes(app: FastifyInstance, jobs: JobQueue): void {
  app.get('/api/jobs/:id', { config: { access: 'apiToken', docs: { summary: "A job's state, attempts, last error and output" } } }, async (request) => {
    const { id } = parse(JobParams, request.params);
    const job = await jobs.find(id);
    if (!job) throw new AppError('ERR_NO_JOB_FOUND', 'Job not found.');
    return job;
  });
}
