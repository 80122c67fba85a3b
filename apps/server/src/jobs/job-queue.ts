import { createRequire } from 'node:module';
import PgBoss from 'pg-boss';
import type { z } from 'zod';
import type { DatabaseHandle } from '../db/client.js';
import { isDatabaseUnavailable } from '../db/errors.js';
import { JobRuns } from './job-runs.js';

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
  /**
   * How many due jobs a worker takes at once and runs side by side (default 1: one after another, in order). For
   * per-message jobs whose runs are independent of each other (the queue menu), so that they keep pace with inbound.
   */
  batchSize?: number;
  /**
   * With a batch, the jobs of one lane run one after another in the order they were queued, the lanes side by side
   * (the routed sends: a ticket's messages keep their order, different tickets' go at once). A job with no lane
   * (undefined) is in the lane of every other such job.
   */
  laneOf?: (data: z.output<S>) => string | number | undefined;
  /**
   * A run that dies with its process is retried within seconds, not at its expiry (job-runs.ts): for steps whose
   * payload's own rules make a second run safe (a chain of steps, decision 0014).
   */
  resumable?: boolean;
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
 * A batch's jobs in lanes (JobDefinition.laneOf), each lane in the order the jobs were queued (pg-boss picks them in
 * that order, `created_on` then `id`, but its `UPDATE … RETURNING` hands them back in any order); without `laneOf`,
 * each job is a lane of its own. A payload that does not parse is a lane of its own: its run fails on its own.
 */
export function lanesOf<J extends { id: string; data: unknown; createdOn?: Date }>(batch: J[], laneOf?: (data: unknown) => string | number | undefined): J[][] {
  if (!laneOf) return batch.map((job) => [job]);
  const queued = [...batch].sort((a, b) => (a.createdOn?.getTime() ?? 0) - (b.createdOn?.getTime() ?? 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const lanes = new Map<unknown, J[]>();
  const alone: J[][] = [];
  for (const job of queued) {
    let key: unknown;
    try {
      key = laneOf(job.data);
    } catch {
      alone.push([job]);
      continue;
    }
    const lane = lanes.get(key);
    if (lane) lane.push(job);
    else lanes.set(key, [job]);
  }
  return [...lanes.values(), ...alone];
}

/** wakeAt's grid: the wakes of jobs due within this many milliseconds of each other are one. */
export const WAKE_GRID_MS = 50;
/** How long after a job's due time wakeAt's worker looks (pg-boss compares it with the database's clock). */
const WAKE_MARGIN_MS = 10;

/** pg-boss's SQL text builders (pg-boss 10 has no `exports` map, so its sources can be required). */
const plans = createRequire(import.meta.url)('pg-boss/src/plans.js') as { completeJobs(schema: string): string; failJobsById(schema: string): string };

/**
 * The statements with which pg-boss records that a job ended (completed, or failed and so to be retried). Its worker
 * does not wait for them (pg-boss 10, manager.js `onFetch`: `this.complete(…)` and `this.fail(…)` without `await`), so
 * one that failed while the database was away was an unhandled rejection: it ended the process (issue 31), and the
 * job stayed `active` until it expired, minutes later, and was then run a second time.
 */
const JOB_END_STATEMENTS = new Set([plans.completeJobs('pgboss'), plans.failJobsById('pgboss')]);

/** How long the record of a job's end is tried again while the database cannot be reached. */
export const JOB_END_RETRY_MS = 10 * 60_000;
const JOB_END_RETRY_EVERY_MS = 1000;

/**
 * Runs `attempt` until it succeeds, again every second while the database cannot be reached, for at most
 * `JOB_END_RETRY_MS`: a job's end is recorded once the database is back (a failure of another kind, or a database
 * still away after that, rejects as before).
 */
export async function untilRecorded<T>(attempt: () => Promise<T>, log: JobLog, retryMs = JOB_END_RETRY_MS, everyMs = JOB_END_RETRY_EVERY_MS): Promise<T> {
  const until = Date.now() + retryMs;
  let warned = false;
  for (;;) {
    try {
      const result = await attempt();
      if (warned) log.info({}, "a job's end was recorded once the database answered again");
      return result;
    } catch (err) {
      if (!isDatabaseUnavailable(err) || Date.now() + everyMs > until) throw err;
      if (!warned) log.warn({ err }, "the database is unavailable: a job's end is recorded once it answers again");
      warned = true;
      await delay(everyMs);
    }
  }
}

/**
 * pg-boss's `db` option: its statements run on the app's own pool (PostgreSQL's, or the one client onto PGlite in
 * embedded mode, so they never slip into a transaction of the app's). The record of a job's end is retried until
 * the database answers (see JOB_END_STATEMENTS).
 */
function executorOf(database: DatabaseHandle, log: JobLog, track: (work: Promise<unknown>) => void) {
  const { pool } = database;
  if (!pool) throw new Error('the job queue needs the database pool');
  return {
    executeSql(text: string, values?: unknown[]) {
      const work = JOB_END_STATEMENTS.has(text) ? untilRecorded(() => pool.query(text, values), log) : pool.query(text, values);
      track(work);
      return work;
    },
  };
}

/**
 * A worker's polling interval: the definition's, lengthened by up to half of it at random, once per process and
 * queue. With one interval everywhere, processes that poll in step stay in step: a job that a process hands on for
 * another (its connection runs elsewhere, decision 0020) falls due between two of its own polls, and the owner,
 * polling just before it each time, never got it (seen as texts bounced for a minute in the scale-out test). With
 * different intervals the phases drift, and the owner's poll comes first within a few rounds.
 */
export function pollingInterval(seconds: number, random: () => number = Math.random): number {
  return Math.round(seconds * (1 + random() * 0.5) * 1000) / 1000;
}

/** Keeps `work` in `inFlight` until it settles. */
function track(inFlight: Set<Promise<unknown>>, work: Promise<unknown>): void {
  inFlight.add(work);
  const done = () => inFlight.delete(work);
  work.then(done, done);
}

/**
 * Completes jobs of one queue in one statement, each with its own output (pg-boss's `complete` gives every job of a
 * call the same output): a batch's jobs that succeeded. Only jobs still active change, as pg-boss's own.
 */
const COMPLETE_EACH = `
  update pgboss.job j set completed_on = now(), state = 'completed', output = d.output
    from json_to_recordset($2::json) as d(id uuid, output jsonb)
   where j.name = $1 and j.id = d.id and j.state = 'active'`;

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)).unref());
}

/** How often pg-boss fails expired jobs (and archives and drops old ones). */
const MAINTENANCE_INTERVAL_SECONDS = 30;

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
  /** Wakes planned by wakeAt, by queue and time. */
  private readonly wakes = new Set<string>();
  private readonly definitions = new Map<string, JobDefinition<z.ZodType>>();
  private stopped = false;
  private readonly runs: JobRuns | null;

  private constructor(
    private readonly boss: PgBoss,
    private readonly log: JobLog,
    /** pg-boss's statements and our handlers under way (see stop). */
    private readonly inFlight: Set<Promise<unknown>>,
    database: DatabaseHandle,
    nodeId: string | undefined,
  ) {
    this.runs = nodeId ? new JobRuns(database, nodeId, (queue, id, reason) => this.retryNow(queue, id, reason), log) : null;
  }

  /**
   * Starts pg-boss on the app's database (creating or migrating its `pgboss` schema). With a `nodeId` (this process's
   * name among those sharing the database), resumable jobs keep their runs in `job_runs` (see resumeDeadRuns).
   */
  static async start(database: DatabaseHandle, options: { log: JobLog; nodeId?: string }): Promise<JobQueue> {
    const inFlight = new Set<Promise<unknown>>();
    const boss = new PgBoss({
      application_name: 'wadesk-jobs',
      db: executorOf(database, options.log, (work) => track(inFlight, work)),
      // A job still active past its expiry (its process died holding it) is failed, and so retried, by this maintenance
      // (one process of all does it each time): every 30 s rather than pg-boss's 120, so a routed send of a killed
      // process goes out within its expiry and 30 s, not up to two minutes more.
      maintenanceIntervalSeconds: MAINTENANCE_INTERVAL_SECONDS,
    });
    boss.on('error', (err) => options.log.error({ err }, 'job queue error'));
    await boss.start();
    return new JobQueue(boss, options.log, inFlight, database, options.nodeId);
  }

  /**
   * From now on, every second: the runs of resumable jobs whose process died (this one before a restart, or another)
   * are retried at once. Called once the app can run them (its connections started); the first sweep is awaited.
   */
  async resumeDeadRuns(): Promise<void> {
    if (this.stopped) return;
    await this.runs?.start();
  }

  /** A job whose run died: failed (so counted against its retries) and due now, and this process's worker told. */
  private async retryNow(queue: string, id: string, reason: string): Promise<void> {
    await this.boss.fail(queue, id, { message: reason });
    await this.boss.getDb().executeSql(`update pgboss.job set start_after = now() where name = $1 and id = $2 and state = 'retry'`, [queue, id]);
    this.wake(queue);
  }

  /**
   * Tells this process's worker of a queue to look for due jobs now rather than at its next poll (a job retried now, or
   * one another process queued for this one: see messages.jobs.ts).
   */
  wake(name: string): void {
    const workerId = this.workers.get(name);
    if (workerId && !this.stopped) this.boss.notifyWorker(workerId);
  }

  /**
   * Wakes this process's worker of a queue just after `at` (ms since the epoch), when a job it knows of falls due: taken
   * here before the other processes' next polls. The wakes of one queue are kept on a grid of WAKE_GRID_MS, so that many
   * jobs due close together share one.
   */
  wakeAt(name: string, at: number): void {
    const slot = Math.ceil(at / WAKE_GRID_MS) * WAKE_GRID_MS;
    const key = `${name}@${slot}`;
    if (this.stopped || this.wakes.has(key)) return;
    this.wakes.add(key);
    // pg-boss compares the due time with the database's clock: a little after it.
    setTimeout(() => {
      this.wakes.delete(key);
      this.wake(name);
    }, Math.max(0, slot + WAKE_MARGIN_MS - Date.now())).unref();
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
    if (definition.resumable) this.runs?.addQueue(definition.name);
    const batchSize = Math.max(1, Math.trunc(options.batchSize ?? 1));
    const { laneOf: laneOfData } = definition;
    const laneOf = laneOfData ? (data: unknown) => laneOfData(definition.payload.parse(data)) : undefined;
    const runOne = async (job: PgBoss.Job<unknown>): Promise<unknown> => {
      const data = definition.payload.parse(job.data);
      const run =
        definition.resumable && this.runs ? this.runs.run(definition.name, job.id, () => definition.handler(data, { id: job.id })) : definition.handler(data, { id: job.id });
      track(this.inFlight, run);
      try {
        return await run;
      } catch (err) {
        this.log.warn({ err, job: job.id, name: definition.name }, 'job failed; pg-boss retries it with backoff');
        throw err;
      }
    };
    // With lanes, each job comes with its metadata: its `createdOn` orders its lane.
    const work = { pollingIntervalSeconds: pollingInterval(options.pollingIntervalSeconds), batchSize, includeMetadata: laneOf !== undefined };
    const workerId = await this.boss.work(definition.name, work, async (batch: PgBoss.Job<unknown>[]) => {
      if (batch.length === 0) return;
      // pg-boss's worker waits its polling interval after every fetch, also one that found work: at one job a fetch and
      // half a second, a queue drained two jobs a second whatever its backlog (issue 35 item 6). A full batch (more may
      // be waiting) is followed at once by the next fetch; one that was not full waits the interval, so that a queue fed
      // steadily is taken a batch at a time, not one job a fetch (two statements a job: its fetch and its completion).
      const again = () => {
        if (batch.length === batchSize) this.wake(definition.name);
      };
      if (batch.length === 1) {
        try {
          return await runOne(batch[0]!);
        } finally {
          again();
        }
      }
      // Side by side, each ended on its own (pg-boss would complete or fail the batch as one): those that succeeded in
      // one statement once the batch has run, each failure on its own. pg-boss's own completion of the whole batch
      // afterwards touches only jobs still active, so none.
      const completed: { id: string; output: object | null }[] = [];
      const runEnded = async (job: PgBoss.Job<unknown>) => {
        try {
          const output = await runOne(job);
          completed.push({ id: job.id, output: output && typeof output === 'object' ? output : null });
        } catch (err) {
          await this.boss.fail(definition.name, job.id, err instanceof Error ? { message: err.message, stack: err.stack } : { message: String(err) });
        }
      };
      await Promise.all(
        lanesOf(batch as (PgBoss.Job<unknown> & { createdOn?: Date })[], laneOf).map(async (lane) => {
          for (const job of lane) await runEnded(job);
        }),
      );
      if (completed.length > 0) await this.completeEach(definition.name, completed);
      again();
    });
    this.workers.set(definition.name, workerId);
  }

  /** Records the end of jobs that succeeded, retried while the database cannot be reached (see JOB_END_STATEMENTS). */
  private async completeEach(name: string, jobs: { id: string; output: object | null }[]): Promise<void> {
    const pool = this.boss.getDb();
    await untilRecorded(() => pool.executeSql(COMPLETE_EACH, [name, JSON.stringify(jobs)]), this.log);
  }

  /** Queues a job; its payload is checked against the definition's schema first. */
  async send<S extends z.ZodType>(definition: JobDefinition<S>, data: z.input<S>, options: SendOptions = {}): Promise<string> {
    const payload = definition.payload.parse(data) as object;
    const id = await this.boss.send(definition.name, payload, options.startAfter ? { startAfter: options.startAfter } : {});
    if (!id) throw new Error(`job ${definition.name} was not queued`);
    // A job due now is picked up at once in this process instead of at the worker's next poll.
    if (!options.startAfter || options.startAfter.getTime() <= Date.now()) this.wake(definition.name);
    return id;
  }

  /** Runs the job on a cron schedule (once across processes: pg-boss's clock decides). */
  async schedule<S extends z.ZodType>(definition: JobDefinition<S>, cron: string, data: z.input<S>): Promise<void> {
    await this.boss.schedule(definition.name, cron, definition.payload.parse(data) as object);
  }

  /** Removes a job's schedule (kept in the database, so for every process on it), if it has one. */
  async unschedule<S extends z.ZodType>(definition: JobDefinition<S>): Promise<void> {
    await this.boss.unschedule(definition.name);
  }

  /** The names of the jobs that have a schedule. */
  async scheduled(): Promise<string[]> {
    return (await this.boss.getSchedules()).map((schedule) => schedule.name);
  }

  /** A job by id, in any of the registered queues; null when there is none. */
  async find(id: string): Promise<JobState | null> {
    for (const name of this.definitions.keys()) {
      const job = await this.jobIn(name, id);
      if (job) return job;
    }
    return null;
  }

  private async jobIn(name: string, id: string): Promise<JobState | null> {
    const job = (await this.boss.getJobById(name, id)) as (PgBoss.JobWithMetadata & { output?: unknown }) | null;
    if (!job) return null;
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

  /**
   * Waits for a job to end, following the jobs it handed its work on to (a handler whose output is
   * `{ next: jobId }` queued the rest as that job): the last one's state once it completed or failed, or null
   * when that takes longer than `timeoutMs`. For an HTTP answer that depends on a job another process runs.
   */
  async settle<S extends z.ZodType>(definition: JobDefinition<S>, id: string, timeoutMs: number, pollMs = 100): Promise<JobState | null> {
    const deadline = Date.now() + timeoutMs;
    let current = id;
    while (Date.now() < deadline) {
      const job = await this.jobIn(definition.name, current);
      if (job?.state === 'completed' || job?.state === 'failed' || job?.state === 'cancelled') {
        const next = (job.output as { next?: unknown } | null)?.next;
        if (job.state !== 'completed' || typeof next !== 'string') return job;
        current = next;
        continue;
      }
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
    return null;
  }

  /** Whether this process works the queues (started, not stopping): part of GET /api/ready. */
  get running(): boolean {
    return !this.stopped;
  }

  /**
   * Per registered queue: jobs waiting (created or retry, as pg-boss's getQueueSize counts them) and jobs failed for
   * good (still kept by pg-boss), for the metrics. Read from the database in one statement (one a queue before: twenty
   * for a scrape): the same figures on every process.
   */
  async stats(): Promise<{ name: string; queued: number; failed: number }[]> {
    const names = [...this.definitions.keys()];
    if (names.length === 0) return [];
    const counts = await this.boss.getDb().executeSql(
      `select name, count(*) filter (where state < 'active')::int as queued, count(*) filter (where state = 'failed')::int as failed
         from pgboss.job where name = any($1::text[]) and (state < 'active' or state = 'failed') group by name`,
      [names],
    );
    const of = new Map((counts.rows as { name: string; queued: number | string; failed: number | string }[]).map((r) => [r.name, r]));
    return names.map((name) => ({ name, queued: Number(of.get(name)?.queued ?? 0), failed: Number(of.get(name)?.failed ?? 0) }));
  }

  /** Stops taking jobs and waits (up to `timeoutMs`) for the ones running in this process. */
  async stop(timeoutMs = 10_000): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.runs?.stop();
    const until = Date.now() + timeoutMs;
    // Our workers stop first and what they are doing drains before pg-boss stops. pg-boss's graceful stop looks for
    // work under way only in its workers' fetched jobs: a fetch still in flight when it looked returns its job a moment
    // later, and pg-boss's shutdown then marks that job failed ("shut down while active", so retried elsewhere) while
    // its handler runs here: done twice. With the workers stopped and drained, pg-boss has nothing left to fail.
    await Promise.all([...this.workers.keys()].map((name) => this.boss.offWork(name)));
    await this.drain(until);
    await this.boss.stop({ graceful: true, wait: true, timeout: Math.max(1000, until - Date.now()) });
    // pg-boss's own statements (its maintenance, its completion of what it ran) must end before the app closes the
    // database.
    await this.drain(until);
  }

  /**
   * Waits until no statement or handler of the queue is under way (or `until`): fetches, handlers, and the
   * completions they lead to.
   */
  private async drain(until: number): Promise<void> {
    for (;;) {
      while (this.inFlight.size > 0 && Date.now() < until) {
        await Promise.race([Promise.allSettled([...this.inFlight]), delay(until - Date.now())]);
      }
      // What settled may lead to more (a fetch to its handler, a handler's end to its completion, a few promise steps
      // later): look again once those steps have run.
      await new Promise((resolve) => setImmediate(resolve));
      if (this.inFlight.size === 0 || Date.now() >= until) return;
    }
  }
}
