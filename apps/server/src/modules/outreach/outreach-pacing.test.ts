import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { outreachPauseMs } from './outreach.service.js';

// Issue 33 item 21 (§9): Instagram direct messages wait a random 5–15 s between sends, like group actions; SMS and voice about 5 s.
describe('outreach pacing', () => {
  const config = loadConfig({}, { jwtSecret: 'a'.repeat(32), refreshSecret: 'b'.repeat(32) });
  const options = { pauseMs: config.outreachPauseMs, instagramPauseMs: config.instagramPauseMs };

  it('waits a random 5–15 s between Instagram direct messages', () => {
    expect(config.instagramPauseMs).toEqual({ min: 5000, max: 15000 });
    expect(outreachPauseMs('instagram', options, () => 0)).toBe(5000);
    expect(outreachPauseMs('instagram', options, () => 0.5)).toBe(10_000);
    expect(outreachPauseMs('instagram', options, () => 0.999_999)).toBe(15_000);
    const pauses = new Set(Array.from({ length: 50 }, () => outreachPauseMs('instagram', options)));
    expect(pauses.size).toBeGreaterThan(1);
    for (const pause of pauses) expect(pause >= 5000 && pause <= 15_000).toBe(true);
  });

  it('waits about 5 s between SMS and between voice calls', () => {
    expect(outreachPauseMs('sms', options, () => 0.9)).toBe(5000);
    expect(outreachPauseMs('voice', options, () => 0.1)).toBe(5000);
  });

  it('takes INSTAGRAM_PAUSE_MS=min-max (the e2e suite shortens it)', () => {
    expect(loadConfig({ INSTAGRAM_PAUSE_MS: '100-300' }, { jwtSecret: 'a'.repeat(32), refreshSecret: 'b'.repeat(32) }).instagramPauseMs).toEqual({ min: 100, max: 300 });
  });
});
