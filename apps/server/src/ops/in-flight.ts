import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * Counts the HTTP requests being served, so a graceful shutdown can wait for them before it stops the connections
 * they may be sending through. (Fastify's own close waits for open sockets, and Socket.IO's keep those open.)
 */
export class InFlightRequests {
  private readonly serving = new Set<FastifyRequest>();
  private waiters: (() => void)[] = [];

  register(http: FastifyInstance): void {
    http.addHook('onRequest', async (request) => {
      this.serving.add(request);
    });
    // A client that leaves after sending its whole request gets neither onResponse (nothing finishes) nor
    // onRequestAbort (Fastify runs it only while the body is still coming): its request ends when the handler answers
    // into a connection that is gone. (No listener on the response for it: a file sent by @fastify/static already
    // carries ten, and one more is Node's leak warning.)
    http.addHook('onSend', async (request, _reply, payload) => {
      if (request.raw.socket?.destroyed !== false) this.done(request);
      return payload;
    });
    // onResponse runs once a request is answered; onRequestAbort when its client left during the body. Either one
    // ends it (done is idempotent).
    http.addHook('onResponse', async (request) => this.done(request));
    http.addHook('onRequestAbort', async (request) => this.done(request));
  }

  get size(): number {
    return this.serving.size;
  }

  /** Resolves true once no request is being served, or false after `timeoutMs`. */
  idle(timeoutMs: number): Promise<boolean> {
    if (this.serving.size === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== wake);
        resolve(false);
      }, timeoutMs);
      const wake = () => {
        clearTimeout(timer);
        resolve(true);
      };
      this.waiters.push(wake);
    });
  }

  private done(request: FastifyRequest): void {
    this.serving.delete(request);
    if (this.serving.size > 0) return;
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}
