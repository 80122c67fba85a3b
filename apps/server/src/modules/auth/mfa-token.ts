import { createHash } from 'node:crypto';
import { MFA_TOKEN_TTL_SECONDS } from '@wadesk/contracts';
import { jwtVerify, SignJWT } from 'jose';

/** The one thing an mfaToken may be used for; any other token (an access token) fails the check. */
const PURPOSE = 'mfa';

export interface MfaTokenClaims {
  userId: number;
  /** Seconds since the epoch. */
  issuedAt: number;
}

/**
 * The short-lived token that proves a sign-in's password step (issue 37 §1, decision 0043): HS256 with a key of its
 * own (derived from the JWT secret, so it can never pass as an access token, and an access token never as one of
 * these), the claim `pur: 'mfa'`, and MFA_TOKEN_TTL_SECONDS of life counted on the injected clock.
 */
export class MfaTokens {
  private readonly key: Uint8Array;

  constructor(
    secret: string,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.key = createHash('sha256').update(`wadesk-mfa-token:${secret}`).digest();
  }

  async sign(userId: number): Promise<string> {
    const issuedAt = Math.floor(this.now().getTime() / 1000);
    return new SignJWT({ pur: PURPOSE })
      .setProtectedHeader({ alg: 'HS256', typ: 'mfa+jwt' })
      .setSubject(String(userId))
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + MFA_TOKEN_TTL_SECONDS)
      .sign(this.key);
  }

  /** The claims of a valid, unexpired mfaToken; null for anything else. */
  async verify(token: string): Promise<MfaTokenClaims | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        typ: 'mfa+jwt',
        requiredClaims: ['exp', 'iat', 'sub'],
        currentDate: this.now(),
      });
      const userId = Number(payload.sub);
      if (payload.pur !== PURPOSE || !Number.isInteger(userId) || userId <= 0 || typeof payload.iat !== 'number') return null;
      return { userId, issuedAt: payload.iat };
    } catch {
      return null;
    }
  }
}
