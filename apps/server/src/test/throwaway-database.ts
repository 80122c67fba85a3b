import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../db/client.js';

/** Runs one statement on its own connection (create or drop a database, which no pool connection may do). */
export async function runStatement(connectionString: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** `url` with its database name replaced by `name` (the same server, user and options). */
export function databaseUrl(url: string, name: string): string {
  const named = new URL(url);
  named.pathname = `/${name}`;
  return named.toString();
}

/**
 * A new, empty database on the PostgreSQL server of `baseUrl` (tests, benchmarks); closing the handle drops it.
 */
export async function openThrowawayDatabase(baseUrl: string, prefix: string, poolSize: number): Promise<DatabaseHandle> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await runStatement(baseUrl, `create database ${name}`);
  const handle = await openDatabase({ databaseUrl: databaseUrl(baseUrl, name), poolSize });
  return {
    ...handle,
    async close() {
      await handle.close();
      await runStatement(baseUrl, `drop database if exists ${name} with (force)`);
    },
  };
}
