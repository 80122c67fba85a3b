import { sql, type SQL } from 'drizzle-orm';

/** A timestamp as `Date.prototype.toISOString` writes it (milliseconds, UTC), built by PostgreSQL. */
export const isoTime = (column: SQL): SQL => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
