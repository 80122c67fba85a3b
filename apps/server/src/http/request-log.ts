import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * Fastify's request log, quieter: one line per answered request at `debug` ("request completed": method, URL
 * without credentials, status, time), so `info` carries what happens on the desk, not the web app's and the simulator
 * page's polling; at `trace` also a line when each request arrives. A request that ends in an error stays at `error`.
 */
export class RequestLog extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    request.log.trace({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null, request: FastifyRequest, reply: FastifyReply): void {
    if (error) reply.log.error({ res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.debug({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }

  override routeNotFound(request: FastifyRequest): void {
    request.log.debug({ req: request }, 'route not found');
  }
}
