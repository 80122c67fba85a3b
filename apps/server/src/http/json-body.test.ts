import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../test/desk-factories.js';
import { useTestApp } from '../test/test-app.js';
import { jsonDepthOver, MAX_JSON_DEPTH, parseJsonText } from './json-body.js';

const t = useTestApp({ admin: true });

/** `{"a":{"a":...1...}}`, `depth` objects deep. */
const nestedObject = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
const nestedArray = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('jsonDepthOver', () => {
  it('counts arrays and objects, not brackets inside strings', () => {
    expect(jsonDepthOver(nestedArray(MAX_JSON_DEPTH))).toBe(false);
    expect(jsonDepthOver(nestedArray(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(jsonDepthOver(nestedObject(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(jsonDepthOver(JSON.stringify({ text: '['.repeat(1000), quote: '\\"{{{{' }))).toBe(false);
    expect(jsonDepthOver('[[1],[2],[[3]]]', 2)).toBe(true);
    expect(jsonDepthOver('[[1],[2],[3]]', 2)).toBe(false);
  });

  it('parseJsonText refuses too deep and malformed text with ERR_VALIDATION and an issue', () => {
    expect(parseJsonText('{"a":[1,{"b":2}]}')).toEqual({ a: [1, { b: 2 }] });
    expect(() => parseJsonText(nestedArray(100_000))).toThrow(expect.objectContaining({ code: 'ERR_VALIDATION', status: 400, issues: [expect.objectContaining({ path: '' })] }));
    expect(() => parseJsonText('{"a":')).toThrow(expect.objectContaining({ code: 'ERR_VALIDATION', status: 400 }));
  });
});

describe('JSON bodies (issue 31 item 7)', () => {
  it('answers 400 ERR_VALIDATION { error, message, issues } to a 100,000-deep body on any route, and stores nothing', async () => {
    const name = `Deep ${Date.now()}`;
    const body = `{"name":"${name}","number":"5511987650001","extra":${nestedObject(100_000)}}`;
    const res = await t.app.http.inject({ method: 'POST', url: '/api/contacts', headers: { authorization: `Bearer ${t.admin}`, 'content-type': 'application/json' }, payload: body });
    expect(res.statusCode).toBe(400);
    const error = JSON.parse(res.body) as { error: string; message: string; issues: { path: string; message: string }[] };
    expect(error).toEqual({ error: 'ERR_VALIDATION', message: `The JSON body is nested deeper than ${MAX_JSON_DEPTH} levels.`, issues: [{ path: '', message: error.message }] });
    expect(await queryRows(t, sql`select id from contacts where name = ${name}`)).toEqual([]);

    const arrays = await t.app.http.inject({ method: 'POST', url: '/api/auth/login', headers: { 'content-type': 'application/json; charset=utf-8' }, payload: nestedArray(100_000) });
    expect(arrays.statusCode).toBe(400);
    expect(JSON.parse(arrays.body)).toMatchObject({ error: 'ERR_VALIDATION', issues: [{ path: '' }] });
  });

  it(`takes a body ${MAX_JSON_DEPTH} levels deep, and still refuses malformed or empty JSON with 400`, async () => {
    const name = `Deep enough ${Date.now()}`;
    const body = `{"name":"${name}","number":"5511987650002","extra":${nestedObject(MAX_JSON_DEPTH - 1)}}`;
    const res = await t.app.http.inject({ method: 'POST', url: '/api/contacts', headers: { authorization: `Bearer ${t.admin}`, 'content-type': 'application/json' }, payload: body });
    expect(res.statusCode, res.body).toBe(201);
    for (const payload of ['{"name":', '']) {
      const bad = await t.app.http.inject({ method: 'POST', url: '/api/contacts', headers: { authorization: `Bearer ${t.admin}`, 'content-type': 'application/json' }, payload });
      expect(bad.statusCode).toBe(400);
      expect(JSON.parse(bad.body)).toMatchObject({ error: 'ERR_VALIDATION' });
    }
    const poisoned = await t.app.http.inject({
      method: 'POST',
      url: '/api/contacts',
      headers: { authorization: `Bearer ${t.admin}`, 'content-type': 'application/json' },
      payload: '{"name":"Proto","number":"5511987650003","__proto__":{"x":1}}',
    });
    expect(poisoned.statusCode).toBe(400);
  });
});
