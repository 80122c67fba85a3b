import { JobDto, JobParams } from '@wadesk/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError } from '../../http/app-error.js';
import type { JobQueue } from '../../jobs/job-queue.js';

/** A job's state, attempts, last error and output (the send API answers `202 { jobId }`): the API token or an admin. */
export function jobsRoutes(http: FastifyInstance, jobs: JobQueue): void {
  const app = http.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/jobs/:id',
    {
      config: { access: 'apiToken' },
      schema: {
        operationId: 'getJob',
        summary: "A job's state, attempts, last error and output",
        description: 'The job of a 202 answer of the send API (`jobId`), or a step of a group action or history import.',
        tags: ['Send API'],
        params: JobParams,
        response: { 200: JobDto },
      },
    },
    async (request) => {
      const job = await jobs.find(request.params.id);
      if (!job) throw new AppError('ERR_NO_JOB_FOUND', 'Job not found.');
      return job;
    },
  );
}
