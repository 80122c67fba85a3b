import { ACCESS_TOKEN_TTL_SECONDS } from '@wadesk/contracts';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';

export interface AccessClaims {
  userId: number;
}

export type VerifyResult = { ok: true; claims: AccessClaims } | { ok: false; reason: 'expired' | 'invalid' };

/** Signs and verifies the short-lived access token (HS256 JWT, 15 minutes). */
export class AccessTokens {
  private readonly key: Uint8Array;

  constructor(secret: string) {
    this.key = new TextEncoder().encode(secret);
  }

  sign(userId: number): Promise<string> {
    return new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(userId))
      .setIssuedAt()
      .setExpirationTime(`${ACCESS_TOKEN_TTL_SECONDS}s`)
      .sign(this.key);
  }

  async verify(token: string): Promise<VerifyResult> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      const userId = Number(payload.sub);
      if (!Number.isInteger(userId) || userId <= 0) return { ok: false, reason: 'invalid' };
      return { ok: true, claims: { userId } };
    } catch (err) {
      return { ok: false, reason: err instanceof joseErrors.JWTExpired ? 'expired' : 'invalid' };
    }
  }
}
