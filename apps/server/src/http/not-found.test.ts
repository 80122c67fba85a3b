import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../test/test-app.js';
import { collapseSlashes, routerPath } from './router-path.js';

/**
 * An unknown API path answers the same JSON 404 however it is spelled (issue 31 item 9): the router reads
 * `/%61pi/x` and `//api/x` as `/api/x`, so the not-found answer does too, instead of serving the web app's page.
 */

const webDist = mkdtempSync(path.join(os.tmpdir(), 'wadesk-notfound-'));
writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>WA Desk</title>');
const t = useTestApp({ admin: true, user: true, config: { webDist } });
afterAll(() => rmSync(webDist, { recursive: true, force: true }));

const SPELLINGS = ['/api/nothing-here', '/%61pi/nothing-here', '/%61%70%69/nothing-here', '//api/nothing-here', '///api//nothing-here', '/api/nothing-here/', '/%61pi/nothing-here?x=1'];

describe('the not-found answer', () => {
  it('is the same JSON 404 for an unknown API path in every spelling, signed in or not', async () => {
    for (const token of [undefined, t.user, t.admin]) {
      for (const url of SPELLINGS) {
        const res = await t.app.http.inject({ method: 'GET', url, headers: token ? { authorization: `Bearer ${token}` } : {} });
        expect(res.statusCode, `${url} ${res.body}`).toBe(404);
        expect(res.headers['content-type'], url).toMatch(/^application\/json/);
        expect(res.json(), url).toEqual({ error: 'ERR_NOT_FOUND', message: 'Not found' });
      }
    }
  });

  it('still serves the web app for its own client-side routes', async () => {
    const res = await t.app.http.inject({ method: 'GET', url: '/tickets/12' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<title>WA Desk</title>');
  });
});

describe('routerPath and collapseSlashes', () => {
  it('read a URL as the router does', () => {
    expect(collapseSlashes('//api//users?next=//x')).toBe('/api/users?next=//x');
    expect(collapseSlashes('/api/users')).toBe('/api/users');
    expect(routerPath('/%61pi/users?x=%2F')).toBe('/api/users');
    expect(routerPath('//api//users')).toBe('/api/users');
    expect(routerPath('/tickets/1#top')).toBe('/tickets/1');
    expect(routerPath('/%E0%A4%A')).toBe('/%E0%A4%A');
  });
});
