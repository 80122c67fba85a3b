import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../test/desk-factories.js';
import { useTestApp } from '../test/test-app.js';
import { JobQueue, type JobDefinition } from './job-queue.js';

const t = useTestApp({});
const quiet = { info() {}, warn() {}, error() {} };

/**
 * Stopping the job queue (app shutdown, before the database closes) waits for what is under way: a job fetched just
 * as the stop began runs to its end and its completion is stored, so nothing reaches a closed database afterwards
 * (the "Cannot use a pool after calling end" of a shutdown under load).
 */
describe('stopping the job queue', () => {
  it('leaves no job running and none half done, however close to a send the stop comes', { timeout: 60_000 }, async () => {
    const outcomes: { gapMs: number; started: boolean; finished: boolean; state: string }[] = [];
    for (const gapMs of [0, 1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20]) {
      const queue = await JobQueue.start(t.app.database, { log: quiet });
      let started = false;
      let finished = false;
      // A queue of its own per round: a job an earlier round left waiting must not be the one this round's worker runs.
      const slow: JobDefinition<z.ZodObject<{ n: z.ZodNumber }>> = {
        name: `test.stop-slow-${gapMs}`,
        payload: z.object({ n: z.number() }),
        pollingIntervalSeconds: 0.5,
        handler: async ({ n }) => {
          expect(n).toBe(gapMs);
          started = true;
          await new Promise((resolve) => setTimeout(resolve, 300));
          finished = true;
        },
      };
      await queue.register(slow);
      const id = await queue.send(slow, { n: gapMs });
      await new Promise((resolve) => setTimeout(resolve, gapMs));
      await queue.stop(5000);
      const [row] = await queryRows<{ state: string }>(t, sql`select state from pgboss.job where id = ${id}`);
      outcomes.push({ gapMs, started, finished, state: row!.state });
    }
    for (const outcome of outcomes) {
      // Either it never started (left for the next process) or it ran to its end and its completion is stored.
      if (outcome.started) expect(outcome).toMatchObject({ finished: true, state: 'completed' });
      else expect(['created', 'retry']).toContain(outcome.state);
    }
  });
});
