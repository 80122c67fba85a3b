import { idField, QuickAnswerInput, QuickAnswerListQuery } from '@wadesk/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { parse } from '../../http/validate.js';
import type { QuickAnswersService } from './quick-answers.service.js';

const IdParams = z.object({ id: idField });

/** Open to every signed-in user, reads and writes (see QuickAnswersService). */
export function quickAnswersRoutes(app: FastifyInstance, quickAnswers: QuickAnswersService): void {
  app.get('/api/quickAnswers', async (request) => {
    const query = parse(QuickAnswerListQuery, request.query);
    return quickAnswers.list(query.searchParam, query.pageNumber);
  });

  app.get('/api/quickAnswers/:id', async (request) => {
    const { id } = parse(IdParams, request.params);
    return quickAnswers.get(id);
  });

  app.post('/api/quickAnswers', async (request, reply) => {
    const quickAnswer = await quickAnswers.create(parse(QuickAnswerInput, request.body));
    return reply.status(201).send(quickAnswer);
  });

  app.put('/api/quickAnswers/:id', async (request) => {
    const { id } = parse(IdParams, request.params);
    return quickAnswers.update(id, parse(QuickAnswerInput, request.body));
  });

  app.delete('/api/quickAnswers/:id', async (request) => {
    const { id } = parse(IdParams, request.params);
    await quickAnswers.delete(id);
    return { message: 'Quick answer deleted' };
  });
}
