/**
 * CPU time of the PostgreSQL backends of one client (by their application_name, PGAPPNAME in its environment),
 * whatever else uses the same database: postgresCpuMs counts every backend of a database, another session's
 * benchmark included. The backends are sampled while they run (every 100 ms): pgbench's sessions end with its run,
 * and their time leaves /proc with them.
 */
import pg from 'pg';
import { cpuMs } from './cpu.js';

export interface BackendCpu {
  /** Stops sampling and gives the backends' CPU time (ms) since the tracking started. */
  stop(): Promise<number>;
}

export async function trackBackendCpu(url: string, applicationName: string): Promise<BackendCpu> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  /** Each backend's CPU when first seen (0 for one that started after the tracking), and when last seen. */
  const first = new Map<number, number>();
  const last = new Map<number, number>();
  let started = false;
  const sample = async () => {
    const { rows } = await client.query<{ pid: number }>('select pid from pg_stat_activity where application_name = $1', [applicationName]);
    for (const { pid } of rows) {
      try {
        const ms = cpuMs(pid);
        if (!first.has(pid)) first.set(pid, started ? 0 : ms);
        last.set(pid, ms);
      } catch {
        // the backend ended
      }
    }
    started = true;
  };
  await sample();
  let sampling: Promise<void> = Promise.resolve();
  let failure: unknown;
  const timer = setInterval(() => {
    sampling = sampling.then(sample).catch((err: unknown) => {
      failure ??= err;
    });
  }, 100);
  return {
    stop: async () => {
      clearInterval(timer);
      try {
        await sampling;
        await sample();
      } finally {
        await client.end();
      }
      if (failure) throw failure;
      let total = 0;
      for (const [pid, ms] of last) total += ms - first.get(pid)!;
      return total;
    },
  };
}
