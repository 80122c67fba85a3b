import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { eventually } from '../test/session-helpers.js';
import { queryRows } from '../test/desk-factories.js';
import { useTestApp } from '../test/test-app.js';
import { pollingInterval, type JobDefinition } from './job-queue.js';

const t = useTestApp({ admin: true, user: true });

describe('jobs (pg-boss on the app database)', () => {
  it('retries a job that throws, with backoff, and shows its last error until it succeeds', { timeout: 30_000 }, async () => {
    const attempts: number[] = [];
    const flaky: JobDefinition<z.ZodObject<{ n: z.ZodNumber }>> = {
      name: 'test.flaky',
      payload: z.object({ n: z.number() }),
      handler: async () => {
        attempts.push(Date.now());
        if (attempts.length < 3) throw new Error(`attempt ${attempts.length} failed`);
      },
      retryLimit: 3,
      retryDelaySeconds: 1,
      pollingIntervalSeconds: 0.5,
    };
    const jobs = t.app.services.jobs;
    await jobs.register(flaky);
    const id = await jobs.send(flaky, { n: 1 });

    const failing = await eventually(async () => {
      const job = await jobs.find(id);
      return job?.state === 'retry' ? job : null;
    }, 10_000, 'first failure');
    expect(failing.lastError).toBe('attempt 1 failed');

    const res = await t.call('GET', `/api/jobs/${id}`, { token: t.admin });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, name: 'test.flaky', data: { n: 1 } });
    expect((await t.call('GET', `/api/jobs/${id}`, { token: t.user })).status).toBe(403);

    const done = await eventually(async () => {
      const job = await jobs.find(id);
      return job?.state === 'completed' ? job : null;
    }, 20_000, 'completed');
    expect(done).toMatchObject({ retryCount: 2, lastError: null });
    expect(attempts).toHaveLength(3);
    // Backoff: the second retry waited longer than the first.
    expect(attempts[2]! - attempts[1]!).toBeGreaterThan(attempts[1]! - attempts[0]! - 500);
  });

  it('drains a backlog at once, not one job a polling interval (issue 35 item 6)', { timeout: 30_000 }, async () => {
    const ran: number[] = [];
    const quick: JobDefinition<z.ZodObject<{ n: z.ZodNumber }>> = {
      name: 'test.backlog',
      payload: z.object({ n: z.number() }),
      handler: async ({ n }) => {
        ran.push(n);
      },
      pollingIntervalSeconds: 0.5,
    };
    const jobs = t.app.services.jobs;
    await jobs.register(quick);
    // Queued for a moment from now, so that all 60 are waiting when the worker first finds them.
    const at = new Date(Date.now() + 300);
    for (let n = 0; n < 60; n++) await jobs.send(quick, { n }, { startAfter: at });
    const started = Date.now();
    await eventually(async () => (ran.length === 60 ? true : null), 20_000, 'all 60 jobs run');
    // One a polling interval would take 30 s; waiting for the first poll plus the runs takes well under 10.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(new Set(ran).size).toBe(60);
  });

  it('runs a batch side by side, each job ended on its own: one that throws is retried, the others complete', { timeout: 30_000 }, async () => {
    const attempts = new Map<number, number>();
    let running = 0;
    let mostAtOnce = 0;
    const batched: JobDefinition<z.ZodObject<{ n: z.ZodNumber }>> = {
      name: 'test.batched',
      payload: z.object({ n: z.number() }),
      handler: async ({ n }) => {
        attempts.set(n, (attempts.get(n) ?? 0) + 1);
        running++;
        mostAtOnce = Math.max(mostAtOnce, running);
        await new Promise((resolve) => setTimeout(resolve, 50));
        running--;
        if (n === 3 && attempts.get(n) === 1) throw new Error('job 3 failed once');
        return { n };
      },
      batchSize: 10,
      retryLimit: 2,
      retryDelaySeconds: 1,
      pollingIntervalSeconds: 0.5,
    };
    const jobs = t.app.services.jobs;
    await jobs.register(batched);
    const at = new Date(Date.now() + 2000);
    const ids: string[] = [];
    for (let n = 0; n < 10; n++) ids.push(await jobs.send(batched, { n }, { startAfter: at }));
    // Waiting, as the metrics' wadesk_job_queue_depth shows them.
    expect((await jobs.stats()).find((q) => q.name === 'test.batched')).toEqual({ name: 'test.batched', queued: 10, failed: 0 });
    const states = await eventually(async () => {
      const all = await Promise.all(ids.map((id) => jobs.find(id)));
      return all.every((job) => job?.state === 'completed') ? all : null;
    }, 20_000, 'all completed');
    expect(mostAtOnce).toBeGreaterThan(1);
    expect(attempts.get(3)).toBe(2);
    expect([...attempts.entries()].filter(([n]) => n !== 3).every(([, count]) => count === 1)).toBe(true);
    expect(states[5]).toMatchObject({ output: { n: 5 }, retryCount: 0 });
    expect(states[3]).toMatchObject({ retryCount: 1 });
  });

  it('runs a batch in lanes: one lane\'s jobs one after another in the order queued, the lanes side by side', { timeout: 30_000 }, async () => {
    const log: string[] = [];
    let running = 0;
    let mostAtOnce = 0;
    const laned: JobDefinition<z.ZodObject<{ lane: z.ZodOptional<z.ZodNumber>; n: z.ZodNumber }>> = {
      name: 'test.laned',
      payload: z.object({ lane: z.number().optional(), n: z.number() }),
      handler: async ({ lane, n }) => {
        running++;
        mostAtOnce = Math.max(mostAtOnce, running);
        log.push(`start ${lane ?? '-'}:${n}`);
        // The first job of each lane is the slowest: a lane run side by side would start its second one first.
        await new Promise((resolve) => setTimeout(resolve, n === 0 ? 120 : 20));
        log.push(`end ${lane ?? '-'}:${n}`);
        running--;
        return { n };
      },
      batchSize: 25,
      laneOf: (data) => data.lane,
      pollingIntervalSeconds: 0.5,
    };
    const jobs = t.app.services.jobs;
    await jobs.register(laned);
    const at = new Date(Date.now() + 1500);
    const ids: string[] = [];
    // Queued lane by lane interleaved: 1:0, 2:0, -:0, 1:1, 2:1, -:1, …
    for (let n = 0; n < 4; n++) for (const lane of [1, 2, undefined]) ids.push(await jobs.send(laned, { lane, n }, { startAfter: at }));
    await eventually(async () => ((await Promise.all(ids.map((id) => jobs.find(id)))).every((job) => job?.state === 'completed') ? true : null), 20_000, 'all completed');
    for (const lane of ['1', '2', '-']) {
      const own = log.filter((entry) => entry.split(' ')[1]!.startsWith(`${lane}:`));
      // Each job of the lane starts after the one before it ended, in the order queued.
      expect(own).toEqual([0, 1, 2, 3].flatMap((n) => [`start ${lane}:${n}`, `end ${lane}:${n}`]));
    }
    // The three lanes ran at the same time.
    expect(mostAtOnce).toBe(3);
  });

  it('refuses a payload that does not match its schema before queueing it', async () => {
    const strict: JobDefinition<z.ZodObject<{ campaignId: z.ZodNumber }>> = {
      name: 'test.strict',
      payload: z.object({ campaignId: z.number().int() }),
      handler: async () => undefined,
    };
    await t.app.services.jobs.register(strict);
    await expect(t.app.services.jobs.send(strict, { campaignId: 'x' as unknown as number })).rejects.toThrow();
  });

  it('answers 404 ERR_NO_JOB_FOUND for an unknown job and 400 for an id that is not one', async () => {
    const missing = await t.call('GET', '/api/jobs/00000000-0000-4000-8000-000000000000', { token: t.admin });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('ERR_NO_JOB_FOUND');
    expect((await t.call('GET', '/api/jobs/1%27%20or%201=1', { token: t.admin })).status).toBe(400);
  });

  it('runs ticket auto-close and the campaign watchdog as pg-boss schedules', async () => {
    const rows = await queryRows<{ name: string; cron: string }>(t, 'select name, cron from pgboss.schedule order by name');
    expect(rows).toEqual(
      expect.arrayContaining([
        { name: 'campaign.watchdog', cron: '* * * * *' },
        { name: 'tickets.auto-close', cron: '*/5 * * * *' },
      ]),
    );
  });
});

describe('polling intervals', () => {
  it('differ between processes: the definition\'s, lengthened by up to half at random (never below it)', () => {
    expect(pollingInterval(0.5, () => 0)).toBe(0.5);
    expect(pollingInterval(0.5, () => 0.5)).toBe(0.625);
    expect(pollingInterval(0.5, () => 0.9999)).toBeLessThanOrEqual(0.75);
    expect(pollingInterval(2, () => 1)).toBe(3);
  });
});
