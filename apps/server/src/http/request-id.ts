import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

/** A request id a client or a proxy may pass in X-Request-Id: a short token, nothing that could forge a log line. */
const SANE_REQUEST_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

/**
 * Fastify's `genReqId`: the incoming `X-Request-Id` when it is a sane token (letters, digits, `.`, `_`, `:`, `-`,
 * at most 128 characters), so one id follows a request from the proxy through every log line; a new UUID otherwise.
 */
export function requestIdOf(request: IncomingMessage): string {
  const header = request.headers['x-request-id'];
  const incoming = Array.isArray(header) ? header[0] : header;
  return incoming && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/** Echoes the request's id in the response header `X-Request-Id` (every answer, errors and 404s included). */
export function registerRequestIdHeader(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
}
