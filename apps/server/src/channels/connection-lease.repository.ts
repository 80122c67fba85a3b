import { and, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { isForeignKeyViolation } from '../db/errors.js';
import { connectionLeases, whatsapps } from '../db/schema.js';

/**
 * Leases in table connection_leases: one process owns a connection's session. Times come from the
 * database clock, so processes with skewed clocks agree.
 */
export class ConnectionLeaseRepository {
  constructor(
    private readonly db: Database,
    private readonly ownerId: string,
    private readonly ttlMs: number,
  ) {}

  private expiry() {
    return sql`now() + ${Math.round(this.ttlMs)}::int * interval '1 millisecond'`;
  }

  /** Takes the lease when it is free, expired or already ours; false when another live process holds it. */
  async acquire(whatsappId: number): Promise<boolean> {
    try {
      const rows = await this.db
        .insert(connectionLeases)
        .values({ whatsappId, ownerId: this.ownerId, expiresAt: this.expiry() })
        .onConflictDoUpdate({
          target: connectionLeases.whatsappId,
          set: { ownerId: this.ownerId, expiresAt: this.expiry() },
          setWhere: or(eq(connectionLeases.ownerId, this.ownerId), lt(connectionLeases.expiresAt, sql`now()`)),
        })
        .returning({ whatsappId: connectionLeases.whatsappId });
      return rows.length > 0;
    } catch (err) {
      if (isForeignKeyViolation(err)) return false; // the connection was deleted meanwhile
      throw err;
    }
  }

  /** Extends our leases; answers the ids still ours (a missing one was lost to another process). */
  async renew(whatsappIds: number[]): Promise<Set<number>> {
    if (whatsappIds.length === 0) return new Set();
    const rows = await this.db
      .update(connectionLeases)
      .set({ expiresAt: this.expiry() })
      .where(and(eq(connectionLeases.ownerId, this.ownerId), inArray(connectionLeases.whatsappId, whatsappIds)))
      .returning({ whatsappId: connectionLeases.whatsappId });
    return new Set(rows.map((r) => r.whatsappId));
  }

  async release(whatsappIds: number[]): Promise<void> {
    if (whatsappIds.length === 0) return;
    await this.db
      .delete(connectionLeases)
      .where(and(eq(connectionLeases.ownerId, this.ownerId), inArray(connectionLeases.whatsappId, whatsappIds)));
  }

  /** Connections nobody runs: without a lease, or whose owner stopped renewing it. */
  async unowned(): Promise<number[]> {
    const rows = await this.db
      .select({ id: whatsapps.id })
      .from(whatsapps)
      .leftJoin(connectionLeases, eq(connectionLeases.whatsappId, whatsapps.id))
      .where(or(isNull(connectionLeases.whatsappId), lt(connectionLeases.expiresAt, sql`now()`)));
    return rows.map((r) => r.id);
  }
}
