import { sql, type SQL } from 'drizzle-orm';

/** A timestamp as `Date.prototype.toISOString` writes it (milliseconds, UTC), built by PostgreSQL. */
export const isoTime = (column: SQL): SQL => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * A JSON value as PostgreSQL text, never SQL null (JSON's `null` instead): what `jsonText`'s builders make and
 * `jsonText.object` joins. A DTO written this way costs PostgreSQL about a quarter less than `json_build_object`
 * (which looks up each argument's type and output function on every call, and writes `"key" : value` with spaces
 * that then cross the wire: issue 11), and only the strings go through `to_json`, which escapes them.
 */
export class JsonText {
  constructor(readonly sql: SQL) {}
}

const KEY = /^[A-Za-z][A-Za-z0-9]*$/;

export const jsonText = {
  /** A text column or expression: a JSON string (escaped by `to_json`), or null. */
  string: (value: SQL) => new JsonText(sql`coalesce(to_json(${value})::text, 'null')`),
  /** An integer or boolean column or expression: its text is its JSON (`12`, `true`), or null. Not for floats (NaN). */
  scalar: (value: SQL) => new JsonText(sql`coalesce((${value})::text, 'null')`),
  /** A timestamp as `isoTime` writes it, quoted, or null. */
  time: (value: SQL) => new JsonText(sql`coalesce('"' || ${isoTime(value)} || '"', 'null')`),
  /** A constant: `[]`, `{}` or `null`. */
  constant: (value: '[]' | '{}' | 'null') => new JsonText(sql.raw(`'${value}'`)),
  /** `value` where `condition` holds, null elsewhere (a joined row that may be missing). */
  when: (condition: SQL, value: JsonText) => new JsonText(sql`case when ${condition} then ${value.sql} else 'null' end`),
  /** An object of these keys (letters and digits, fixed by the code) and values, in this order. */
  object(fields: Record<string, JsonText>): JsonText {
    const parts: SQL[] = [];
    let separator = '{';
    for (const [key, value] of Object.entries(fields)) {
      if (!KEY.test(key)) throw new Error(`not a plain JSON key: ${key}`);
      parts.push(sql.raw(`'${separator}"${key}":' || `), value.sql, sql.raw(' || '));
      separator = ',';
    }
    parts.push(sql.raw(separator === '{' ? `'{}'` : `'}'`));
    return new JsonText(sql`(${sql.join(parts)})`);
  },
};

/** The JSON array text of `value` over an aggregate's rows in this order (`[]` for none). */
export const jsonArrayText = (value: JsonText, order: SQL): SQL =>
  sql`'[' || coalesce(string_agg(${value.sql}, ',' order by ${order}), '') || ']'`;
