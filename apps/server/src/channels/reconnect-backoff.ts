/** Reconnect policy: exponential backoff from 2 s, doubling up to 60 s, with ±20 % jitter inside those bounds. */
export const RECONNECT_BASE_MS = 2_000;
export const RECONNECT_MAX_MS = 60_000;
const JITTER = 0.2;

/**
 * Delay before reconnect attempt `attempt` (1-based). `random` returns [0, 1) like Math.random;
 * jitter spreads many connections dropped at once so they do not all reconnect together.
 */
export function reconnectDelay(attempt: number, random: () => number = Math.random): number {
  const exponent = Math.max(0, Math.min(attempt - 1, 30));
  const nominal = Math.min(RECONNECT_MAX_MS, RECONNECT_BASE_MS * 2 ** exponent);
  const jittered = nominal * (1 - JITTER + 2 * JITTER * random());
  return Math.round(Math.min(RECONNECT_MAX_MS, Math.max(RECONNECT_BASE_MS, jittered)));
}
