import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { inject } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../db/client.js';

/**
 * A fresh, empty database for one test file: a new database on the PostgreSQL server of DATABASE_URL,
 * or an in-memory PGlite started from the migrated template.
 */
export async function openTestDatabase(): Promise<DatabaseHandle> {
  const baseUrl = process.env.DATABASE_URL;
  if (!baseUrl) {
    const template = await readFile(inject('pgliteTemplate'));
    return openDatabase({ loadDataDir: new Blob([template]) });
  }
  const name = `wadesk_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ databaseUrl: url.toString(), poolSize: 5 });
  return {
    ...handle,
    async close() {
      await handle.close();
      const dropper = new pg.Client({ connectionString: baseUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}
