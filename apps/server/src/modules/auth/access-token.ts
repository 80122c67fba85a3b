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

export type VerifyResult = { ok: true; claims: AccessClaims } | { ok: false; reason: 'expired' | 'invalid' };

/** Signs and verifies the short-lived access token (HS256 JWT, 15 minutes). */
export class AccessTokens {
  private readonly key: Uint8Array;

  constructor(secret: string) {
    this.key = new TextEncoder().encode(secret);
  }

  sign(userId: number, sessionId?: string): Promise<string> {
    return new SignJWT(sessionId ? { sid: sessionId } : {})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(userId))
      .setIssuedAt()
      .setExpirationTime(`${ACCESS_TOKEN_TTL_SECONDS}s`)
      .sign(this.key);
  }

  async verify(token: string): Promise<VerifyResult> {
    try {
      // A token without exp would never expire, one without iat could not be compared with a password change.
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'], requiredClaims: ['exp', 'iat', 'sub'] });
      const userId = Number(payload.sub);
      if (!Number.isInteger(userId) || userId <= 0) return { ok: false, reason: 'invalid' };
      if (typeof payload.exp !== 'number' || typeof payload.iat !== 'number') return { ok: false, reason: 'invalid' };
      const sid = payload.sid;
      if (sid !== undefined && typeof sid !== 'string') return { ok: false, reason: 'invalid' };
      return { ok: true, claims: { userId, sessionId: sid, issuedAt: payload.iat, expiresAt: payload.exp } };
    } catch (err) {
      return { ok: false, reason: err instanceof joseErrors.JWTExpired ? 'expired' : 'invalid' };
    }
  }
}
