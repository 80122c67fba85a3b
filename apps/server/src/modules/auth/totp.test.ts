import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { AccessTokens } from './access-token.js';
import { MfaTokens } from './mfa-token.js';
import { looksLikeTotpCode, newRecoveryCodes, newTotpSecret, recoveryCodeHash, totpStep, totpUri } from './totp.js';

const AT = new Date('2026-06-15T23:59:50Z');

function codeAt(secret: string, at: Date): string {
  return new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({ timestamp: at.getTime() });
}

describe('TOTP codes (RFC 6238)', () => {
  it('finds the step of a code of the current, previous or next 30 seconds, and no other', () => {
    const secret = newTotpSecret();
    const step = Math.floor(AT.getTime() / 30_000);
    expect(totpStep(secret, codeAt(secret, AT), AT)).toBe(step);
    expect(totpStep(secret, codeAt(secret, new Date(AT.getTime() - 30_000)), AT)).toBe(step - 1);
    expect(totpStep(secret, codeAt(secret, new Date(AT.getTime() + 30_000)), AT)).toBe(step + 1);
    expect(totpStep(secret, codeAt(secret, new Date(AT.getTime() + 61_000)), AT)).toBeNull();
  });

  it('names the issuer and the account in the otpauth:// URI, with a 160-bit base32 secret', () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(totpUri(secret, 'ana@example.com'));
    expect(uri.protocol).toBe('otpauth:');
    expect(decodeURIComponent(uri.pathname)).toContain('WaDesk:ana@example.com');
    expect(uri.searchParams.get('secret')).toBe(secret);
    expect(uri.searchParams.get('period')).toBe('30');
  });

  it('tells six digits (spaces allowed) from a recovery code', () => {
    expect(looksLikeTotpCode('123456')).toBe(true);
    expect(looksLikeTotpCode('123 456')).toBe(true);
    expect(looksLikeTotpCode('abcde-fghjk')).toBe(false);
    expect(looksLikeTotpCode('1234567')).toBe(false);
  });
});

describe('recovery codes', () => {
  it('are 10 distinct codes of an unambiguous alphabet, hashed without case, spaces or dashes', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-hjkmnp-z2-9]{5}-[a-hjkmnp-z2-9]{5}$/);
    const code = codes[0]!;
    expect(recoveryCodeHash(code.toUpperCase().replace('-', ' '))).toBe(recoveryCodeHash(code));
    expect(recoveryCodeHash(code)).toMatch(/^[0-9a-f]{64}$/);
    expect(recoveryCodeHash(code)).not.toBe(recoveryCodeHash(codes[1]!));
  });
});

describe('the mfaToken of the password step', () => {
  it('lives 5 minutes on the given clock', async () => {
    let now = AT;
    const tokens = new MfaTokens('a-secret-of-the-test', () => now);
    const token = await tokens.sign(7);
    expect(await tokens.verify(token)).toEqual({ userId: 7, issuedAt: Math.floor(AT.getTime() / 1000) });
    now = new Date(AT.getTime() + 299_000);
    expect(await tokens.verify(token)).not.toBeNull();
    now = new Date(AT.getTime() + 301_000);
    expect(await tokens.verify(token)).toBeNull();
  });

  it('is no access token, and an access token is no mfaToken (same secret)', async () => {
    const secret = 'a-secret-of-the-test';
    const mfa = new MfaTokens(secret);
    const access = new AccessTokens(secret);
    expect(await access.verify(await mfa.sign(7))).toEqual({ ok: false, reason: 'invalid' });
    expect(await mfa.verify(await access.sign(7, 'session'))).toBeNull();
    expect(await new MfaTokens('another-secret').verify(await mfa.sign(7))).toBeNull();
  });
});
