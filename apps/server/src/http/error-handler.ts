import type { ErrorBody } from '@wadesk/contracts';
import type { FastifyError, FastifyInstance } from 'fastify';
import { AppError } from './app-error.js';

/** One place that turns failures into `{ error, message }` responses. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | AppError, request, reply) => {
    if (err instanceof AppError) {
      const body: ErrorBody = { error: err.code, message: err.message };
      if (err.issues) body.issues = err.issues;
      return reply.status(err.status).send(body);
    }
    const status = err.statusCode ?? 500;
    if (status === 429) {
      return reply.status(429).send({ error: 'ERR_RATE_LIMITED', message: err.message } satisfies ErrorBody);
    }
    if (status >= 400 && status < 500) {
      // Malformed JSON, body too large, unsupported media type, ...
      return reply.status(status === 404 ? 404 : 400).send({
        error: status === 404 ? 'ERR_NOT_FOUND' : 'ERR_VALIDATION',
        message: err.message,
      } satisfies ErrorBody);
    }
    request.log.error({ err }, 'request failed');
    return reply.status(500).send({ error: 'ERR_INTERNAL', message: 'Internal server error' } satisfies ErrorBody);
  });
}
