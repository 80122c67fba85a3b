import { HealthDto, HealthUnavailableDto, ReadyDto } from '@wadesk/contracts';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MIGRATIONS_FOLDER, rowsOf, type DatabaseHandle } from '../db/client.js';
import type { FfmpegBinary } from '../ops/ffmpeg.js';

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
 * `simulator` says whether the built-in simulator runs (SIMULATOR=on), so the web offers its page only then;
 * `guideUrl` is where the user guide is published (GUIDE_URL, null when unset), for the user menu's Help.
 */
export function healthRoutes(http: FastifyInstance, database: DatabaseHandle, features: { simulator: boolean; guideUrl?: string }): void {
  const app = http.withTypeProvider<ZodTypeProvider>();
  const schema = {
    operationId: 'getHealth',
    summary: 'Liveness: the database answers (200, else 503), and the optional features of this server',
    tags: ['Health'],
    response: { 200: HealthDto, 503: HealthUnavailableDto },
  };
  app.get('/api/health', { config: { access: 'public' }, schema }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    try {
      await withTimeout(database.db.execute(sql`select 1`), PROBE_TIMEOUT_MS);
      return { status: 'ok' as const, database: database.kind, simulator: features.simulator, guideUrl: features.guideUrl ?? null };
    } catch (err) {
      request.log.warn({ err }, 'health: database unavailable');
      return reply.status(503).send({
        error: 'ERR_DB_UNAVAILABLE',
        message: 'The database is unavailable.',
        status: 'unavailable',
        database: database.kind,
      });
    }
  });
}

/** What GET /api/ready asks of the rest of the app. */
export interface Readiness {
  /** A graceful shutdown has begun: the process takes no new work. */
  stopping(): boolean;
  /** pg-boss is started and works the queues in this process. */
  jobsRunning(): boolean;
}

/** The newest migration this build ships (its journal's `when`, which drizzle stores as `created_at`). */
function latestMigration(): number {
  const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as { entries: { when: number }[] };
  return Math.max(0, ...journal.entries.map((e) => e.when));
}

type Check = 'ok' | 'failed' | 'stopping';

/** What GET /api/ready tells only an admin: facts about the machine that help an operator and an attacker alike. */
export interface ReadyDetails {
  /** The caller is a signed-in admin (an admin's access token as `Authorization: Bearer`). */
  mayRead(request: FastifyRequest): Promise<boolean>;
  /** Which ffmpeg converts audio: its path, the first line of `ffmpeg -version`, and where it came from. */
  ffmpeg(): Promise<FfmpegBinary | null>;
}

/**
 * GET /api/ready (readiness, no auth: it carries no data): 200 `{ status: 'ok', checks }` when the database
 * answers within 2 s, the migrations this build ships are applied and the job queue runs; otherwise 503
 * `{ status: 'unavailable', checks }` naming the check that failed (`shutdown: 'stopping'` once SIGTERM came, so a
 * load balancer stops sending requests while the in-flight ones finish). /api/health stays the liveness probe.
 * With an admin's access token the answer also has `details` (`ffmpeg: { path, version, source }`); anyone
 * else gets the same answer as without a token.
 */
export function readyRoute(http: FastifyInstance, database: DatabaseHandle, readiness: Readiness, details?: ReadyDetails): void {
  const app = http.withTypeProvider<ZodTypeProvider>();
  const expected = latestMigration();
  const schema = {
    operationId: 'getReadiness',
    summary: 'Readiness: database, migrations, jobs, not shutting down (200, else 503 naming the failed check)',
    tags: ['Health'],
    response: { 200: ReadyDto, 503: ReadyDto },
  };
  app.get('/api/ready', { config: { access: 'public' }, schema }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const checks: Record<'database' | 'migrations' | 'jobs' | 'shutdown', Check> = {
      database: 'failed',
      migrations: 'failed',
      jobs: readiness.jobsRunning() ? 'ok' : 'failed',
      shutdown: readiness.stopping() ? 'stopping' : 'ok',
    };
    try {
      await withTimeout(database.db.execute(sql`select 1`), PROBE_TIMEOUT_MS);
      checks.database = 'ok';
      const [row] = rowsOf<{ latest: number | string | null }>(
        await withTimeout(database.db.execute(sql`select max(created_at) as latest from drizzle.__drizzle_migrations`), PROBE_TIMEOUT_MS),
      );
      if (Number(row?.latest ?? 0) >= expected) checks.migrations = 'ok';
    } catch (err) {
      request.log.warn({ err }, 'ready: a check failed');
    }
    const ok = Object.values(checks).every((c) => c === 'ok');
    const body = { status: ok ? ('ok' as const) : ('unavailable' as const), checks };
    if (details && (await details.mayRead(request).catch(() => false))) {
      return reply.status(ok ? 200 : 503).send({ ...body, details: { ffmpeg: await details.ffmpeg() } });
    }
    return reply.status(ok ? 200 : 503).send(body);
  });
}
