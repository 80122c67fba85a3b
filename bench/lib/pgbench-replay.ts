/**
 * One request's statements, as captured on the wire (bench/lib/wire-capture.ts), replayed by pgbench: PostgreSQL
 * alone doing what the server asks of it for that request (issue 35 item 3).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { trackBackendCpu } from './backend-cpu.js';
import { percentile } from './server-process.js';
import type { CapturedStatement } from './wire-capture.js';

/**
 * pgbench reads any `:name` of a script as a variable, in string literals too (`to_char(…, 'HH24:MI:SS')`): such a
 * literal is written as the same string in PostgreSQL's Unicode escapes (`U&'HH24\003AMI\003ASS'`), which PostgreSQL
 * reads as the same constant. Any `:name` left (outside literals, a `::` cast aside) is refused.
 */
function withoutColonNames(text: string): string {
  const colonName = /:[A-Za-z_]/;
  const rewritten = text.replace(/(?<![\w&])'((?:[^']|'')*)'/g, (literal, content: string) =>
    colonName.test(content) ? `U&'${content.replaceAll('\\', '\\\\').replaceAll(':', '\\003A')}'` : literal,
  );
  if (colonName.test(rewritten.replace(/'(?:[^']|'')*'/g, "''").replaceAll('::', ''))) throw new Error(`pgbench would read a variable in: ${text}`);
  return rewritten;
}

/**
 * One request's statements as a pgbench script: each connection's statements in their order, `$n` written as a pgbench
 * variable (a parameter under -M prepared, as the server's were) whose value is given with -D.
 */
export function pgbenchScript(statements: CapturedStatement[]): { script: string; variables: string[] } {
  const ordered = [...statements].sort((a, b) => a.connection - b.connection);
  const variables: string[] = [];
  const lines = ordered.map((s, i) => {
    if (s.binary) throw new Error(`a statement with a binary parameter cannot be replayed: ${s.text}`);
    const text = withoutColonNames(s.text.trim()).replace(/\$(\d+)/g, (_, n: string) => {
      const value = s.params[Number(n) - 1];
      if (value === undefined) throw new Error(`$${n} without a value in: ${s.text}`);
      if (value === null) return 'null';
      variables.push(`s${i + 1}_${n}=${value}`);
      return `:s${i + 1}_${n}`;
    });
    const how = s.named ? 'a named statement (prepared once a session, as pgbench does)' : 'the unnamed statement (parsed and planned at each run)';
    return `-- ${i + 1}: the server ran it as ${how}\n${text.endsWith(';') ? text : `${text};`}`;
  });
  return { script: `${lines.join('\n')}\n`, variables };
}

export interface PgbenchFigures {
  tps: number;
  latencyMs: number;
  p99: number;
  /** PostgreSQL's CPU time per transaction (µs). */
  cpuUs: number;
}

/**
 * pgbench's run of one script (-M prepared, `clients` clients on 2 threads, after a 1 s warm-up), its sessions read-only
 * and named `applicationName`: its tps and latencies (the p99 from its per-transaction log) and PostgreSQL's CPU.
 */
export async function runPgbench(options: { url: string; script: string; variables: string[]; seconds: number; clients: number; applicationName: string }): Promise<PgbenchFigures> {
  const { url, script, variables, seconds } = options;
  const target = new URL(url);
  const dir = mkdtempSync(path.join(tmpdir(), 'wadesk-ceiling-'));
  try {
    writeFileSync(path.join(dir, 'request.sql'), script);
    const run = (runSeconds: number, log: boolean) =>
      promisify(execFile)(
        'pgbench',
        [
          ...['-M', 'prepared', '-c', String(options.clients), '-j', '2', '-T', String(runSeconds), '-n', '-f', path.join(dir, 'request.sql')],
          ...(log ? ['-l', '--log-prefix', path.join(dir, 'tx')] : []),
          ...variables.flatMap((v) => ['-D', v]),
          ...['-h', target.hostname, '-p', target.port || '5432', '-U', decodeURIComponent(target.username) || 'postgres', target.pathname.slice(1)],
        ],
        { env: { ...process.env, PGAPPNAME: options.applicationName, PGOPTIONS: '-c default_transaction_read_only=on' }, timeout: (runSeconds + 60) * 1000, maxBuffer: 1 << 20 },
      );
    await run(1, false); // warm-up: plans prepared, pages in the buffer cache
    const backends = await trackBackendCpu(url, options.applicationName);
    const { stdout } = await run(seconds, true);
    const postgresMs = await backends.stop();
    const latencies = readdirSync(dir)
      .filter((f) => f.startsWith('tx.'))
      .flatMap((f) => readFileSync(path.join(dir, f), 'utf8').trim().split('\n'))
      .map((line) => Number(line.split(' ')[2]) / 1000)
      .sort((a, b) => a - b);
    return {
      tps: Math.round(Number(/tps = ([\d.]+)/.exec(stdout)?.[1] ?? 0)),
      latencyMs: Number(/latency average = ([\d.]+) ms/.exec(stdout)?.[1] ?? 0),
      p99: Math.round(percentile(latencies, 0.99) * 10) / 10,
      cpuUs: Math.round((postgresMs * 1000) / Math.max(1, latencies.length)),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
