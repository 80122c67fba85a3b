import { ACCESS_TOKEN_TTL_SECONDS } from '@wadesk/contracts';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';

export interface AccessClaims {
  userId: number;
  /** The sign-in (refresh token family) the token was issued for; absent in tokens of no session. */
  sessionId?: string;
  /** Seconds since the epoch. */
  issuedAt: number;
  expiresAt: number;
}

/** Verified tokens remembered (each until it expires), at most this many: the oldest are forgotten first. */
const VERIFIED_CACHE_SIZE = 10_000;

export type VerifyResult = { ok: true; claims: AccessClaims } | { ok: false; reason: 'expired' | 'invalid' };

/** Signs and verifies the short-lived access token (HS256 JWT, 15 minutes). */
export class AccessTokens {
  /** Imported once: handing jose the raw bytes would import them again on every request. */
  private readonly key: Promise<CryptoKey>;
  /**
   * Every request of a session carries the same token: its signature is checked once, then its claims are
   * found by the whole token's text (only a token that was verified can match) and only its expiry is checked.
   */
  private readonly verified = new Map<string, AccessClaims>();

  constructor(secret: string) {
    this.key = crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    this.key.catch(() => undefined); // an unusable secret fails each sign and verify, not the process
  }

  async sign(userId: number, sessionId?: string): Promise<string> {
    return new SignJWT(sessionId ? { sid: sessionId } : {})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(userId))
      .setIssuedAt()
      .setExpirationTime(`${ACCESS_TOKEN_TTL_SECONDS}s`)
      .sign(await this.key);
  }

  async verify(token: string): Promise<VerifyResult> {
    const known = this.verified.get(token);
    if (known) {
      // As jose counts it: expired once `exp` is not after the current whole second.
      if (known.expiresAt > Math.floor(Date.now() / 1000)) return { ok: true, claims: known };
      this.verified.delete(token);
      return { ok: false, reason: 'expired' };
    }
    const result = await this.verifySignature(token);
    if (result.ok) {
      if (this.verified.size >= VERIFIED_CACHE_SIZE) this.verified.delete(this.verified.keys().next().value!);
      this.verified.set(token, result.claims);
    }
    return result;
  }

  private async verifySignature(token: string): Promise<VerifyResult> {
    try {
      // A token without exp would never expire, one without iat could not be compared with a password change.
      const { payload } = await jwtVerify(token, await this.key, { algorithms: ['HS256'], requiredClaims: ['exp', 'iat', 'sub'] });
      const userId = Number(payload.sub);
      if (!Number.isInteger(userId) || userId <= 0) return { ok: false, reason: 'invalid' };
      if (typeof payload.exp !== 'number' || typeof payload.iat !== 'number') return { ok: false, reason: 'invalid' };
      // An mfaToken (mfa-token.ts) has a key of its own; its purpose claim is refused here too.
      if (payload.pur !== undefined) return { ok: false, reason: 'invalid' };
      const sid = payload.sid;
      if (sid !== undefined && typeof sid !== 'string') return { ok: false, reason: 'invalid' };
      return { ok: true, claims: { userId, sessionId: sid, issuedAt: payload.iat, expiresAt: payload.exp } };
    } catch (err) {
      return { ok: false, reason: err instanceof joseErrors.JWTExpired ? 'expired' : 'invalid' };
    }
  }
}
