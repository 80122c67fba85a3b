import { pathToFileURL } from 'node:url';
import pg from 'pg';

/**
 * How fast this machine is today, in work the desk does, so that figures of two runs can be compared: the same
 * code measured 728 open-list requests/s on one day's machine and 223 on another's (2026-11-25), both "2 cores,
 * AMD EPYC". Reported beside every `npm run bench`; a run whose calibration is lower by a factor is slower by
 * about that factor, not by the code.
 */
export interface Calibration {
  /** A 40-message page serialized and parsed, per second, one thread (best of 3 rounds of 0.5 s). */
  nodePages: number;
  /** `select $1::int` round trips per second on one connection to PostgreSQL (1 s); null when none answers. */
  postgresRoundTrips: number | null;
  /** PostgreSQL's time to count a million generated rows (ms, best of 3). */
  postgresCountMs: number | null;
}

function page(): unknown {
  return Array.from({ length: 40 }, (_, i) => ({
    id: 1_000_000 + i,
    ticketId: 4242,
    body: `Bom dia! Gostaria de saber o prazo de entrega do pedido ${i}, que ainda não chegou. Obrigado, João.`,
    fromMe: i % 3 === 0,
    read: true,
    ack: 3,
    mediaType: 'chat',
    createdAt: new Date(1_764_000_000_000 + i * 60_000).toISOString(),
    contact: { id: 77, name: 'Conceição Araújo', number: '5511987654321' },
  }));
}

export function nodePagesPerSecond(): number {
  const data = page();
  let best = 0;
  for (let round = 0; round < 3; round++) {
    let pages = 0;
    const started = performance.now();
    while (performance.now() - started < 500) {
      for (let i = 0; i < 20; i++) JSON.parse(JSON.stringify(data));
      pages += 20;
    }
    best = Math.max(best, pages / ((performance.now() - started) / 1000));
  }
  return Math.round(best);
}

export async function postgresScores(url: string): Promise<{ roundTrips: number; countMs: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const query = { name: 'calibrate_round_trip', text: 'select $1::int as n', values: [1] };
    await client.query(query);
    let roundTrips = 0;
    const started = performance.now();
    while (performance.now() - started < 1000) {
      await client.query(query);
      roundTrips++;
    }
    const perSecond = roundTrips / ((performance.now() - started) / 1000);
    let countMs = Infinity;
    for (let round = 0; round < 3; round++) {
      const t0 = performance.now();
      await client.query('select count(*) from generate_series(1, 1000000)');
      countMs = Math.min(countMs, performance.now() - t0);
    }
    return { roundTrips: Math.round(perSecond), countMs: Math.round(countMs) };
  } finally {
    await client.end();
  }
}

export async function calibrate(postgresUrl: string): Promise<Calibration> {
  const nodePages = nodePagesPerSecond();
  const postgres = await postgresScores(postgresUrl).catch(() => null);
  return { nodePages, postgresRoundTrips: postgres?.roundTrips ?? null, postgresCountMs: postgres?.countMs ?? null };
}

export function calibrationLine(c: Calibration): string {
  const postgres =
    c.postgresRoundTrips === null
      ? 'no PostgreSQL answered'
      : `PostgreSQL ${c.postgresRoundTrips.toLocaleString('en-US')} round trips/s on one connection, a million-row count in ${c.postgresCountMs} ms`;
  return `Calibration (bench/lib/calibrate.ts): Node ${c.nodePages.toLocaleString('en-US')} message pages/s; ${postgres}.`;
}

/** `npx tsx bench/lib/calibrate.ts`: this machine's calibration now (PostgreSQL from DATABASE_URL or loopback). */
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  calibrate(url)
    .then((c) => console.log(calibrationLine(c)))
    .catch((err: unknown) => {
      console.error(err);
      process.exit(1);
    });
}
