import { and, eq, gt, isNull, lt, ne } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { refreshTokens } from '../../db/schema.js';

export interface RefreshTokenRecord {
  id: string;
  userId: number;
  /** The sign-in this token belongs to: kept by every rotation. */
  familyId: string;
  tokenHash: string;
  expiresAt: Date;
  revokedAt: Date | null;
}

export class RefreshTokensRepository {
  constructor(private readonly db: Executor) {}

  async insert(record: Omit<RefreshTokenRecord, 'revokedAt'>): Promise<void> {
    await this.db.insert(refreshTokens).values(record);
  }

  /** Whether the user has signed in at all (a sign-in leaves a token, live or revoked, until it expires). */
  async anyOf(userId: number): Promise<boolean> {
    const [row] = await this.db.select({ id: refreshTokens.id }).from(refreshTokens).where(eq(refreshTokens.userId, userId)).limit(1);
    return row !== undefined;
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

  /** Ends one sign-in: every live token of the family is revoked. */
  async revokeFamily(familyId: string): Promise<void> {
    await this.db
      .update(refreshTokens)
      .set({ revokedAt: new Date() })
      .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
  }

  /** Ends every sign-in of the user, but the one of `exceptFamilyId` when given. */
  async revokeAllOf(userId: number, exceptFamilyId?: string): Promise<void> {
    const live = and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt));
    await this.db
      .update(refreshTokens)
      .set({ revokedAt: new Date() })
      .where(exceptFamilyId ? and(live, ne(refreshTokens.familyId, exceptFamilyId)) : live);
  }

  /** Whether the sign-in still has a live (unrevoked, unexpired) token of that user. */
  async familyIsLive(familyId: string, userId: number): Promise<boolean> {
    const [row] = await this.db
      .select({ id: refreshTokens.id })
      .from(refreshTokens)
      .where(
        and(
          eq(refreshTokens.familyId, familyId),
          eq(refreshTokens.userId, userId),
          isNull(refreshTokens.revokedAt),
          gt(refreshTokens.expiresAt, new Date()),
        ),
      )
      .limit(1);
    return !!row;
  }

  /**
   * Drops expired tokens. Revoked ones stay until they expire, so reusing a rotated token is still
   * recognised (and ends its family) for as long as it could have been used.
   */
  async prune(now = new Date()): Promise<void> {
    await this.db.delete(refreshTokens).where(lt(refreshTokens.expiresAt, now));
  }
}
