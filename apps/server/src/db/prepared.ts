import { PgDialect } from 'drizzle-orm/pg-core';
import type { SQL } from 'drizzle-orm';
import type { Executor } from './client.js';

/** A statement built with `sql.placeholder(...)` values and `.prepare(name)`: run with the placeholders' values. */
export interface PreparedStatement<T> {
  execute(values?: Record<string, unknown>): Promise<T>;
}

const statements = new WeakMap<Executor, Map<string, PreparedStatement<unknown>>>();
/** One statement name per shape, in every database handle and transaction: a connection prepares it once. */
const names = new Map<string, string>();

/**
 * A statement of a fixed shape, built once per database handle instead of on every call: on PostgreSQL it is a
 * named prepared statement, so each pooled connection also parses and plans it once (planning the ticket list's
 * joins cost more than running them). `shape` names what the SQL looks like: one shape, one SQL text, always;
 * everything that varies between calls goes in through placeholders. A transaction builds its own (gone with it)
 * under the same name, which its connection may already have prepared.
 */
export function prepared<T>(db: Executor, shape: string, build: (name: string) => PreparedStatement<T>): PreparedStatement<T> {
  let ofDb = statements.get(db);
  if (!ofDb) {
    ofDb = new Map();
    statements.set(db, ofDb);
  }
  let statement = ofDb.get(shape) as PreparedStatement<T> | undefined;
  if (!statement) {
    let name = names.get(shape);
    if (!name) {
      name = `wadesk_${names.size + 1}`;
      names.set(shape, name);
    }
    statement = build(name);
    ofDb.set(shape, statement as PreparedStatement<unknown>);
  }
  return statement;
}

/**
 * Ids as one PostgreSQL array literal (`{1,2,3}`), for `= any($1::int[])`: one parameter and so one statement for
 * any number of ids, none included, on both drivers.
 */
export function intArrayParam(ids: readonly number[]): string {
  return `{${ids.join(',')}}`;
}

const dialect = new PgDialect();

/**
 * A hand-written statement (`sql` with `sql.placeholder(...)` values) prepared like `prepared`: for what the query
 * builder cannot say, such as a data-modifying CTE. Its result is the driver's (`rowsOf` reads it).
 */
export function preparedSql(db: Executor, shape: string, statement: () => SQL): PreparedStatement<unknown> {
  return prepared(db, shape, (name) => db._.session.prepareQuery(dialect.sqlToQuery(statement()), undefined, name, false));
}
