import { IdParams, MessageAnswer, QuickAnswerDto, QuickAnswerInput, QuickAnswerListQuery, QuickAnswerListResponse } from '@wadesk/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { QuickAnswersService } from './quick-answers.service.js';

const tags = ['Quick answers'];

/** Open to every signed-in user, reads and writes (see QuickAnswersService). */
export function quickAnswersRoutes(http: FastifyInstance, quickAnswers: QuickAnswersService): void {
  const app = http.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/quickAnswers',
    {
      schema: {
        operationId: 'listQuickAnswers',
        summary: 'List quick answers, 20 a page, found by shortcut or text',
        tags,
        querystring: QuickAnswerListQuery,
        response: { 200: QuickAnswerListResponse },
      },
    },
    async (request) => quickAnswers.list(request.query.searchParam, request.query.pageNumber),
  );

  app.get(
    '/api/quickAnswers/:id',
    { schema: { operationId: 'getQuickAnswer', summary: 'One quick answer', tags, params: IdParams, response: { 200: QuickAnswerDto } } },
    async (request) => quickAnswers.get(request.params.id),
  );

  app.post(
    '/api/quickAnswers',
    { schema: { operationId: 'createQuickAnswer', summary: 'Create a quick answer', tags, body: QuickAnswerInput, response: { 201: QuickAnswerDto } } },
    async (request, reply) => reply.status(201).send(await quickAnswers.create(request.body)),
  );

  app.put(
    '/api/quickAnswers/:id',
    {
      schema: {
        operationId: 'updateQuickAnswer',
        summary: 'Change a quick answer',
        tags,
        params: IdParams,
        body: QuickAnswerInput,
        response: { 200: QuickAnswerDto },
      },
    },
    async (request) => quickAnswers.update(request.params.id, request.body),
  );

  app.delete(
    '/api/quickAnswers/:id',
    { schema: { operationId: 'deleteQuickAnswer', summary: 'Delete a quick answer', tags, params: IdParams, response: { 200: MessageAnswer } } },
    async (request) => {
      await quickAnswers.delete(request.params.id);
      return { message: 'Quick answer deleted' };
    },
  );
}
