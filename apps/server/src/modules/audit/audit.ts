import type { AuditAction } from '@wadesk/contracts';
import type { Executor } from '../../db/client.js';
import { currentAuditScope, type AuditActor } from './audit-context.js';
import { maskSecrets } from './audit-mask.js';
import { AuditRepository } from './audit.repository.js';

export interface AuditEntryInput {
  action: AuditAction;
  targetType?: string | null;
  targetId?: string | number | null;
  /** The target before and after the change; secret fields are masked here, whatever the caller passes. */
  before?: unknown;
  after?: unknown;
  /** Who acted: the request's user or token by default (decision 0044), 'system' outside a request. */
  actor?: AuditActor;
  /** From which address: the request's by default. */
  ip?: string | null;
}

/**
 * The audit log's one writer (issue 37 §2). `record` is called with the transaction of the change it records, so a
 * change that fails (or is rolled back) leaves no entry, and an entry that cannot be written undoes the change.
 */
export const audit = {
  async record(executor: Executor, entry: AuditEntryInput): Promise<void> {
    const scope = currentAuditScope();
    const actor = entry.actor ?? scope.actor;
    await new AuditRepository(executor).insert({
      actorKind: actor.kind,
      userId: actor.userId ?? null,
      userName: actor.userName ?? null,
      ip: entry.ip !== undefined ? entry.ip : scope.ip,
      action: entry.action,
      targetType: entry.targetType ?? null,
      targetId: entry.targetId === undefined || entry.targetId === null ? null : String(entry.targetId),
      before: entry.before === undefined ? null : maskSecrets(entry.before),
      after: entry.after === undefined ? null : maskSecrets(entry.after),
    });
  },
};
