import { and, eq, isNull, lt, or } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { refreshTokens } from '../../db/schema.js';

export interface RefreshTokenRecord {
  id: string;
  userId: number;
  tokenHash: string;
  expiresAt: Date;
  revokedAt: Date | null;
}

export class RefreshTokensRepository {
  constructor(private readonly db: Executor) {}

  async insert(record: Omit<RefreshTokenRecord, 'revokedAt'>): Promise<void> {
    await this.db.insert(refreshTokens).values(record);
  }

  async find(id: string): Promise<RefreshTokenRecord | null> {
    const [row] = await this.db.select().from(refreshTokens).where(eq(refreshTokens.id, id)).limit(1);
    return row ?? null;
  }

  /** Revokes a live token; false when it was already revoked (a concurrent rotation won). */
  async revoke(id: string): Promise<boolean> {
    const rows = await this.db
      .update(refreshTokens)
      .set({ revokedAt: new Date() })
      .where(and(eq(refreshTokens.id, id), isNull(refreshTokens.revokedAt)))
      .returning({ id: refreshTokens.id });
    return rows.length > 0;
  }

  async revokeAllOf(userId: number): Promise<void> {
    await this.db
      .update(refreshTokens)
      .set({ revokedAt: new Date() })
      .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
  }

  /** Drops tokens that expired or were revoked more than a day ago. */
  async prune(now = new Date()): Promise<void> {
    const dayAgo = new Date(now.getTime() - 24 * 3600 * 1000);
    await this.db.delete(refreshTokens).where(or(lt(refreshTokens.expiresAt, now), lt(refreshTokens.revokedAt, dayAgo)));
  }
}
