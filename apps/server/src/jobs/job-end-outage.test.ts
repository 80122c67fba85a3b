import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openDatabase, type DatabaseHandle } from '../db/client.js';
import { eventually } from '../test/session-helpers.js';
import { TcpProxy } from '../test/tcp-proxy.js';
import { databaseUrl, runStatement } from '../test/throwaway-database.js';
import { JobQueue, untilRecorded, type JobDefinition } from './job-queue.js';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe('the record of a job end (issue 31)', () => {
  it('is tried again while the database cannot be reached, and not for other errors', async () => {
    let calls = 0;
    const unavailable = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    const recorded = await untilRecorded(
      async () => {
        calls += 1;
        if (calls < 3) throw unavailable;
        return 'ok';
      },
      quiet,
      5000,
      10,
    );
    expect(recorded).toBe('ok');
    expect(calls).toBe(3);

    calls = 0;
    const syntax = Object.assign(new Error('syntax error'), { code: '42601' });
    await expect(untilRecorded(async () => (calls += 1) && Promise.reject(syntax), quiet, 5000, 10)).rejects.toBe(syntax);
    expect(calls).toBe(1);

    // A database still away after the bound: the failure is the caller's again.
    await expect(untilRecorded(() => Promise.reject(unavailable), quiet, 50, 10)).rejects.toBe(unavailable);
  });
});

/**
 * A database outage while a job runs: pg-boss 10's worker records the job's end without waiting for it, so on
 * yesterday's code the failed record was an unhandled rejection (it ended the server) and the job stayed active
 * until it expired. Needs a PostgreSQL server (the embedded database cannot go away).
 */
const baseUrl = process.env.DATABASE_URL;

describe.skipIf(!baseUrl)('a job whose database goes away while it runs', () => {
  const name = `wadesk_jobend_${randomBytes(5).toString('hex')}`;
  let proxy: TcpProxy;
  let database: DatabaseHandle;
  let jobs: JobQueue;
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown) => rejections.push(reason);

  beforeAll(async () => {
    await runStatement(baseUrl!, `create database ${name}`);
    const target = new URL(baseUrl!);
    proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
    const port = await proxy.start();
    const url = new URL(databaseUrl(baseUrl!, name));
    url.host = `127.0.0.1:${port}`;
    database = await openDatabase({ databaseUrl: url.toString(), poolSize: 4 });
    jobs = await JobQueue.start(database, { log: quiet });
    process.on('unhandledRejection', onRejection);
  });

  afterAll(async () => {
    process.off('unhandledRejection', onRejection);
    await proxy.restore();
    await jobs?.stop(2000).catch(() => undefined);
    await database?.close().catch(() => undefined);
    await runStatement(baseUrl!, `drop database if exists ${name} with (force)`);
    await proxy.cut();
  });

  it('is recorded completed once the database is back, with no unhandled rejection', { timeout: 60_000 }, async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let started = false;
    const slow: JobDefinition<z.ZodObject> = {
      name: 'test.outage',
      payload: z.object({}),
      handler: async () => {
        started = true;
        await released;
        return { done: true };
      },
      pollingIntervalSeconds: 0.5,
      expireInSeconds: 600,
    };
    await jobs.register(slow);
    const id = await jobs.send(slow, {});
    await eventually(async () => started, 10_000, 'the job started');

    await proxy.cut();
    release(); // the handler ends while the database is away: its end cannot be recorded now
    await new Promise((resolve) => setTimeout(resolve, 3000));
    await proxy.restore();

    const direct = new pg.Client({ connectionString: databaseUrl(baseUrl!, name) });
    await direct.connect();
    try {
      const state = await eventually(
        async () => {
          const { rows } = await direct.query<{ state: string }>('select state from pgboss.job where id = $1', [id]);
          return rows[0]?.state === 'completed' ? rows[0].state : null;
        },
        15_000,
        'the job recorded completed',
      );
      expect(state).toBe('completed');
    } finally {
      await direct.end();
    }
    expect(rejections).toEqual([]);
  });
});
