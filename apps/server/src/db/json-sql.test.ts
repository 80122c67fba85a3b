import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../test/test-database.js';
import { rowsOf, type DatabaseHandle } from './client.js';
import { jsonArrayText, jsonText } from './json-sql.js';

// DTOs written by PostgreSQL as text (jsonText) go out to the browser unparsed: whatever a customer typed must come
// out as valid JSON that parses back to exactly what was stored, on both databases.
let handle: DatabaseHandle;

beforeAll(async () => {
  handle = await openTestDatabase();
  await handle.db.execute(sql`create table j (id int primary key, s text, n int, b boolean, at timestamptz)`);
});

afterAll(async () => {
  await handle?.close();
});

const STRINGS = [
  '',
  'plain',
  'aspas "duplas" e \\ barra',
  'linha 1\nlinha 2\r\n\ttab',
  'controle \u0001\u0008\u000b\u000c\u001f fim',
  "João D'Ávila 😀 </script> \u2028\u2029",
  '{"not":"json inside"}',
];

const { string, scalar, time, constant, when, object } = jsonText;
const row = object({
  id: scalar(sql`id`),
  s: string(sql`s`),
  n: scalar(sql`n`),
  b: scalar(sql`b`),
  at: time(sql`at`),
  nested: object({ empty: constant('[]'), none: constant('null') }),
  maybe: when(sql`b`, object({ s: string(sql`s`) })),
});

describe('JSON written as text by PostgreSQL', () => {
  it('parses back to exactly the stored values, nulls and nested objects included', async () => {
    const times = [new Date('2026-01-02T03:04:05.678Z'), new Date('1999-12-31T23:59:59.000Z'), null];
    const expected = [];
    for (const [i, s] of [...STRINGS, null].entries()) {
      const n = i % 3 === 2 ? null : i * (i % 2 ? -1 : 1) * 1000003;
      const b = i % 3 === 0 ? true : i % 3 === 1 ? false : null;
      const at = times[i % 3]!;
      await handle.db.execute(sql`insert into j values (${i}, ${s}, ${n}, ${b}, ${at?.toISOString() ?? null})`);
      expected.push({ id: i, s, n, b, at: at?.toISOString() ?? null, nested: { empty: [], none: null }, maybe: b ? { s } : null });
    }
    const [result] = rowsOf<{ text: string }>(await handle.db.execute(sql`select ${jsonArrayText(row, sql`id`)} as text from j`));
    expect(typeof result!.text).toBe('string');
    expect(JSON.parse(result!.text)).toEqual(expected);
  });

  it('writes [] for no rows and {} for no keys', async () => {
    const [result] = rowsOf<{ list: string; none: string }>(
      await handle.db.execute(sql`select (select ${jsonArrayText(row, sql`id`)} from j where false) as list, ${object({}).sql} as none`),
    );
    expect(result).toEqual({ list: '[]', none: '{}' });
  });

  it('takes only plain keys', () => {
    expect(() => object({ "a'b": constant('null') })).toThrow(/not a plain JSON key/);
    expect(() => object({ 'a"b': constant('null') })).toThrow(/not a plain JSON key/);
  });
});
