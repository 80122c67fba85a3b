import { createHash, randomInt } from 'node:crypto';
import { MFA_RECOVERY_CODE_COUNT } from '@wadesk/contracts';
import { Secret, TOTP } from 'otpauth';

/** The name an authenticator app shows beside the account. */
export const TOTP_ISSUER = 'WaDesk';
const PERIOD_SECONDS = 30;
/** Codes of the step before and after the current one are accepted too (a phone's clock a little off). */
const WINDOW_STEPS = 1;

function totp(secret: string, label = ''): TOTP {
  return new TOTP({ issuer: TOTP_ISSUER, label, algorithm: 'SHA1', digits: 6, period: PERIOD_SECONDS, secret: Secret.fromBase32(secret) });
}

/** A new secret (160 bits, as RFC 4226 recommends), base32. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The otpauth:// URI an authenticator app reads from the QR code. */
export function totpUri(secret: string, accountEmail: string): string {
  return totp(secret, accountEmail).toString();
}

/** Six digits, once spaces are taken out ("123 456" as some apps show it). */
export function looksLikeTotpCode(code: string): boolean {
  return /^\d{6}$/.test(code.replace(/\s+/g, ''));
}

/**
 * The time step (30-second window counted from the epoch) whose code `code` is, within one step of `now`; null when
 * it is no code of those steps. The caller refuses a step it already accepted (no replay).
 */
export function totpStep(secret: string, code: string, now: Date): number | null {
  const token = code.replace(/\s+/g, '');
  const generator = totp(secret);
  const delta = generator.validate({ token, timestamp: now.getTime(), window: WINDOW_STEPS });
  if (delta === null) return null;
  return generator.counter({ timestamp: now.getTime() }) + delta;
}

/** Letters and digits that cannot be mistaken for one another (no 0/o, 1/l/i). */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** Ten codes of ten characters (about 49 bits each), written `xxxxx-xxxxx`. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: MFA_RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/**
 * How a recovery code is stored and looked up: sha256 of the code without case, spaces or dashes. The codes are
 * random (not chosen by people), so a fast hash is enough; the table never holds them in clear.
 */
export function recoveryCodeHash(code: string): string {
  return createHash('sha256').update(code.toLowerCase().replace(/[\s-]+/g, '')).digest('hex');
}
