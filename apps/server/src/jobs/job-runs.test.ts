import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { jobRuns } from '../db/schema.js';
import { useTestApp } from '../test/test-app.js';
import { JobRuns, RUN_DEAD_AFTER_MS } from './job-runs.js';

const t = useTestApp();
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** Issue 31, item 2: the runs a dead process left are retried at once, the live ones never. */
describe('job runs of dead processes', () => {
  it('retries the runs a dead process left and none of a live one, and keeps its own while they run', async () => {
    const database = t.app.database;
    const retried: { queue: string; jobId: string }[] = [];
    const retryNow = async (queue: string, jobId: string) => {
      retried.push({ queue, jobId });
    };
    const stale = sql`now() - make_interval(secs => ${(RUN_DEAD_AFTER_MS + 4000) / 1000})`;
    const fresh = sql`now()`;
    const run = (nodeId: string, beatAt: typeof stale) => ({ jobId: randomUUID(), queue: 'test.step', nodeId, beatAt });
    const deadOther = run('dead-node', stale); // killed: no beat for longer than RUN_DEAD_AFTER_MS
    const liveOther = run('live-node', fresh); // another process beating now
    const mineBefore = run('me', fresh); // this node's, from before a restart with the same NODE_ID
    await database.db.insert(jobRuns).values([deadOther, liveOther, mineBefore]);

    const runs = new JobRuns(database, 'me', retryNow, quiet);
    let release!: () => void;
    const running = runs.run('test.step', randomUUID(), () => new Promise<void>((resolve) => (release = resolve)));
    await runs.tick();

    const ids = retried.map((r) => r.jobId);
    expect(ids).toContain(deadOther.jobId);
    expect(ids).toContain(mineBefore.jobId);
    // On PostgreSQL several processes share the database: a process that beats is alive. The embedded database has
    // one process, so any other node's run is dead.
    if (database.kind === 'postgres') expect(ids).not.toContain(liveOther.jobId);
    else expect(ids).toContain(liveOther.jobId);
    expect(retried).toHaveLength(ids.length);
    const left = await database.db.select({ jobId: jobRuns.jobId }).from(jobRuns);
    // The retried ones are gone; the running one is kept (and the live process's, on PostgreSQL).
    expect(left.some((r) => ids.includes(r.jobId))).toBe(false);
    expect(left).toHaveLength(database.kind === 'postgres' ? 2 : 1);

    release();
    await running;
    // Removed a moment after it ended (RUN_KEPT_AFTER_END_MS), once pg-boss has recorded the end.
    await expect.poll(async () => (await database.db.select().from(jobRuns)).filter((r) => r.nodeId === 'me').length, { timeout: 10_000 }).toBe(0);
    await database.db.delete(jobRuns);
  });
});
