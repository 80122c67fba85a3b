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
      .returning({ count: rateLimits.count });
    return row?.count ?? 1;
  }

  async clear(key: string): Promise<void> {
    await this.db.delete(rateLimits).where(eq(rateLimits.key, key));
  }
}
