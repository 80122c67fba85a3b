import type { AuditAction, AuditActorKind, AuditEntryDto } from '@wadesk/contracts';
import { and, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { auditLog } from '../../db/schema.js';

export interface AuditRow {
  actorKind: AuditActorKind;
  userId: number | null;
  userName: string | null;
  ip: string | null;
  action: AuditAction;
  targetType: string | null;
  targetId: string | null;
  before: unknown;
  after: unknown;
  /** Tests and imports only: the database's now() otherwise. */
  at?: Date;
}

export interface AuditFilter {
  action?: AuditAction;
  userId?: number;
  from?: Date;
  to?: Date;
}

function toAuditEntryDto(row: typeof auditLog.$inferSelect): AuditEntryDto {
  return {
    id: row.id,
    at: row.at.toISOString(),
    actorKind: row.actorKind as AuditActorKind,
    userId: row.userId,
    userName: row.userName,
    ip: row.ip,
    action: row.action as AuditAction,
    targetType: row.targetType,
    targetId: row.targetId,
    before: row.before ?? null,
    after: row.after ?? null,
  };
}

function whereOf(filter: AuditFilter): SQL | undefined {
  return and(
    filter.action ? eq(auditLog.action, filter.action) : undefined,
    filter.userId !== undefined ? eq(auditLog.userId, filter.userId) : undefined,
    filter.from ? gte(auditLog.at, filter.from) : undefined,
    filter.to ? lt(auditLog.at, filter.to) : undefined,
  );
}

/**
 * The only file that queries the audit log. It inserts and reads; the one delete is the retention's, which sets
 * `wadesk.audit_retention` for its own transaction (the table's trigger refuses any other UPDATE or DELETE).
 */
export class AuditRepository {
  constructor(private readonly db: Executor) {}

  async insert(row: AuditRow): Promise<void> {
    await this.db.insert(auditLog).values({
      ...row,
      userName: row.userName?.slice(0, 254) ?? null,
      ip: row.ip?.slice(0, 64) ?? null,
      targetId: row.targetId?.slice(0, 100) ?? null,
      before: row.before ?? null,
      after: row.after ?? null,
    });
  }

  /** Newest first; `limit + 1` rows are read so that the caller knows whether there are more. */
  async list(filter: AuditFilter, offset: number, limit: number): Promise<AuditEntryDto[]> {
    const rows = await this.db
      .select()
      .from(auditLog)
      .where(whereOf(filter))
      .orderBy(desc(auditLog.at), desc(auditLog.id))
      .limit(limit)
      .offset(offset);
    return rows.map(toAuditEntryDto);
  }

  /** Entries older than `before` are deleted, in the caller's transaction (which must be one). */
  async deleteOlderThan(before: Date): Promise<number> {
    await this.db.execute(sql`set local wadesk.audit_retention = 'on'`);
    const rows = await this.db.delete(auditLog).where(lt(auditLog.at, before)).returning({ id: auditLog.id });
    return rows.length;
  }
}
