import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { users } from '../db/schema.js';
import { useTestApp } from '../test/test-app.js';
import { redactUrl } from './logger.js';

/** Security issue item 9: a failed insert must not write its parameters (a password hash) to the log. */
const lines: string[] = [];
const logStream = new Writable({
  write(chunk: Buffer, _encoding, done) {
    lines.push(chunk.toString('utf8'));
    done();
  },
});
// Request lines are written at debug (issue 33 item 23).
const t = useTestApp({ config: { logLevel: 'debug', simulator: false }, logStream });

describe('the log', () => {
  it('keeps the parameters of a failed insert (a password hash) out of the log', async () => {
    const hash = '$argon2id$v=19$m=19456,t=2,p=1$SECRETSALTSECRETSALT$SECRETHASHVALUE';
    let failure: unknown;
    try {
      // profile is varchar(10): the insert fails in the database, with the hash among its parameters.
      await t.app.database.db.insert(users).values({ name: 'Leak', email: 'leak@test.local', passwordHash: hash, profile: 'x'.repeat(40) });
    } catch (err) {
      failure = err;
    }
    expect(failure, 'the insert must fail').toBeDefined();
    expect(JSON.stringify((failure as { params?: unknown }).params ?? '')).toContain('SECRETHASHVALUE');
    t.app.http.log.error({ err: failure }, 'request failed');
    const logged = lines.join('');
    expect(logged).toContain('request failed');
    expect(logged).not.toContain('SECRETHASHVALUE');
    expect(logged).not.toContain('SECRETSALT');
  });

  it('redacts credentials: bearer tokens, cookies and password fields', () => {
    t.app.http.log.info({ req: { headers: { authorization: 'Bearer SECRET-ACCESS', cookie: 'jrt=SECRET-REFRESH' } }, body: { password: 'SECRET-PASS' } }, 'probe');
    const logged = lines.join('');
    expect(logged).toContain('probe');
    for (const secret of ['SECRET-ACCESS', 'SECRET-REFRESH', 'SECRET-PASS']) expect(logged).not.toContain(secret);
  });

  it('keeps credentials in a query string out of the request lines: the send API token, a verify token, an access token, a JWT', async () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.SECRET-JWT-SIGNATURE';
    const urls = [
      '/api/contactsZDG?token=SECRET-API-TOKEN&page=2',
      '/api/webhooks/whatsapp/1?hub.mode=subscribe&hub.verify_token=SECRET-VERIFY-TOKEN&hub.challenge=1158201444',
      '/api/webhooks/instagram?hub.mode=subscribe&hub.verify_token=SECRET-IG-VERIFY&hub.challenge=7',
      '/api/users?access_token=SECRET-ACCESS-TOKEN',
      `/api/tickets?t=${jwt}`,
      '/api/contacts?Token=SECRET-CASE&api_key=SECRET-KEY&client_secret=SECRET-CLIENT',
    ];
    for (const url of urls) await t.app.http.inject({ method: 'GET', url });
    const logged = lines.join('');
    // The request lines are there, with their path and harmless parameters.
    expect(logged).toContain('"url":"/api/contactsZDG?token=[Redacted]&page=2"');
    expect(logged).toContain('hub.challenge=1158201444');
    expect(logged).toContain('/api/tickets?t=[Redacted]');
    for (const secret of ['SECRET-API-TOKEN', 'SECRET-VERIFY-TOKEN', 'SECRET-IG-VERIFY', 'SECRET-ACCESS-TOKEN', 'SECRET-JWT-SIGNATURE', 'SECRET-CASE', 'SECRET-KEY', 'SECRET-CLIENT']) {
      expect(logged).not.toContain(secret);
    }
  });

  it('redacts the same in any URL the code logs (a `url` field)', () => {
    t.app.http.log.warn({ url: 'https://typebot.example/api/v1?token=SECRET-URL-TOKEN&x=1' }, 'url probe');
    const logged = lines.join('');
    expect(logged).toContain('url probe');
    expect(logged).toContain('https://typebot.example/api/v1?token=[Redacted]&x=1');
    expect(logged).not.toContain('SECRET-URL-TOKEN');
  });
});

describe('redactUrl', () => {
  it('keeps the path and harmless parameters, and a URL without a query, as they are', () => {
    expect(redactUrl('/api/tickets?status=open&pageNumber=2')).toBe('/api/tickets?status=open&pageNumber=2');
    expect(redactUrl('/api/tickets')).toBe('/api/tickets');
    expect(redactUrl('/api/x?flag&token')).toBe('/api/x?flag&token');
  });

  it('redacts parameters named like credentials, however spelled or encoded, and JWTs under any name', () => {
    expect(redactUrl('/a?token=s1&hub.verify_token=s2&access_token=s3&refreshToken=s4&password=s5&sig=s6')).toBe(
      '/a?token=[Redacted]&hub.verify_token=[Redacted]&access_token=[Redacted]&refreshToken=[Redacted]&password=[Redacted]&sig=[Redacted]',
    );
    expect(redactUrl('/a?%74oken=s1&hub%2Everify%5Ftoken=s2')).toBe('/a?%74oken=[Redacted]&hub%2Everify%5Ftoken=[Redacted]');
    expect(redactUrl('/a?x=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln&y=2')).toBe('/a?x=[Redacted]&y=2');
  });
});
