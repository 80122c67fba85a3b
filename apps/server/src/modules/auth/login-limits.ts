import { LOGIN_FAILURE_LIMIT, LOGIN_FAILURE_WINDOW_SECONDS } from '@wadesk/contracts';
import ipaddr from 'ipaddr.js';
import type { Executor } from '../../db/client.js';
import { AppError } from '../../http/app-error.js';
import { RateLimitsRepository } from './rate-limits.repository.js';

/** Failed logins allowed per account (whatever the address) within the window; then even the right password waits. */
export const ACCOUNT_FAILURE_LIMIT = 10;
export const ACCOUNT_FAILURE_WINDOW_SECONDS = 15 * 60;

/**
 * Failed logins allowed per client address, whatever the accounts, within the window: one address cannot try a
 * password on many accounts. An office behind one NAT address shares it: 30 mistyped passwords in 15 minutes
 * (signing in right counts nothing) is far above what a team does and far below what a guessing script needs.
 */
export const ADDRESS_FAILURE_LIMIT = 30;
export const ADDRESS_FAILURE_WINDOW_SECONDS = 15 * 60;

/**
 * The client address a limit counts against: IPv4 as it is (also when written IPv4-mapped), IPv6 by its /64,
 * since one host usually holds a whole /64 and could otherwise take a new address for each try.
 */
export function clientAddressKey(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip); // ::ffff:a.b.c.d becomes a.b.c.d
  if (address.kind() === 'ipv4') return address.toString();
  const parts = (address as ipaddr.IPv6).parts.slice(0, 4).concat([0, 0, 0, 0]);
  return `${new ipaddr.IPv6(parts).toString()}/64`;
}

interface LoginWindow {
  key: string;
  limit: number;
  windowSeconds: number;
}

/** A login attempt counted against every window; the caller says how it ended. */
export interface LoginAttempt {
  /** The password was right: the attempt is not a failure (and the address+account window starts again). */
  succeeded(): Promise<void>;
}

/**
 * The limits on failed logins, in the database (rate_limits) so that every process sharing it counts the same
 * failures: per address and account (LOGIN_FAILURE_LIMIT in LOGIN_FAILURE_WINDOW_SECONDS), per account across every
 * address, per address across every account. An attempt is counted before the password is checked and taken back
 * when it succeeds, so a burst of concurrent attempts cannot all pass a check that none of them has counted yet.
 * When a window is full: 429 ERR_RATE_LIMITED with Retry-After, even for the right password.
 */
export class LoginLimits {
  /**
   * `kind` 'mfa': the codes of two-factor sign-in (issue 37 §1), counted in windows of their own with the same limits,
   * the account being the user's id (`user:<id>`).
   */
  constructor(
    private readonly db: Executor,
    private readonly kind: 'login' | 'mfa' = 'login',
  ) {}

  async begin(ip: string, email: string): Promise<LoginAttempt> {
    const limits = new RateLimitsRepository(this.db);
    const kind = this.kind;
    const perAddressAndAccount: LoginWindow = { key: `${kind}:${ip}:${email}`, limit: LOGIN_FAILURE_LIMIT, windowSeconds: LOGIN_FAILURE_WINDOW_SECONDS };
    // Rotating addresses (or forged proxy headers) does not buy more tries on one account...
    const perAccount: LoginWindow = { key: `${kind}-account:${email}`, limit: ACCOUNT_FAILURE_LIMIT, windowSeconds: ACCOUNT_FAILURE_WINDOW_SECONDS };
    // ...and rotating accounts does not buy more tries from one address.
    const perAddress: LoginWindow = {
      key: `${kind}-address:${clientAddressKey(ip)}`,
      limit: ADDRESS_FAILURE_LIMIT,
      windowSeconds: ADDRESS_FAILURE_WINDOW_SECONDS,
    };
    const windows = [perAddressAndAccount, perAccount, perAddress];
    const taken = await Promise.all(windows.map((w) => limits.take(w.key, w.windowSeconds)));
    const full = taken.filter((t, i) => t.count > windows[i]!.limit);
    if (full.length > 0) {
      // A refused attempt checks no password: it is not a failure.
      await Promise.all(windows.map((w) => limits.release(w.key)));
      const what = kind === 'mfa' ? 'codes' : 'logins';
      throw new AppError('ERR_RATE_LIMITED', `Too many failed ${what}. Try again in a few minutes.`, {
        retryAfterSeconds: Math.max(...full.map((t) => t.retryAfterSeconds)),
      });
    }
    return {
      async succeeded() {
        await Promise.all([limits.clear(perAddressAndAccount.key), limits.release(perAccount.key), limits.release(perAddress.key)]);
      },
    };
  }
}
