import type { GroupActionDto, GroupActionItemDto, GroupActionKind, GroupActionStatus, GroupItemStatus } from '@wadesk/contracts';
import { and, asc, desc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { groupActionItems, groupActions, users, whatsapps } from '../../db/schema.js';

export interface GroupActionWrite {
  kind: GroupActionKind;
  whatsappId: number;
  userId: number | null;
  subject: string | null;
  description: string | null;
  title: string | null;
  participants: string | null;
  message: string | null;
  minInterval: number;
  maxInterval: number;
  chain: string;
  nextRunAt: Date;
}

/** What the step job needs of an action. */
export interface GroupActionRecord extends Omit<GroupActionWrite, 'nextRunAt'> {
  id: number;
  status: GroupActionStatus;
  planned: boolean;
}

export interface PlannedItem {
  target: string;
  label: string | null;
}

export interface ClaimedItem {
  line: number;
  target: string;
  label: string | null;
}

export type ItemClaim = { outcome: 'stale' } | { outcome: 'done' } | { outcome: 'claimed'; item: ClaimedItem };

export type ItemOutcome = { status: 'done'; result?: string } | { status: 'failed' | 'unknown'; error: string };

const UNKNOWN_OUTCOME = 'The server stopped during this step: it is not known whether it happened, so it is not done again.';
const ACTIVE: GroupActionStatus[] = ['queued', 'running'];
const ITEM_BATCH = 1000;

function toRecord(row: typeof groupActions.$inferSelect): GroupActionRecord {
  return {
    id: row.id,
    kind: row.kind as GroupActionKind,
    status: row.status as GroupActionStatus,
    whatsappId: row.whatsappId,
    userId: row.userId,
    subject: row.subject,
    description: row.description,
    title: row.title,
    participants: row.participants,
    message: row.message,
    minInterval: row.minInterval,
    maxInterval: row.maxInterval,
    chain: row.chain,
    planned: row.planned,
  };
}

function toDto(row: { action: typeof groupActions.$inferSelect; whatsappName: string | null; userName: string | null }): GroupActionDto {
  const a = row.action;
  const active = a.status === 'queued' || a.status === 'running';
  return {
    id: a.id,
    kind: a.kind as GroupActionKind,
    status: a.status as GroupActionStatus,
    whatsappId: a.whatsappId,
    whatsappName: row.whatsappName,
    userId: a.userId,
    userName: row.userName,
    subject: a.subject,
    description: a.description,
    title: a.title,
    message: a.message,
    minInterval: a.minInterval,
    maxInterval: a.maxInterval,
    total: a.total,
    done: a.done,
    failed: a.failed,
    unknown: a.unknown,
    skipped: a.skipped,
    nextRunAt: active ? (a.nextRunAt?.toISOString() ?? null) : null,
    lastError: a.lastError,
    createdAt: a.createdAt.toISOString(),
    updatedAt: a.updatedAt.toISOString(),
    startedAt: a.startedAt?.toISOString() ?? null,
    finishedAt: a.finishedAt?.toISOString() ?? null,
  };
}

function toItemDto(row: typeof groupActionItems.$inferSelect): GroupActionItemDto {
  return {
    line: row.line,
    target: row.target,
    label: row.label,
    status: row.status as GroupItemStatus,
    error: row.error,
    result: row.result,
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

/** The only file that queries group actions and their items. */
export class GroupsRepository {
  constructor(private readonly db: Executor) {}

  async insert(data: GroupActionWrite): Promise<number> {
    const [row] = await this.db.insert(groupActions).values(data).returning({ id: groupActions.id });
    return row!.id;
  }

  /** Newest first; only `userId`'s actions when given. */
  async list(userId: number | null, page: number, pageSize: number): Promise<{ groupActions: GroupActionDto[]; hasMore: boolean }> {
    const rows = await this.selectDtos()
      .where(userId === null ? undefined : eq(groupActions.userId, userId))
      .orderBy(desc(groupActions.id))
      .limit(pageSize + 1)
      .offset((page - 1) * pageSize);
    return { groupActions: rows.slice(0, pageSize).map(toDto), hasMore: rows.length > pageSize };
  }

  async findDto(id: number): Promise<GroupActionDto | null> {
    const [row] = await this.selectDtos().where(eq(groupActions.id, id)).limit(1);
    return row ? toDto(row) : null;
  }

  async findRecord(id: number): Promise<GroupActionRecord | null> {
    const [row] = await this.db.select().from(groupActions).where(eq(groupActions.id, id)).limit(1);
    return row ? toRecord(row) : null;
  }

  async items(id: number, page: number, pageSize: number): Promise<{ items: GroupActionItemDto[]; hasMore: boolean }> {
    const rows = await this.db
      .select()
      .from(groupActionItems)
      .where(eq(groupActionItems.groupActionId, id))
      .orderBy(asc(groupActionItems.line))
      .limit(pageSize + 1)
      .offset((page - 1) * pageSize);
    return { items: rows.slice(0, pageSize).map(toItemDto), hasMore: rows.length > pageSize };
  }

  /**
   * Stores the groups (or participants) the action acts on, once: only for `chain`, only while the action is
   * active and not yet planned. False when another step planned it or the chain is gone.
   */
  async plan(id: number, chain: string, items: PlannedItem[], skipped: number, now: Date): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [action] = await tx.select().from(groupActions).where(eq(groupActions.id, id)).for('update');
      if (!action || action.chain !== chain || action.planned || !ACTIVE.includes(action.status as GroupActionStatus)) return false;
      for (let i = 0; i < items.length; i += ITEM_BATCH) {
        await tx.insert(groupActionItems).values(
          items.slice(i, i + ITEM_BATCH).map((item, k) => ({ groupActionId: id, line: i + k + 1, target: item.target, label: item.label, status: 'pending' })),
        );
      }
      await tx
        .update(groupActions)
        .set({ planned: true, total: items.length, skipped, status: 'running', startedAt: now, lastError: null, updatedAt: now })
        .where(eq(groupActions.id, id));
      return true;
    });
  }

  /**
   * Takes the action's next item for `chain`, with the action row locked (the campaigns' claim, decision 0014): an
   * item left `running` becomes `unknown`; none left: the action is done; else the next one is marked `running`
   * and committed before anything is done.
   */
  async claimNext(id: number, chain: string, now: Date): Promise<ItemClaim> {
    return this.db.transaction(async (tx) => {
      const [action] = await tx.select().from(groupActions).where(eq(groupActions.id, id)).for('update');
      if (!action || action.chain !== chain || !ACTIVE.includes(action.status as GroupActionStatus)) return { outcome: 'stale' } as const;
      const lost = await tx
        .update(groupActionItems)
        .set({ status: 'unknown', error: UNKNOWN_OUTCOME, finishedAt: now })
        .where(and(eq(groupActionItems.groupActionId, id), eq(groupActionItems.status, 'running')))
        .returning({ line: groupActionItems.line });
      const counted = { done: sql`${groupActions.done} + ${lost.length}`, unknown: sql`${groupActions.unknown} + ${lost.length}` };
      const [next] = await tx
        .select({ line: groupActionItems.line, target: groupActionItems.target, label: groupActionItems.label })
        .from(groupActionItems)
        .where(and(eq(groupActionItems.groupActionId, id), eq(groupActionItems.status, 'pending')))
        .orderBy(asc(groupActionItems.line))
        .limit(1);
      if (!next) {
        await tx
          .update(groupActions)
          .set({ ...counted, status: 'done', finishedAt: now, nextRunAt: null, updatedAt: now })
          .where(eq(groupActions.id, id));
        return { outcome: 'done' } as const;
      }
      await tx
        .update(groupActionItems)
        .set({ status: 'running' })
        .where(and(eq(groupActionItems.groupActionId, id), eq(groupActionItems.line, next.line)));
      // While the step is under way, nextRunAt says when it began (the watchdog's clock).
      await tx.update(groupActions).set({ ...counted, status: 'running', nextRunAt: now, updatedAt: now }).where(eq(groupActions.id, id));
      return { outcome: 'claimed', item: next } as const;
    });
  }

  /** Records what became of a `running` item, and counts it. */
  async finishItem(id: number, line: number, outcome: ItemOutcome, now: Date): Promise<void> {
    await this.db.transaction(async (tx) => {
      const [changed] = await tx
        .update(groupActionItems)
        .set(
          outcome.status === 'done'
            ? { status: 'done', result: outcome.result ?? null, error: null, finishedAt: now }
            : { status: outcome.status, error: outcome.error.slice(0, 1000), finishedAt: now },
        )
        .where(and(eq(groupActionItems.groupActionId, id), eq(groupActionItems.line, line), eq(groupActionItems.status, 'running')))
        .returning({ line: groupActionItems.line });
      if (!changed) return; // settled by a recovery: counted there
      const counter = outcome.status === 'failed' ? { failed: sql`${groupActions.failed} + 1` } : outcome.status === 'unknown' ? { unknown: sql`${groupActions.unknown} + 1` } : {};
      await tx
        .update(groupActions)
        .set({ done: sql`${groupActions.done} + 1`, ...counter, updatedAt: now })
        .where(eq(groupActions.id, id));
    });
  }

  /** When the next step of `chain` is due (and why it waits); false when the chain no longer owns an active action. */
  async setNextRun(id: number, chain: string, at: Date, waitingFor: string | null = null): Promise<boolean> {
    const rows = await this.db
      .update(groupActions)
      .set({ nextRunAt: at, lastError: waitingFor, updatedAt: new Date() })
      .where(and(eq(groupActions.id, id), eq(groupActions.chain, chain), inArray(groupActions.status, ACTIVE)))
      .returning({ id: groupActions.id });
    return rows.length > 0;
  }

  /** Moves an action from one of `from` to `to` with a new chain; false when it was in none of `from`. */
  async transition(
    id: number,
    from: GroupActionStatus[],
    to: GroupActionStatus,
    changes: { chain: string; now: Date; nextRunAt?: Date | null; lastError?: string | null },
  ): Promise<boolean> {
    const finished = to === 'done' || to === 'cancelled';
    const rows = await this.db
      .update(groupActions)
      .set({
        status: to,
        chain: changes.chain,
        updatedAt: changes.now,
        nextRunAt: changes.nextRunAt ?? null,
        ...(changes.lastError !== undefined ? { lastError: changes.lastError } : {}),
        ...(finished ? { finishedAt: changes.now } : {}),
      })
      .where(and(eq(groupActions.id, id), inArray(groupActions.status, from)))
      .returning({ id: groupActions.id });
    return rows.length > 0;
  }

  /** Active actions whose next step is overdue by `graceMs` (its job was lost): the watchdog's list. */
  async overdue(now: Date, graceMs: number): Promise<{ id: number; status: GroupActionStatus }[]> {
    const rows = await this.db
      .select({ id: groupActions.id, status: groupActions.status })
      .from(groupActions)
      .where(
        and(
          inArray(groupActions.status, ACTIVE),
          or(isNull(groupActions.nextRunAt), lt(groupActions.nextRunAt, new Date(now.getTime() - graceMs))),
        ),
      );
    return rows.map((r) => ({ id: r.id, status: r.status as GroupActionStatus }));
  }

  private selectDtos() {
    return this.db
      .select({ action: groupActions, whatsappName: whatsapps.name, userName: users.name })
      .from(groupActions)
      .leftJoin(whatsapps, eq(whatsapps.id, groupActions.whatsappId))
      .leftJoin(users, eq(users.id, groupActions.userId))
      .$dynamic();
  }
}
