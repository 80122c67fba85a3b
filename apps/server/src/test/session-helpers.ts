import type { SessionTimers } from '../channels/session-manager.js';

/** Polls `check` until it returns a truthy value (or throws when `ms` pass). */
export async function eventually<T>(check: () => Promise<T | null | undefined | false>, ms = 5000, what = 'condition'): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error(`${what} not reached within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

interface FakeTimer {
  fn: () => void;
  ms: number;
  cleared: boolean;
  fired: boolean;
}

/** Session timers that only fire when the test says so; records every delay asked for. */
export class ManualTimers implements SessionTimers {
  readonly timeouts: FakeTimer[] = [];

  setTimeout(fn: () => void, ms: number): unknown {
    const timer: FakeTimer = { fn, ms, cleared: false, fired: false };
    this.timeouts.push(timer);
    return timer;
  }

  clearTimeout(handle: unknown): void {
    (handle as FakeTimer).cleared = true;
  }

  setInterval(): unknown {
    return {};
  }

  clearInterval(): void {}

  /** Delays of every reconnect scheduled so far. */
  get delays(): number[] {
    return this.timeouts.map((t) => t.ms);
  }

  pending(): FakeTimer[] {
    return this.timeouts.filter((t) => !t.cleared && !t.fired);
  }

  /** Fires the oldest pending timer; false when none is pending. */
  fireNext(): boolean {
    const next = this.pending()[0];
    if (!next) return false;
    next.fired = true;
    next.fn();
    return true;
  }
}
