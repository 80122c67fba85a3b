import { readFile } from 'node:fs/promises';
import { inject } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../db/client.js';
import { openThrowawayDatabase } from './throwaway-database.js';

/**
 * A fresh, empty database for one test file: a new database on the PostgreSQL server of DATABASE_URL,
 * or an in-memory PGlite started from the migrated template.
 */
export async function openTestDatabase(): Promise<DatabaseHandle> {
  const baseUrl = process.env.DATABASE_URL;
  if (baseUrl) return openThrowawayDatabase(baseUrl, 'wadesk_test', 5);
  const template = await readFile(inject('pgliteTemplate'));
  return openDatabase({ loadDataDir: new Blob([template]) });
}
