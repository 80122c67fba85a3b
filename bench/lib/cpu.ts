import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time read from /proc, for figures that barely move when other work shares the machine (a benchmark's
 * requests/s do): CPU spent per request or per message tells whether a change made the work cheaper.
 */

/** CPU time of a process so far (ms): utime + stime of /proc/PID/stat, in clock ticks of 10 ms. */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** CPU time (ms) of the PostgreSQL backends connected to `database` (their title names it): a server's pool. */
export function postgresCpuMs(database: string): number {
  let total = 0;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const title = readFileSync(`/proc/${name}/cmdline`, 'utf8');
      if (title.startsWith('postgres: ') && title.includes(` ${database} `)) total += cpuMs(Number(name));
    } catch {
      // the process ended
    }
  }
  return total;
}
