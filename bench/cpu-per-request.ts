/**
 * bench/cpu-per-request: the server's own CPU time per request (user + system, from /proc), for a fixed number of
 * requests of each scenario. Unlike requests/s, it barely moves when other work shares the machine, so it tells
 * whether a change made a request cheaper for the server.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/wadesk_bench npx tsx bench/cpu-per-request.ts [--only open,messages-first] [--requests 3000]
 *   [--entry apps/server/dist-base/main.js] (another build of the server, to compare two on the same data set)
 */
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { readFacts, scenarios } from './api.js';
import { cpuMs, postgresCpuMs } from './lib/cpu.js';
import { openDatabase } from '../apps/server/src/db/client.js';
import { postgresUrl, signIn, startServer } from './lib/server-process.js';
import { SEED_PASSWORD } from './seed/data-set.js';

const { values } = parseArgs({ options: { only: { type: 'string' }, requests: { type: 'string', default: '3000' }, connections: { type: 'string', default: '16' }, 'cpu-prof': { type: 'string' }, entry: { type: 'string' } } });
const url = process.env.DATABASE_URL ?? postgresUrl('wadesk_bench');
const database = new URL(url).pathname.slice(1);
const handle = await openDatabase({ databaseUrl: url, poolSize: 1 });
const facts = await readFacts(handle);
await handle.close();
const only = values.only?.split(',');
const list = scenarios(facts).filter((s) => !only || only.includes(s.key));
const server = await startServer({ database: { kind: 'postgres', url }, entry: values.entry, nodeArgs: values['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${values['cpu-prof']}`] : [] });
try {
  const tokens = {
    admin: await signIn(server.baseUrl, 'admin@bench.local', SEED_PASSWORD),
    attendant: await signIn(server.baseUrl, 'attendant1@bench.local', SEED_PASSWORD),
  };
  const amount = Number(values.requests);
  for (const scenario of list) {
    const run = (n: number) =>
      autocannon({ url: `${server.baseUrl}${scenario.path}`, connections: Number(values.connections), amount: n, headers: { authorization: `Bearer ${tokens[scenario.as]}` } });
    await run(Math.min(500, amount)); // warm-up
    const before = { server: cpuMs(server.pid), postgres: postgresCpuMs(database), client: process.cpuUsage() };
    const result = await run(amount);
    const perRequest = (ms: number) => `${((ms / amount) * 1000).toFixed(0).padStart(5)} µs`;
    const client = process.cpuUsage(before.client);
    console.log(
      `${scenario.key.padEnd(16)} server ${perRequest(cpuMs(server.pid) - before.server)}  postgres ${perRequest(postgresCpuMs(database) - before.postgres)}  autocannon ${perRequest((client.user + client.system) / 1000)}` +
        `  | ${Math.round(result.requests.average)} req/s, p99 ${result.latency.p99} ms, errors ${result.errors + result.non2xx}`,
    );
  }
} finally {
  await server.stop();
}
