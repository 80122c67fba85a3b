import { idField, QueueInput, QueueUpdateInput } from '@wadesk/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { parse } from '../../http/validate.js';
import type { QueuesService } from './queues.service.js';

const IdParams = z.object({ id: idField });
const admin = { config: { access: 'admin' as const } };

/** Reading is open to signed-in users (user modal, ticket filters); writing is for admins. */
export function queuesRoutes(app: FastifyInstance, queues: QueuesService): void {
  app.get('/api/queue', async () => queues.list());

  app.get('/api/queue/:id', async (request) => {
    const { id } = parse(IdParams, request.params);
    return queues.get(id);
  });

  app.post('/api/queue', admin, async (request, reply) => {
    const queue = await queues.create(parse(QueueInput, request.body));
    return reply.status(201).send(queue);
  });

  app.put('/api/queue/:id', admin, async (request) => {
    const { id } = parse(IdParams, request.params);
    return queues.update(id, parse(QueueUpdateInput, request.body));
  });

  app.delete('/api/queue/:id', admin, async (request) => {
    const { id } = parse(IdParams, request.params);
    await queues.delete(id);
    return { message: 'Queue deleted' };
  });
}
