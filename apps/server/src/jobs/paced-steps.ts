import { randomBytes } from 'node:crypto';

/**
 * Pieces shared by the work that runs as a chain of paced step jobs (bulk sends, group actions; decision 0014):
 * a fresh chain token, a network call bounded in time, a random pause.
 */

/** Longest a network call of one step may take before its outcome counts as unknown. */
export const NETWORK_TIMEOUT_MS = 60_000;

/** A network call that got no answer in time: it may have happened, so it is not made again. */
export class NetworkTimeout extends Error {}

/** A new chain token: the one chain of steps allowed to act (pause, resume, cancel and recovery draw a new one). */
export function newChain(): string {
  return randomBytes(12).toString('base64url');
}

export async function withTimeout<T>(promise: Promise<T>, ms: number = NETWORK_TIMEOUT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new NetworkTimeout(`no answer from the network within ${ms / 1000} s`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** A random pause between `min` and `max` (any unit), given a random number in [0, 1). */
export function randomBetween(min: number, max: number, random: () => number): number {
  return Math.round(min + random() * (max - min));
}
