import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { mfaRecoveryCodes, users } from '../../db/schema.js';

export interface MfaState {
  userId: number;
  email: string;
  profile: string;
  passwordHash: string;
  secret: string | null;
  enabledAt: Date | null;
}

/** Two-factor sign-in's columns of users and its recovery codes (issue 37 §1): the only file that writes them. */
export class MfaRepository {
  constructor(private readonly db: Executor) {}

  async state(userId: number): Promise<MfaState | null> {
    const [row] = await this.db
      .select({
        userId: users.id,
        email: users.email,
        profile: users.profile,
        passwordHash: users.passwordHash,
        secret: users.mfaSecret,
        enabledAt: users.mfaEnabledAt,
      })
      .from(users)
      .where(eq(users.id, userId))
      .limit(1);
    return row ?? null;
  }

  /** Stores a new secret, not yet on; false when two-factor sign-in is already on (the secret then stays). */
  async storePendingSecret(userId: number, secret: string): Promise<boolean> {
    const rows = await this.db
      .update(users)
      .set({ mfaSecret: secret, mfaLastStep: null })
      .where(and(eq(users.id, userId), isNull(users.mfaEnabledAt)))
      .returning({ id: users.id });
    return rows.length > 0;
  }

  /** Turns it on with the step just accepted; false when it was turned on meanwhile (a concurrent enable). */
  async enable(userId: number, at: Date, step: number): Promise<boolean> {
    const rows = await this.db
      .update(users)
      .set({ mfaEnabledAt: at, mfaLastStep: step })
      .where(and(eq(users.id, userId), isNull(users.mfaEnabledAt)))
      .returning({ id: users.id });
    return rows.length > 0;
  }

  /** Turns it off and forgets the secret and the recovery codes; false when it was not on. */
  async disable(userId: number): Promise<boolean> {
    await this.db.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, userId));
    const rows = await this.db
      .update(users)
      .set({ mfaSecret: null, mfaEnabledAt: null, mfaLastStep: null })
      .where(and(eq(users.id, userId), sql`(${users.mfaEnabledAt} is not null or ${users.mfaSecret} is not null)`))
      .returning({ id: users.id });
    return rows.length > 0;
  }

  /**
   * Accepts a TOTP step once: true when `step` is later than every step accepted before (and records it), false for
   * a step already used or older. One statement, so two requests with the same code cannot both pass.
   */
  async acceptStep(userId: number, step: number): Promise<boolean> {
    const rows = await this.db
      .update(users)
      .set({ mfaLastStep: step })
      .where(and(eq(users.id, userId), or(isNull(users.mfaLastStep), lt(users.mfaLastStep, step))))
      .returning({ id: users.id });
    return rows.length > 0;
  }

  async replaceRecoveryCodes(userId: number, hashes: string[]): Promise<void> {
    await this.db.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, userId));
    await this.db.insert(mfaRecoveryCodes).values(hashes.map((codeHash) => ({ userId, codeHash })));
  }

  /** Uses a recovery code once: true when an unused one matched (it is now used), false otherwise. */
  async useRecoveryCode(userId: number, codeHash: string, at: Date): Promise<boolean> {
    const rows = await this.db
      .update(mfaRecoveryCodes)
      .set({ usedAt: at })
      .where(and(eq(mfaRecoveryCodes.userId, userId), eq(mfaRecoveryCodes.codeHash, codeHash), isNull(mfaRecoveryCodes.usedAt)))
      .returning({ id: mfaRecoveryCodes.id });
    return rows.length > 0;
  }

  async unusedRecoveryCodes(userId: number): Promise<number> {
    const [row] = await this.db
      .select({ n: sql<number>`count(*)::int` })
      .from(mfaRecoveryCodes)
      .where(and(eq(mfaRecoveryCodes.userId, userId), isNull(mfaRecoveryCodes.usedAt)));
    return row?.n ?? 0;
  }
}
