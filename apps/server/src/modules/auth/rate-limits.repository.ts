import { and, eq, gt, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { rateLimits } from '../../db/schema.js';

/** Fixed-window counters in the database, so every server process shares them. */
export class RateLimitsRepository {
  constructor(private readonly db: Executor) {}

  /** Hits in the current window of `key` (0 when none or expired). */
  async current(key: string): Promise<number> {
    const [row] = await this.db
      .select({ count: rateLimits.count })
      .from(rateLimits)
      .where(and(eq(rateLimits.key, key), gt(rateLimits.resetAt, sql`now()`)));
    return row?.count ?? 0;
  }

  /** Adds one hit; starts a new window when the old one is over. Returns the count in the window. */
  async hit(key: string, windowSeconds: number): Promise<number> {
    return (await this.take(key, windowSeconds)).count;
  }

  /**
   * Adds one hit like `hit`, and says how long the window still runs (whole seconds, at least 1): a caller that
   * counts an attempt before making it (so concurrent attempts cannot all pass a check made before any of them
   * counted) and answers Retry-After.
   */
  async take(key: string, windowSeconds: number): Promise<{ count: number; retryAfterSeconds: number }> {
    const resetAt = sql`now() + make_interval(secs => ${windowSeconds})`;
    const [row] = await this.db
      .insert(rateLimits)
      .values({ key, count: 1, resetAt })
      .onConflictDoUpdate({
        target: rateLimits.key,
        set: {
          count: sql`case when ${rateLimits.resetAt} <= now() then 1 else ${rateLimits.count} + 1 end`,
          resetAt: sql`case when ${rateLimits.resetAt} <= now() then excluded.reset_at else ${rateLimits.resetAt} end`,
        },
      })
      .returning({
        count: rateLimits.count,
        retryAfterSeconds: sql<number>`greatest(1, ceil(extract(epoch from ${rateLimits.resetAt} - now())))::int`,
      });
    return { count: row?.count ?? 1, retryAfterSeconds: Number(row?.retryAfterSeconds ?? windowSeconds) };
  }

  /** Takes back one hit of the current window (an attempt that turned out not to count). */
  async release(key: string): Promise<void> {
    await this.db
      .update(rateLimits)
      .set({ count: sql`greatest(${rateLimits.count} - 1, 0)` })
      .where(and(eq(rateLimits.key, key), gt(rateLimits.resetAt, sql`now()`)));
  }

  async clear(key: string): Promise<void> {
    await this.db.delete(rateLimits).where(eq(rateLimits.key, key));
  }
}
