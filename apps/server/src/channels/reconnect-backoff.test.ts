import { describe, expect, it } from 'vitest';
import { RECONNECT_BASE_MS, RECONNECT_MAX_MS, reconnectDelay } from './reconnect-backoff.js';

describe('reconnectDelay', () => {
  it('doubles from 2 s up to 60 s without jitter (random 0.5)', () => {
    const delays = [1, 2, 3, 4, 5, 6, 7, 20].map((n) => reconnectDelay(n, () => 0.5));
    expect(delays).toEqual([2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000]);
  });

  it('spreads delays by ±20 % but never outside 2–60 s', () => {
    for (let attempt = 1; attempt <= 12; attempt += 1) {
      for (const r of [0, 0.1, 0.5, 0.9, 0.999999]) {
        const d = reconnectDelay(attempt, () => r);
        expect(d).toBeGreaterThanOrEqual(RECONNECT_BASE_MS);
        expect(d).toBeLessThanOrEqual(RECONNECT_MAX_MS);
      }
    }
    expect(reconnectDelay(3, () => 0)).toBe(6400);
    expect(reconnectDelay(3, () => 0.999999)).toBe(9600);
    expect(reconnectDelay(1, () => 0)).toBe(2000);
  });

  it('gives different delays to connections that dropped together', () => {
    const delays = new Set(Array.from({ length: 20 }, () => reconnectDelay(4)));
    expect(delays.size).toBeGreaterThan(1);
  });

  it('treats a zero or huge attempt count sanely', () => {
    expect(reconnectDelay(0, () => 0.5)).toBe(2000);
    expect(reconnectDelay(10_000, () => 0.5)).toBe(60000);
  });
});
