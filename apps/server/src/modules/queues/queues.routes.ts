import { IdParams, MessageAnswer, QueueDto, QueueInput, QueueUpdateInput } from '@wadesk/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { QueuesService } from './queues.service.js';

const tags = ['Queues'];
const admin = { access: 'admin' as const };

/** Reading is open to signed-in users (user modal, ticket filters); writing is for admins. */
export function queuesRoutes(http: FastifyInstance, queues: QueuesService): void {
  const app = http.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/queue',
    { schema: { operationId: 'listQueues', summary: 'Every queue', tags, response: { 200: z.array(QueueDto) } } },
    async () => queues.list(),
  );

  app.get(
    '/api/queue/:id',
    { schema: { operationId: 'getQueue', summary: 'One queue', tags, params: IdParams, response: { 200: QueueDto } } },
    async (request) => queues.get(request.params.id),
  );

  app.post(
    '/api/queue',
    { config: admin, schema: { operationId: 'createQueue', summary: 'Create a queue', tags, body: QueueInput, response: { 201: QueueDto } } },
    async (request, reply) => reply.status(201).send(await queues.create(request.body)),
  );

  app.put(
    '/api/queue/:id',
    {
      config: admin,
      schema: { operationId: 'updateQueue', summary: 'Change a queue; the fields given change', tags, params: IdParams, body: QueueUpdateInput, response: { 200: QueueDto } },
    },
    async (request) => queues.update(request.params.id, request.body),
  );

  app.delete(
    '/api/queue/:id',
    { config: admin, schema: { operationId: 'deleteQueue', summary: 'Delete a queue', tags, params: IdParams, response: { 200: MessageAnswer } } },
    async (request) => {
      await queues.delete(request.params.id);
      return { message: 'Queue deleted' };
    },
  );
}
