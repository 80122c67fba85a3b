import type { OutreachChannel, OutreachDto, OutreachItemDto, OutreachItemStatus, OutreachStatus } from '@wadesk/contracts';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { outreachBatches, outreachItems, users } from '../../db/schema.js';

export interface BatchWrite {
  channel: OutreachChannel;
  userId: number | null;
  sender: string | null;
  text: string;
  language: string | null;
  chain: string;
  nextRunAt: Date;
}

export type BatchRecord = typeof outreachBatches.$inferSelect;
export type ItemClaim = { outcome: 'stale' } | { outcome: 'done' } | { outcome: 'claimed'; line: number; recipient: string };
export type ItemOutcome = { status: 'sent'; providerId: string } | { status: 'failed' | 'unknown'; error: string };

const ACTIVE: OutreachStatus[] = ['queued', 'running'];

function toDto(row: { batch: BatchRecord; userName: string | null }): OutreachDto {
  const b = row.batch;
  return {
    id: b.id,
    channel: b.channel as OutreachChannel,
    status: b.status as OutreachStatus,
    userId: b.userId,
    userName: row.userName,
    sender: b.sender,
    text: b.text,
    language: b.language,
    total: b.total,
    done: b.done,
    failed: b.failed,
    unknown: b.unknown,
    lastError: b.lastError,
    createdAt: b.createdAt.toISOString(),
    finishedAt: b.finishedAt?.toISOString() ?? null,
  };
}

function toItemDto(row: typeof outreachItems.$inferSelect): OutreachItemDto {
  return {
    line: row.line,
    recipient: row.recipient,
    status: row.status as OutreachItemStatus,
    providerId: row.providerId,
    error: row.error,
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

/** The only file that queries outreach batches and their recipients. */
export class OutreachRepository {
  constructor(private readonly db: Executor) {}

  /** The batch and its recipients, in one transaction. */
  async insert(data: BatchWrite, recipients: string[], alsoInTransaction?: (tx: Executor, id: number) => Promise<void>): Promise<number> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(outreachBatches)
        .values({ ...data, total: recipients.length })
        .returning({ id: outreachBatches.id });
      const id = row!.id;
      await tx.insert(outreachItems).values(recipients.map((recipient, i) => ({ batchId: id, line: i + 1, recipient })));
      await alsoInTransaction?.(tx, id);
      return id;
    });
  }

  private selectDtos() {
    return this.db
      .select({ batch: outreachBatches, userName: users.name })
      .from(outreachBatches)
      .leftJoin(users, eq(users.id, outreachBatches.userId));
  }

  /** A channel's batches, newest first; only `userId`'s when given. */
  async list(channel: OutreachChannel, userId: number | null, page: number, pageSize: number): Promise<{ batches: OutreachDto[]; hasMore: boolean }> {
    const rows = await this.selectDtos()
      .where(and(eq(outreachBatches.channel, channel), userId === null ? undefined : eq(outreachBatches.userId, userId)))
      .orderBy(desc(outreachBatches.id))
      .limit(pageSize + 1)
      .offset((page - 1) * pageSize);
    return { batches: rows.slice(0, pageSize).map(toDto), hasMore: rows.length > pageSize };
  }

  async findDto(id: number): Promise<OutreachDto | null> {
    const [row] = await this.selectDtos().where(eq(outreachBatches.id, id));
    return row ? toDto(row) : null;
  }

  async findRecord(id: number): Promise<BatchRecord | null> {
    const [row] = await this.db.select().from(outreachBatches).where(eq(outreachBatches.id, id));
    return row ?? null;
  }

  async items(id: number): Promise<OutreachItemDto[]> {
    const rows = await this.db.select().from(outreachItems).where(eq(outreachItems.batchId, id)).orderBy(asc(outreachItems.line)).limit(1000);
    return rows.map(toItemDto);
  }

  /**
   * Claims the next pending recipient for the chain (`running` before the provider is called), or finishes the
   * batch when none is left. A recipient left `running` by a stopped process becomes `unknown`: never sent twice.
   */
  async claimNext(id: number, chain: string, now: Date): Promise<ItemClaim> {
    return this.db.transaction(async (tx) => {
      const [batch] = await tx
        .select()
        .from(outreachBatches)
        .where(and(eq(outreachBatches.id, id), eq(outreachBatches.chain, chain), inArray(outreachBatches.status, ACTIVE)))
        .for('update');
      if (!batch) return { outcome: 'stale' } as const;
      const left = await tx
        .update(outreachItems)
        .set({ status: 'unknown', error: 'The server stopped during this send: it is not known whether it happened, so it is not made again.', finishedAt: now })
        .where(and(eq(outreachItems.batchId, id), eq(outreachItems.status, 'running')))
        .returning({ line: outreachItems.line });
      if (left.length > 0) await tx.update(outreachBatches).set({ unknown: sql`${outreachBatches.unknown} + ${left.length}` }).where(eq(outreachBatches.id, id));
      const [next] = await tx
        .select({ line: outreachItems.line, recipient: outreachItems.recipient })
        .from(outreachItems)
        .where(and(eq(outreachItems.batchId, id), eq(outreachItems.status, 'pending')))
        .orderBy(asc(outreachItems.line))
        .limit(1);
      if (!next) {
        await tx.update(outreachBatches).set({ status: 'done', finishedAt: now, nextRunAt: null, updatedAt: now }).where(eq(outreachBatches.id, id));
        return { outcome: 'done' } as const;
      }
      await tx
        .update(outreachItems)
        .set({ status: 'running' })
        .where(and(eq(outreachItems.batchId, id), eq(outreachItems.line, next.line)));
      await tx.update(outreachBatches).set({ status: 'running', updatedAt: now }).where(eq(outreachBatches.id, id));
      return { outcome: 'claimed', line: next.line, recipient: next.recipient } as const;
    });
  }

  async finishItem(id: number, line: number, outcome: ItemOutcome, now: Date): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx
        .update(outreachItems)
        .set({
          status: outcome.status,
          providerId: outcome.status === 'sent' ? outcome.providerId.slice(0, 200) : null,
          error: outcome.status === 'sent' ? null : outcome.error,
          finishedAt: now,
        })
        .where(and(eq(outreachItems.batchId, id), eq(outreachItems.line, line), eq(outreachItems.status, 'running')));
      const counter = outcome.status === 'sent' ? outreachBatches.done : outcome.status === 'failed' ? outreachBatches.failed : outreachBatches.unknown;
      await tx
        .update(outreachBatches)
        .set({
          [outcome.status === 'sent' ? 'done' : outcome.status]: sql`${counter} + 1`,
          lastError: outcome.status === 'sent' ? undefined : outcome.error,
          updatedAt: now,
        })
        .where(eq(outreachBatches.id, id));
    });
  }

  async setNextRun(id: number, chain: string, at: Date): Promise<boolean> {
    const rows = await this.db
      .update(outreachBatches)
      .set({ nextRunAt: at })
      .where(and(eq(outreachBatches.id, id), eq(outreachBatches.chain, chain), inArray(outreachBatches.status, ACTIVE)))
      .returning({ id: outreachBatches.id });
    return rows.length > 0;
  }

  /** Cancels an active batch (a new chain: its pending step does nothing); answers whether it was active. */
  async cancel(id: number, chain: string, now: Date): Promise<boolean> {
    const rows = await this.db
      .update(outreachBatches)
      .set({ status: 'cancelled', chain, finishedAt: now, nextRunAt: null, updatedAt: now })
      .where(and(eq(outreachBatches.id, id), inArray(outreachBatches.status, ACTIVE)))
      .returning({ id: outreachBatches.id });
    return rows.length > 0;
  }

  /** Active batches whose next step is overdue by `graceMs` (their job was lost with a process). */
  async overdue(now: Date, graceMs: number): Promise<number[]> {
    const rows = await this.db
      .select({ id: outreachBatches.id })
      .from(outreachBatches)
      .where(and(inArray(outreachBatches.status, ACTIVE), sql`${outreachBatches.nextRunAt} < ${new Date(now.getTime() - graceMs)}`));
    return rows.map((r) => r.id);
  }

  async rechain(id: number, chain: string, at: Date): Promise<boolean> {
    const rows = await this.db
      .update(outreachBatches)
      .set({ chain, nextRunAt: at })
      .where(and(eq(outreachBatches.id, id), inArray(outreachBatches.status, ACTIVE)))
      .returning({ id: outreachBatches.id });
    return rows.length > 0;
  }
}
