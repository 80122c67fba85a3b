import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from './db/client.js';
import { isUniqueViolation } from './db/errors.js';
import { verifyPassword } from './modules/auth/password.js';
import { RefreshTokensRepository } from './modules/auth/refresh-tokens.repository.js';
import { UsersRepository } from './modules/users/users.repository.js';
import type { UsersService } from './modules/users/users.service.js';

export interface AdminBootstrap {
  adminEmail?: string;
  adminPassword?: string;
  /** Where the generated password waits (DATA_DIR/first-admin.json, readable by the owner only) until the admin signs in. */
  dataDir: string;
}

/** The file that keeps a generated first-admin password until that admin signs in. */
export function firstAdminFile(dataDir: string): string {
  return path.join(dataDir, 'first-admin.json');
}

function printFirstAdmin(email: string, password: string, again: boolean): void {
  const title = again ? 'The first admin has not signed in yet' : 'First start: admin user created';
  process.stdout.write(
    `\n  ${title}\n    e-mail:   ${email}\n    password: ${password}\n  Change it after signing in.` +
      ` (Shown at each start until this admin signs in; a lost password: npm run admin:reset -- --email ${email})\n\n`,
  );
}

/**
 * At each start after the first: the generated password again, while that admin has never signed in and the password
 * is still the generated one (a newcomer who missed the box in the first start's output finds it at the next start).
 * Once they have signed in, or the password changed, or the admin is gone, the file is removed.
 */
async function reprintFirstAdmin(db: Database, dataDir: string): Promise<void> {
  const file = firstAdminFile(dataDir);
  let kept: { email: string; password: string };
  try {
    kept = JSON.parse(await readFile(file, 'utf8')) as typeof kept;
  } catch {
    return;
  }
  const admin = await new UsersRepository(db).findRecordByEmail(kept.email);
  const waiting =
    admin !== null && !(await new RefreshTokensRepository(db).anyOf(admin.id)) && (await verifyPassword(admin.passwordHash, kept.password));
  if (waiting) printFirstAdmin(kept.email, kept.password, true);
  else await rm(file, { force: true });
}

/**
 * First start with no users: creates the admin from ADMIN_EMAIL / ADMIN_PASSWORD, or with a generated password
 * printed in a box, again at each start until that admin signs in.
 */
export async function ensureAdmin(db: Database, users: UsersService, options: AdminBootstrap, log: FastifyBaseLogger): Promise<void> {
  if ((await new UsersRepository(db).count()) > 0) return reprintFirstAdmin(db, options.dataDir);
  const email = (options.adminEmail ?? 'admin@admin.com').toLowerCase();
  const generated = !options.adminPassword;
  const password = options.adminPassword ?? randomBytes(9).toString('base64url');
  try {
    await users.create({ name: 'Admin', email, password, profile: 'admin', queueIds: [] });
  } catch (err) {
    if (isUniqueViolation(err)) return; // another process created it first
    throw err;
  }
  if (generated) {
    // Kept beside secrets.json (owner only) so that the next starts can show it again; removed once the admin signs in.
    await mkdir(options.dataDir, { recursive: true });
    await writeFile(firstAdminFile(options.dataDir), JSON.stringify({ email, password }), { mode: 0o600 });
    printFirstAdmin(email, password, false);
  } else {
    log.info({ email }, 'admin user created from ADMIN_EMAIL / ADMIN_PASSWORD');
  }
}
