/**
 * A server's statements by kind, for a benchmark's "statements a message" (issue 35 item 6): preloaded into the server
 * (`--node-flags='--import ./bench/lib/count-statements.mjs'` of bench/menus or bench/ingest), it counts every statement
 * the process hands to pg (its first 100 characters, pg-boss's with their queue) with the time until its answer, and
 * writes the table, most frequent first, to $COUNT_STATEMENTS_DIR/statements-<pid>.txt (default the system's temporary
 * folder) every 2 s. Divide by the run's messages.
 */
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

const pg = createRequire(new URL('../../apps/server/package.json', import.meta.url))('pg');
const counts = new Map();
const query = pg.Client.prototype.query;

pg.Client.prototype.query = function countedQuery(config, ...rest) {
  const text = typeof config === 'string' ? config : (config?.text ?? '');
  const values = Array.isArray(rest[0]) ? rest[0] : config?.values;
  const queue = text.includes('pgboss') && typeof values?.[0] === 'string' ? ` [${values[0]}]` : '';
  const key = text.replace(/\s+/g, ' ').trim().slice(0, 100) + queue;
  const entry = counts.get(key) ?? { n: 0, ms: 0 };
  counts.set(key, entry);
  entry.n += 1;
  const started = performance.now();
  const answered = () => {
    entry.ms += performance.now() - started;
  };
  // pg answers through a callback (the pool's way) or a promise.
  const last = rest.length - 1;
  if (typeof rest[last] === 'function') {
    const callback = rest[last];
    rest[last] = (...args) => (answered(), callback(...args));
  } else if (typeof config?.callback === 'function') {
    const callback = config.callback;
    config.callback = (...args) => (answered(), callback(...args));
  }
  const result = query.call(this, config, ...rest);
  if (typeof result?.then === 'function') result.then(answered, answered);
  return result;
};

const file = path.join(process.env.COUNT_STATEMENTS_DIR ?? os.tmpdir(), `statements-${process.pid}.txt`);
setInterval(() => {
  const rows = [...counts].sort((a, b) => b[1].n - a[1].n).map(([key, { n, ms }]) => `${String(n).padStart(8)} ${(ms / n).toFixed(2).padStart(8)} ms  ${key}`);
  writeFileSync(file, `   count  mean wait  statement\n${rows.join('\n')}\n`);
}, 2000).unref();
