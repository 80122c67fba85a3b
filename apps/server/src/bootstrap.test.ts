import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ensureAdmin, firstAdminFile } from './bootstrap.js';
import { migrateDatabase, type DatabaseHandle } from './db/client.js';
import { DomainEvents } from './events/domain-events.js';
import { RefreshTokensRepository } from './modules/auth/refresh-tokens.repository.js';
import { UsersRepository } from './modules/users/users.repository.js';
import { UsersService } from './modules/users/users.service.js';
import { openTestDatabase } from './test/test-database.js';

// Issue 33 item 23: a newcomer who missed the generated password in the first start's output finds it at the next start.
describe('ensureAdmin: the first admin’s generated password', () => {
  let database: DatabaseHandle;
  let dataDir: string;
  const log = { info: vi.fn() } as never;

  beforeAll(async () => {
    database = await openTestDatabase();
    await migrateDatabase(database);
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'wadesk-bootstrap-'));
  });
  afterAll(async () => {
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** What one start prints. */
  async function start(): Promise<string> {
    const printed: string[] = [];
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => (printed.push(String(chunk)), true));
    try {
      await ensureAdmin(database.db, new UsersService(database.db, new DomainEvents()), { adminEmail: 'Boss@Desk.Local', dataDir }, log);
    } finally {
      spy.mockRestore();
    }
    return printed.join('');
  }

  it('prints the box at the first start and again at each start until that admin signs in, then never', async () => {
    const first = await start();
    const password = /password: (\S+)/.exec(first)?.[1];
    expect(first).toContain('First start: admin user created');
    expect(first).toContain('e-mail:   boss@desk.local');
    expect(password).toMatch(/^[\w-]{12}$/);
    expect((await stat(firstAdminFile(dataDir))).mode & 0o077).toBe(0);

    const second = await start();
    expect(second).toContain('The first admin has not signed in yet');
    expect(second).toContain(`password: ${password}`);
    expect(await start()).toContain(`password: ${password}`);

    // The admin signs in (a sign-in leaves a refresh token).
    const admin = (await new UsersRepository(database.db).findRecordByEmail('boss@desk.local'))!;
    const familyId = randomUUID();
    await new RefreshTokensRepository(database.db).insert({ id: randomUUID(), userId: admin.id, familyId, tokenHash: 'x', expiresAt: new Date(Date.now() + 60_000) });
    expect(await start()).toBe('');
    expect(existsSync(firstAdminFile(dataDir))).toBe(false);
    expect(await start()).toBe('');
  });
});
