import type { ErrorBody } from '@wadesk/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../db/errors.js';
import { AppError } from './app-error.js';
import { fromDatabaseDataError, issueOf } from './validate.js';

/**
 * Fastify's own refusals before any route runs (a malformed percent-escape in the URL, a path parameter past
 * `maxParamLength`): the same `400 ERR_VALIDATION` as every other bad input. Passed as `frameworkErrors`.
 */
export function frameworkErrorHandler(err: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const message = err.code === 'FST_ERR_BAD_URL' ? 'Malformed URL' : err.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'URL parameter too long' : err.message;
  void reply.status(400).send({ error: 'ERR_VALIDATION', message, issues: [{ path: '', message }] } satisfies ErrorBody);
}

/** One place that turns failures into `{ error, message }` responses. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | AppError, request, reply) => {
    if (err instanceof AppError) {
      const body: ErrorBody = { error: err.code, message: err.message };
      if (err.issues) body.issues = err.issues;
      else if (err.code === 'ERR_VALIDATION') body.issues = [issueOf(err.message)];
      if (err.ticketId !== undefined) body.ticketId = err.ticketId;
      if (err.mfaToken !== undefined) body.mfaToken = err.mfaToken;
      if (err.retryAfterSeconds !== undefined) void reply.header('retry-after', String(Math.max(1, Math.ceil(err.retryAfterSeconds))));
      return reply.status(err.status).send(body);
    }
    const dataError = fromDatabaseDataError(err);
    if (dataError) {
      // Bad input that no schema refused: the database did. A 400, but worth a look (a field lacks a bound).
      request.log.warn({ err }, 'input refused by the database');
      return reply
        .status(dataError.status)
        .send({ error: dataError.code, message: dataError.message, issues: dataError.issues } satisfies ErrorBody);
    }
    const status = err.statusCode ?? 500;
    if (status === 429) {
      return reply.status(429).send({ error: 'ERR_RATE_LIMITED', message: err.message } satisfies ErrorBody);
    }
    if (status >= 400 && status < 500) {
      // Malformed JSON, body or upload too large (413 stays 413), unsupported media type, ...
      if (status === 404) return reply.status(404).send({ error: 'ERR_NOT_FOUND', message: err.message } satisfies ErrorBody);
      if (status === 413) {
        return reply.status(413).send({ error: 'ERR_PAYLOAD_TOO_LARGE', message: err.message, issues: [issueOf(err.message)] } satisfies ErrorBody);
      }
      return reply
        .status(400)
        .send({ error: 'ERR_VALIDATION', message: err.message, issues: [issueOf(err.message)] } satisfies ErrorBody);
    }
    if (isDatabaseUnavailable(err)) {
      // An outage, not a bug: the web app shows "reconnecting" and retries.
      request.log.warn({ err }, 'database unavailable');
      return reply
        .status(503)
        .header('retry-after', '5')
        .send({ error: 'ERR_DB_UNAVAILABLE', message: 'The database is unavailable. Retrying shortly.' } satisfies ErrorBody);
    }
    request.log.error({ err }, 'request failed');
    return reply.status(500).send({ error: 'ERR_INTERNAL', message: 'Internal server error' } satisfies ErrorBody);
  });
}
