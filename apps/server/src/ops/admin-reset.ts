import { randomBytes } from 'node:crypto';
import { isAdmin, passwordField } from '@wadesk/contracts';
import type { Database } from '../db/client.js';
import { hashPassword } from '../modules/auth/password.js';
import { RefreshTokensRepository } from '../modules/auth/refresh-tokens.repository.js';
import { UsersRepository } from '../modules/users/users.repository.js';

export interface AdminReset {
  email: string;
  /** The new password: the one given, or a generated one to print. */
  password: string;
  generated: boolean;
}

/**
 * `npm run admin:reset -- --email … [--password …]`: sets an admin's password (given, or generated) and ends every
 * sign-in of theirs (their access tokens stop working, their refresh tokens are revoked). Throws an Error whose
 * message is meant for the terminal when there is no such admin or the password does not fit the rules.
 */
export async function resetAdminPassword(db: Database, email: string, password?: string): Promise<AdminReset> {
  const wanted = email.trim().toLowerCase();
  const user = await new UsersRepository(db).findRecordByEmail(wanted);
  if (!user) throw new Error(`No user has the e-mail ${wanted}.`);
  if (!isAdmin(user)) throw new Error(`${wanted} is not an admin: an admin changes an attendant's password under Users.`);
  const generated = password === undefined;
  const chosen = password ?? randomBytes(9).toString('base64url');
  const checked = passwordField.safeParse(chosen);
  if (!checked.success) throw new Error('The password must be 5 to 50 characters long.');
  await db.transaction(async (tx) => {
    await new UsersRepository(tx).update(user.id, { passwordHash: await hashPassword(chosen), tokensValidAfter: new Date() });
    await new RefreshTokensRepository(tx).revokeAllOf(user.id);
  });
  return { email: wanted, password: chosen, generated };
}
