import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from './db/client.js';
import { isUniqueViolation } from './db/errors.js';
import { UsersRepository } from './modules/users/users.repository.js';
import type { UsersService } from './modules/users/users.service.js';

export interface AdminBootstrap {
  adminEmail?: string;
  adminPassword?: string;
}

/**
 * First start with no users: creates the admin from ADMIN_EMAIL / ADMIN_PASSWORD, or with a generated
 * password printed once.
 */
export async function ensureAdmin(
  db: Database,
  users: UsersService,
  options: AdminBootstrap,
  log: FastifyBaseLogger,
): Promise<void> {
  if ((await new UsersRepository(db).count()) > 0) return;
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
    // Printed once, on purpose: this is the only way to learn the generated password.
    process.stdout.write(
      `\n  First start: admin user created\n    e-mail:   ${email}\n    password: ${password}\n  Change it after signing in.\n\n`,
    );
  } else {
    log.info({ email }, 'admin user created from ADMIN_EMAIL / ADMIN_PASSWORD');
  }
}
