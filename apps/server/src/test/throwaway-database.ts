import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../db/client.js';

async function run(connectionString: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * A new, empty database on the PostgreSQL server of `baseUrl` (tests, benchmarks); closing the handle drops it.
 */
export async function openThrowawayDatabase(baseUrl: string, prefix: string, poolSize: number): Promise<DatabaseHandle> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await run(baseUrl, `create database ${name}`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ databaseUrl: url.toString(), poolSize });
  return {
    ...handle,
    async close() {
      await handle.close();
      await run(baseUrl, `drop database if exists ${name} with (force)`);
    },
  };
}
