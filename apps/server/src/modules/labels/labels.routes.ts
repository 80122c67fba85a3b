import { IdParams, LabelDto, LabelInput, LabelUpdateInput, MessageAnswer } from '@wadesk/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { LabelsService } from './labels.service.js';

const tags = ['Labels'];
const admin = { access: 'admin' as const };

/** Reading is open to signed-in users (they pick labels for tickets and contacts); writing is for admins. */
export function labelsRoutes(http: FastifyInstance, labels: LabelsService): void {
  const app = http.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/labels',
    {
      schema: {
        operationId: 'listLabels',
        summary: 'Every label by name, with how many tickets and contacts carry it',
        tags,
        response: { 200: z.array(LabelDto) },
      },
    },
    async () => labels.list(),
  );

  app.post(
    '/api/labels',
    { config: admin, schema: { operationId: 'createLabel', summary: 'Create a label', tags, body: LabelInput, response: { 201: LabelDto } } },
    async (request, reply) => reply.status(201).send(await labels.create(request.body)),
  );

  app.put(
    '/api/labels/:id',
    {
      config: admin,
      schema: { operationId: 'updateLabel', summary: 'Rename or recolour a label: the fields given change', tags, params: IdParams, body: LabelUpdateInput, response: { 200: LabelDto } },
    },
    async (request) => labels.update(request.params.id, request.body),
  );

  app.delete(
    '/api/labels/:id',
    {
      config: admin,
      schema: { operationId: 'deleteLabel', summary: 'Delete a label: every ticket and contact loses it', tags, params: IdParams, response: { 200: MessageAnswer } },
    },
    async (request) => {
      await labels.delete(request.params.id);
      return { message: 'Label deleted' };
    },
  );
}
