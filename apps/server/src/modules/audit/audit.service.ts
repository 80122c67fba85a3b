import { AUDIT_CSV_COLUMNS, AUDIT_PAGE_SIZE, toCsv, type AuditEntryDto, type AuditListResponse } from '@wadesk/contracts';
import type { Database } from '../../db/client.js';
import type { SettingsService } from '../settings/settings.service.js';
import { audit } from './audit.js';
import { AuditRepository, type AuditFilter } from './audit.repository.js';

export type Clock = () => Date;

/** The most rows one CSV export holds (newest first): a wider export is narrowed with the filters. */
export const AUDIT_EXPORT_MAX_ROWS = 100_000;
const EXPORT_CHUNK = 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

function jsonCell(value: unknown): string {
  return value === null || value === undefined ? '' : JSON.stringify(value);
}

/** Reads the audit log for admins, exports it, and deletes entries older than the retention (issue 37 §2). */
export class AuditService {
  constructor(
    private readonly db: Database,
    private readonly settings: SettingsService,
    private readonly now: Clock = () => new Date(),
  ) {}

  /** One page of entries, newest first, AUDIT_PAGE_SIZE a page. */
  async list(filter: AuditFilter, pageNumber: number): Promise<AuditListResponse> {
    const rows = await new AuditRepository(this.db).list(filter, (pageNumber - 1) * AUDIT_PAGE_SIZE, AUDIT_PAGE_SIZE + 1);
    return { entries: rows.slice(0, AUDIT_PAGE_SIZE), hasMore: rows.length > AUDIT_PAGE_SIZE };
  }

  /** The entries the filters select as CSV (contracts' toCsv); the export itself is recorded first, in its own entry. */
  async exportCsv(filter: AuditFilter): Promise<string> {
    await this.db.transaction((tx) =>
      audit.record(tx, {
        action: 'audit.export',
        targetType: 'audit',
        after: {
          action: filter.action ?? null,
          userId: filter.userId ?? null,
          from: filter.from?.toISOString() ?? null,
          to: filter.to?.toISOString() ?? null,
        },
      }),
    );
    const repo = new AuditRepository(this.db);
    const entries: AuditEntryDto[] = [];
    while (entries.length < AUDIT_EXPORT_MAX_ROWS) {
      const chunk = await repo.list(filter, entries.length, EXPORT_CHUNK);
      entries.push(...chunk);
      if (chunk.length < EXPORT_CHUNK) break;
    }
    return toCsv([
      [...AUDIT_CSV_COLUMNS],
      ...entries.map((e) => [e.at, e.actorKind, e.userId, e.userName, e.ip, e.action, e.targetType, e.targetId, jsonCell(e.before), jsonCell(e.after)]),
    ]);
  }

  /**
   * Deletes the entries older than the setting auditRetentionDays (default 365), in one transaction that sets
   * `wadesk.audit_retention` (the table's trigger refuses deletes otherwise), and records how many went.
   */
  async applyRetention(): Promise<number> {
    const days = Number(await this.settings.value('auditRetentionDays'));
    if (!Number.isInteger(days) || days < 1) return 0;
    const before = new Date(this.now().getTime() - days * DAY_MS);
    return this.db.transaction(async (tx) => {
      const deleted = await new AuditRepository(tx).deleteOlderThan(before);
      if (deleted > 0) {
        await audit.record(tx, {
          action: 'audit.retention',
          targetType: 'audit',
          actor: { kind: 'system' },
          ip: null,
          after: { deleted, before: before.toISOString(), days },
        });
      }
      return deleted;
    });
  }
}
