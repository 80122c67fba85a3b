import { isAxiosError } from 'axios';
import type { ErrorBody } from '@wadesk/contracts';

/**
 * Whether a failed call means "the server (or its database) cannot be reached right now" rather than
 * "the server said no": the app then shows the reconnecting bar and retries, instead of an error toast.
 *
 * - `503 ERR_DB_UNAVAILABLE` (database outage);
 * - no answer at all (server down, network lost, timeout), but not a request we cancelled ourselves;
 * - 502 / 503 / 504 without one of our error bodies (a proxy in front of a stopped server).
 */
export function isConnectionLost(err: unknown): boolean {
  if (!isAxiosError(err)) return false;
  if (err.code === 'ERR_CANCELED') return false;
  const res = err.response;
  if (!res) return err.code === 'ERR_NETWORK' || err.code === 'ECONNABORTED' || err.code === 'ETIMEDOUT';
  const data: unknown = res.data;
  const code = typeof data === 'object' && data !== null ? (data as Partial<ErrorBody>).error : undefined;
  if (code === 'ERR_DB_UNAVAILABLE') return true;
  return (res.status === 502 || res.status === 503 || res.status === 504) && typeof code !== 'string';
}

/** TanStack Query's `retry`: connection losses are retried for as long as they last, other errors never. */
export function shouldRetry(_failureCount: number, err: unknown): boolean {
  return isConnectionLost(err);
}

/** Exponential backoff with jitter: ~1 s, 2 s, 4 s, ... up to 15 s between attempts. */
export function retryDelay(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(1000 * 2 ** Math.max(0, attempt), 15_000);
  return Math.round(base * (0.8 + 0.4 * random()));
}

type Listener = () => void;

/**
 * What the client knows about its link to the server: requests failing with a connection loss, and the
 * socket dropped after having been connected. Either one shows the reconnecting bar; the bar goes when a
 * request succeeds and the socket is back. `onRecovered` fires on that transition, so data missed
 * meanwhile is fetched again.
 */
export class ConnectionMonitor {
  private requestsFailing = false;
  private socketDown = false;
  private readonly listeners = new Set<Listener>();
  private readonly recoveredListeners = new Set<Listener>();

  /** Reports a failed call; answers whether it was a connection loss (then no error toast is due). */
  reportRequestFailure(err: unknown): boolean {
    if (!isConnectionLost(err)) return false;
    this.update(() => {
      this.requestsFailing = true;
    });
    return true;
  }

  /** A call got a successful answer: the server and its database are reachable. */
  reportRequestSuccess(): void {
    if (!this.requestsFailing) return;
    this.update(() => {
      this.requestsFailing = false;
    });
  }

  /** The socket is connected (true) or dropped after having been connected (false). */
  reportSocket(connected: boolean): void {
    if (this.socketDown === !connected) return;
    this.update(() => {
      this.socketDown = !connected;
    });
  }

  /** The socket went away on purpose (sign-out): it no longer counts. */
  forgetSocket(): void {
    this.reportSocket(true);
  }

  isReconnecting = (): boolean => this.requestsFailing || this.socketDown;

  /** Whether calls are failing (as opposed to only the socket being down). */
  areRequestsFailing(): boolean {
    return this.requestsFailing;
  }

  isSocketDown(): boolean {
    return this.socketDown;
  }

  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  onRecovered(listener: Listener): () => void {
    this.recoveredListeners.add(listener);
    return () => {
      this.recoveredListeners.delete(listener);
    };
  }

  private update(change: () => void): void {
    const before = this.isReconnecting();
    const socketBefore = this.socketDown;
    const requestsBefore = this.requestsFailing;
    change();
    if (socketBefore === this.socketDown && requestsBefore === this.requestsFailing) return;
    for (const listener of [...this.listeners]) listener();
    if (before && !this.isReconnecting()) {
      for (const listener of [...this.recoveredListeners]) listener();
    }
  }
}

/** The app's one monitor. */
export const connection = new ConnectionMonitor();
