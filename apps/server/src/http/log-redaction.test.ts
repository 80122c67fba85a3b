import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../app.js';
import { loadConfig } from '../config.js';
import { users } from '../db/schema.js';
import { openTestDatabase } from '../test/test-database.js';

/** Security issue item 9: a failed insert must not write its parameters (a password hash) to the log. */
let app: App;
const lines: string[] = [];

beforeAll(async () => {
  const database = await openTestDatabase();
  const config = loadConfig(
    { ADMIN_EMAIL: 'admin@test.local', ADMIN_PASSWORD: 'admin-pass-1', LOG_LEVEL: 'info', SIMULATOR: 'off' },
    { jwtSecret: 'log-test-jwt', refreshSecret: 'log-test-refresh', dataDir: '/tmp/wadesk-test-data', webDist: '/nonexistent' },
  );
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  app = await buildApp(config, { database, logStream });
  const close = app.close.bind(app);
  app.close = async () => {
    await close();
    await database.close();
  };
});

afterAll(async () => {
  await app.close();
});

describe('the log', () => {
  it('keeps the parameters of a failed insert (a password hash) out of the log', async () => {
    const hash = '$argon2id$v=19$m=19456,t=2,p=1$SECRETSALTSECRETSALT$SECRETHASHVALUE';
    let failure: unknown;
    try {
      // profile is varchar(10): the insert fails in the database, with the hash among its parameters.
      await app.database.db.insert(users).values({ name: 'Leak', email: 'leak@test.local', passwordHash: hash, profile: 'x'.repeat(40) });
    } catch (err) {
      failure = err;
    }
    expect(failure, 'the insert must fail').toBeDefined();
    expect(JSON.stringify((failure as { params?: unknown }).params ?? '')).toContain('SECRETHASHVALUE');
    app.http.log.error({ err: failure }, 'request failed');
    const logged = lines.join('');
    expect(logged).toContain('request failed');
    expect(logged).not.toContain('SECRETHASHVALUE');
    expect(logged).not.toContain('SECRETSALT');
  });

  it('redacts credentials: bearer tokens, cookies and password fields', () => {
    app.http.log.info({ req: { headers: { authorization: 'Bearer SECRET-ACCESS', cookie: 'jrt=SECRET-REFRESH' } }, body: { password: 'SECRET-PASS' } }, 'probe');
    const logged = lines.join('');
    expect(logged).toContain('probe');
    for (const secret of ['SECRET-ACCESS', 'SECRET-REFRESH', 'SECRET-PASS']) expect(logged).not.toContain(secret);
  });
});
