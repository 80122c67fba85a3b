import type { ErrorBody } from '@wadesk/contracts';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { DatabaseHandle } from '../db/client.js';

const PROBE_TIMEOUT_MS = 2000;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * GET /api/health: 200 `{ status: 'ok' }` only when the database answers a query within 2 s;
 * otherwise 503 ERR_DB_UNAVAILABLE, so a load balancer or an orchestrator sees the outage.
 * `simulator` says whether the built-in simulator runs (SIMULATOR=on), so the web offers its page only then.
 */
export function healthRoutes(app: FastifyInstance, database: DatabaseHandle, features: { simulator: boolean }): void {
  app.get('/api/health', { config: { access: 'public' } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    try {
      await withTimeout(database.db.execute(sql`select 1`), PROBE_TIMEOUT_MS);
      return { status: 'ok', database: database.kind, simulator: features.simulator };
    } catch (err) {
      request.log.warn({ err }, 'health: database unavailable');
      return reply.status(503).send({
        error: 'ERR_DB_UNAVAILABLE',
        message: 'The database is unavailable.',
        status: 'unavailable',
        database: database.kind,
      } satisfies ErrorBody & { status: string; database: string });
    }
  });
}
