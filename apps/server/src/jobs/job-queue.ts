import PgBoss from 'pg-boss';
import type { z } from 'zod';
import type { DatabaseHandle } from '../db/client.js';

/**
 * Work that outlives a request (architecture: pg-boss): durable jobs in the same PostgreSQL, run once across
 * processes, retried with backoff when they throw, with their last error kept on the job.
 *
 * pg-boss runs its SQL through the app's own database handle (its `db` option, decision 0013): the pool on
 * PostgreSQL; on the embedded database the same PGlite instance, which runs one statement at a time, so
 * pg-boss's statements simply queue behind the app's.
 */

export interface JobLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface JobInfo {
  id: string;
}

export interface JobDefinition<S extends z.ZodType> {
  name: string;
  /** The payload's schema (in contracts): a job is sent and run only with a payload that parses. */
  payload: S;
  /** What it answers is kept as the job's output. */
  handler: (data: z.output<S>, job: JobInfo) => Promise<unknown>;
  /** Retries of a job that throws, with exponential backoff from `retryDelaySeconds`. */
  retryLimit?: number;
  retryDelaySeconds?: number;
  /** A job still active after this long is taken for dead and retried. */
  expireInSeconds?: number;
  /** How often an idle worker looks for due jobs. */
  pollingIntervalSeconds?: number;
}

export interface SendOptions {
  /** Not before this time (a pause between two sends, a scheduled message). */
  startAfter?: Date;
}

/** A job as `GET /api/jobs/:id` shows it. */
export interface JobState {
  id: string;
  name: string;
  state: 'created' | 'retry' | 'active' | 'completed' | 'cancelled' | 'failed';
  data: unknown;
  retryCount: number;
  retryLimit: number;
  /** The error of the last failed attempt, or the handler's output once completed. */
  output: unknown;
  lastError: string | null;
  createdOn: string;
  startedOn: string | null;
  completedOn: string | null;
}

/**
 * pg-boss's `db` option: its statements run on the app's own pool (PostgreSQL) or PGlite instance (embedded:
 * parameterized statements by `query`, its multi-statement scripts by `exec`).
 */
function executorOf(database: DatabaseHandle) {
  const { pglite, pool } = database;
  if (pglite) {
    return {
      async executeSql(text: string, values?: unknown[]) {
        if (values && values.length > 0) return pglite.query(text, values);
        const results = await pglite.exec(text);
        return results[results.length - 1] ?? { rows: [], fields: [] };
      },
    };
  }
  if (!pool) throw new Error('the job queue needs the database pool');
  return { executeSql: (text: string, values?: unknown[]) => pool.query(text, values) };
}

const DEFAULTS = { retryLimit: 5, retryDelaySeconds: 5, expireInSeconds: 15 * 60, pollingIntervalSeconds: 2 };

function iso(value: unknown): string | null {
  return value instanceof Date ? value.toISOString() : typeof value === 'string' ? new Date(value).toISOString() : null;
}

function errorText(output: unknown): string | null {
  if (output && typeof output === 'object' && 'message' in output && typeof output.message === 'string') return output.message;
  return null;
}

export class JobQueue {
  private readonly workers = new Map<string, string>();
  private readonly definitions = new Map<string, JobDefinition<z.ZodType>>();
  private stopped = false;

  private constructor(
    private readonly boss: PgBoss,
    private readonly log: JobLog,
  ) {}

  /** Starts pg-boss on the app's database (creating or migrating its `pgboss` schema). */
  static async start(database: DatabaseHandle, options: { log: JobLog }): Promise<JobQueue> {
    const boss = new PgBoss({ application_name: 'wadesk-jobs', db: executorOf(database) });
    boss.on('error', (err) => options.log.error({ err }, 'job queue error'));
    await boss.start();
    return new JobQueue(boss, options.log);
  }

  /** Creates the job's queue and starts working it in this process. */
  async register<S extends z.ZodType>(definition: JobDefinition<S>): Promise<void> {
    const options = { ...DEFAULTS, ...definition };
    await this.boss.createQueue(definition.name, {
      name: definition.name,
      retryLimit: options.retryLimit,
      retryDelay: options.retryDelaySeconds,
      retryBackoff: true,
      expireInSeconds: options.expireInSeconds,
    });
    this.definitions.set(definition.name, definition as unknown as JobDefinition<z.ZodType>);
    const workerId = await this.boss.work(
      definition.name,
      { pollingIntervalSeconds: options.pollingIntervalSeconds, batchSize: 1 },
      async ([job]) => {
        if (!job) return;
        const data = definition.payload.parse(job.data);
        try {
          return await definition.handler(data, { id: job.id });
        } catch (err) {
          this.log.warn({ err, job: job.id, name: definition.name }, 'job failed; pg-boss retries it with backoff');
          throw err;
        }
      },
    );
    this.workers.set(definition.name, workerId);
  }

  /** Queues a job; its payload is checked against the definition's schema first. */
  async send<S extends z.ZodType>(definition: JobDefinition<S>, data: z.input<S>, options: SendOptions = {}): Promise<string> {
    const payload = definition.payload.parse(data) as object;
    const id = await this.boss.send(definition.name, payload, options.startAfter ? { startAfter: options.startAfter } : {});
    if (!id) throw new Error(`job ${definition.name} was not queued`);
    // A job due now is picked up at once in this process instead of at the worker's next poll.
    const workerId = this.workers.get(definition.name);
    if (workerId && !this.stopped && (!options.startAfter || options.startAfter.getTime() <= Date.now())) this.boss.notifyWorker(workerId);
    return id;
  }

  /** Runs the job on a cron schedule (once across processes: pg-boss's clock decides). */
  async schedule<S extends z.ZodType>(definition: JobDefinition<S>, cron: string, data: z.input<S>): Promise<void> {
    await this.boss.schedule(definition.name, cron, definition.payload.parse(data) as object);
  }

  /** A job by id, in any of the registered queues; null when there is none. */
  async find(id: string): Promise<JobState | null> {
    for (const name of this.definitions.keys()) {
      const job = (await this.boss.getJobById(name, id)) as (PgBoss.JobWithMetadata & { output?: unknown }) | null;
      if (!job) continue;
      return {
        id: job.id,
        name: job.name,
        state: job.state,
        data: job.data,
        retryCount: job.retryCount,
        retryLimit: job.retryLimit,
        output: job.output ?? null,
        lastError: job.state === 'completed' ? null : errorText(job.output),
        createdOn: iso(job.createdOn)!,
        startedOn: iso(job.startedOn),
        completedOn: iso(job.completedOn),
      };
    }
    return null;
  }

  /** Stops taking jobs and waits (up to `timeoutMs`) for the ones running in this process. */
  async stop(timeoutMs = 10_000): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    await this.boss.stop({ graceful: true, wait: true, timeout: timeoutMs });
  }
}
