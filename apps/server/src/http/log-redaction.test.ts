import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { users } from '../db/schema.js';
import { useTestApp } from '../test/test-app.js';

/** Security issue item 9: a failed insert must not write its parameters (a password hash) to the log. */
const lines: string[] = [];
const logStream = new Writable({
  write(chunk: Buffer, _encoding, done) {
    lines.push(chunk.toString('utf8'));
    done();
  },
});
const t = useTestApp({ config: { logLevel: 'info', simulator: false }, logStream });

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
});
