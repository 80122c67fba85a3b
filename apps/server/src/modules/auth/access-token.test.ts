import { afterEach, describe, expect, it, vi } from 'vitest';
import { ACCESS_TOKEN_TTL_SECONDS } from '@wadesk/contracts';
import { AccessTokens } from './access-token.js';

describe('access tokens: a verified token is remembered, never beyond its expiry', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('accepts a token again and again, and refuses it once expired, remembered or not', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-24T10:00:00Z'));
    const tokens = new AccessTokens('a-secret-of-the-test-only-32-bytes!');
    const token = await tokens.sign(7, 'session-1');
    for (let i = 0; i < 3; i += 1) {
      expect(await tokens.verify(token)).toEqual({
        ok: true,
        claims: { userId: 7, sessionId: 'session-1', issuedAt: 1795514400, expiresAt: 1795514400 + ACCESS_TOKEN_TTL_SECONDS },
      });
    }
    vi.setSystemTime(new Date(Date.parse('2026-11-24T10:00:00Z') + ACCESS_TOKEN_TTL_SECONDS * 1000 - 1000));
    expect((await tokens.verify(token)).ok).toBe(true);
    vi.setSystemTime(new Date(Date.parse('2026-11-24T10:00:00Z') + ACCESS_TOKEN_TTL_SECONDS * 1000));
    expect(await tokens.verify(token)).toEqual({ ok: false, reason: 'expired' });
    expect(await tokens.verify(token)).toEqual({ ok: false, reason: 'expired' });
  });

  it('remembers only what it verified: another secret, a changed byte or a changed claim is refused', async () => {
    const tokens = new AccessTokens('a-secret-of-the-test-only-32-bytes!');
    const token = await tokens.sign(7);
    expect((await tokens.verify(token)).ok).toBe(true);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const otherUser = Buffer.from(JSON.stringify({ ...claims, sub: '1' })).toString('base64url');
    expect(await tokens.verify(`${header}.${otherUser}.${signature}`)).toEqual({ ok: false, reason: 'invalid' });
    const flipped = signature.slice(0, -2) + (signature.endsWith('AA') ? 'BB' : 'AA');
    expect(await tokens.verify(`${header}.${payload}.${flipped}`)).toEqual({ ok: false, reason: 'invalid' });
    expect(await new AccessTokens('another-secret-of-the-test-32-bytes').verify(token)).toEqual({ ok: false, reason: 'invalid' });
  });
});
