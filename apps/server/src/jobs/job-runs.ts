import { and, eq, inArray, lt, notInArray, or, sql } from 'drizzle-orm';
import { rowsOf, type DatabaseHandle } from '../db/client.js';
import { jobRuns } from '../db/schema.js';
import type { JobLog } from './job-queue.js';

/** How often a process beats for its runs and looks for the runs of dead processes. */
export const RUN_BEAT_MS = 1000;
/** A run whose process has not beaten for this long died with it (PostgreSQL: several processes). */
export const RUN_DEAD_AFTER_MS = 6000;
/**
 * A job of a resumable queue `active` this long without a run died before its process wrote the run (pg-boss marks it
 * active when it hands it out; the run is written a round trip later): a live process writes it within milliseconds.
 */
export const RUNLESS_DEAD_AFTER_MS = 5000;
/**
 * How long a finished run is kept before it is removed: pg-boss records the job's end meanwhile (without waiting for
 * it: see job-queue.ts), so a job never stands `active` without its run while its process lives.
 */
export const RUN_KEPT_AFTER_END_MS = 2000;

/** What a dead run is handed back to: pg-boss, to retry the job now (see JobQueue.retryNow). */
export type RetryNow = (queue: string, jobId: string, reason: string) => Promise<void>;

/**
 * The runs of resumable jobs (a bulk send's, a group action's or an outreach batch's step) under way in this process,
 * kept in `job_runs` so that a run whose process died is retried within seconds (issue 31, item 2). pg-boss alone takes
 * a job still `active` for dead only when it expires (3 minutes for a step) and its maintenance has run: a bulk send
 * stalled for two to three minutes after a kill -9. Here:
 * - a run is written before its handler starts and removed once it has ended (its removal is tried again while the
 *   database is away, and the run counts as this process's until then);
 * - every second this process beats for its runs, and hands back to pg-boss (failed, then due now: the retry runs
 *   with the same payload, whose chain rules then decide, decision 0014) every run that is dead: one of this process's
 *   node id that it no longer runs (a restart with the same NODE_ID), any other node's on the embedded database (one
 *   process only), and on PostgreSQL one whose process has not beaten for RUN_DEAD_AFTER_MS;
 * - after this process could not reach the database, it waits RUN_DEAD_AFTER_MS of answers before judging other
 *   processes' runs: they could not beat either.
 */
export class JobRuns {
  private readonly running = new Map<string, string>();
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> | null = null;
  /** Since when the database has answered this process's beats without a failure (0: since the start). */
  private answeringSince = 0;

  /** The resumable queues: their jobs active without a run are looked for too (see RUNLESS_DEAD_AFTER_MS). */
  private readonly queues = new Set<string>();

  constructor(
    private readonly database: DatabaseHandle,
    private readonly nodeId: string,
    private readonly retryNow: RetryNow,
    private readonly log: JobLog,
    private readonly clock: () => number = Date.now,
  ) {}

  /** A queue whose jobs run through `run`. */
  addQueue(queue: string): void {
    this.queues.add(queue);
  }

  /** Runs `handler` as the job's run: recorded while it runs, so its death with this process is noticed. */
  async run<T>(queue: string, jobId: string, handler: () => Promise<T>): Promise<T> {
    this.running.set(jobId, queue);
    try {
      await this.database.db
        .insert(jobRuns)
        .values({ jobId, queue, nodeId: this.nodeId })
        .onConflictDoUpdate({ target: jobRuns.jobId, set: { nodeId: this.nodeId, beatAt: sql`now()` } });
    } catch (err) {
      this.running.delete(jobId);
      throw err;
    }
    try {
      return await handler();
    } finally {
      setTimeout(() => void this.forget(jobId), RUN_KEPT_AFTER_END_MS).unref();
    }
  }

  /** Beats and sweeps every RUN_BEAT_MS from now on, starting with a sweep (the runs a crash left behind). */
  start(): Promise<void> {
    if (!this.timer) {
      this.timer = setInterval(() => void this.tick(), RUN_BEAT_MS);
      this.timer.unref();
    }
    return this.tick();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** One beat and one sweep (at most one at a time); a failure is logged and the next tick tries again. */
  tick(): Promise<void> {
    this.ticking ??= this.beatAndSweep()
      .catch((err: unknown) => {
        this.answeringSince = Number.POSITIVE_INFINITY;
        this.log.warn({ err }, 'job runs: beat or sweep failed; tried again in a second');
      })
      .finally(() => {
        this.ticking = null;
      });
    return this.ticking;
  }

  private async beatAndSweep(): Promise<void> {
    const db = this.database.db;
    const mine = [...this.running.keys()];
    if (mine.length > 0) await db.update(jobRuns).set({ beatAt: sql`now()` }).where(inArray(jobRuns.jobId, mine));
    const now = this.clock();
    if (this.answeringSince === Number.POSITIVE_INFINITY) this.answeringSince = now;
    const ownLost = and(eq(jobRuns.nodeId, this.nodeId), mine.length > 0 ? notInArray(jobRuns.jobId, mine) : undefined);
    const othersDead =
      this.database.kind === 'pglite'
        ? sql`${jobRuns.nodeId} <> ${this.nodeId}`
        : now - this.answeringSince >= RUN_DEAD_AFTER_MS
          ? lt(jobRuns.beatAt, sql`now() - make_interval(secs => ${RUN_DEAD_AFTER_MS / 1000})`)
          : undefined;
    const dead = await db
      .select({ jobId: jobRuns.jobId, queue: jobRuns.queue, nodeId: jobRuns.nodeId })
      .from(jobRuns)
      .where(othersDead ? or(ownLost, othersDead) : ownLost);
    for (const run of dead) {
      if (this.running.has(run.jobId)) continue;
      const reason = `its process (${run.nodeId}) ended while it ran`;
      await this.retryNow(run.queue, run.jobId, reason);
      await db.delete(jobRuns).where(and(eq(jobRuns.jobId, run.jobId), eq(jobRuns.nodeId, run.nodeId)));
      this.log.warn({ job: run.jobId, name: run.queue, node: run.nodeId }, 'job run of a dead process: retried now');
    }
    // A job handed out by pg-boss whose process died before it wrote the run (after this process could not reach the
    // database, not before it has answered for RUN_DEAD_AFTER_MS: a run's removal may have been waiting too).
    if (this.queues.size === 0 || (this.database.kind === 'postgres' && now - this.answeringSince < RUN_DEAD_AFTER_MS)) return;
    const runless = rowsOf<{ id: string; name: string }>(
      await db.execute(
        sql`select j.id, j.name from pgboss.job j
             where j.name = any(${`{${[...this.queues].join(',')}}`}::text[]) and j.state = 'active'
               and j.started_on < now() - make_interval(secs => ${RUNLESS_DEAD_AFTER_MS / 1000})
               and not exists (select 1 from ${jobRuns} r where r.job_id = j.id)`,
      ),
    );
    for (const job of runless) {
      if (this.running.has(job.id)) continue;
      await this.retryNow(job.name, job.id, 'its process ended as it was handed the job');
      this.log.warn({ job: job.id, name: job.name }, 'job handed to a dead process: retried now');
    }
  }

  /** Removes the run once its handler ended; while the database is away it stays this process's and is tried again. */
  private async forget(jobId: string): Promise<void> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        await this.database.db.delete(jobRuns).where(and(eq(jobRuns.jobId, jobId), eq(jobRuns.nodeId, this.nodeId)));
        this.running.delete(jobId);
        return;
      } catch (err) {
        if (attempt === 0) this.log.warn({ err, job: jobId }, 'job runs: could not remove a finished run; tried again every second');
        if (attempt >= 600) {
          this.running.delete(jobId);
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, RUN_BEAT_MS).unref());
      }
    }
  }
}
