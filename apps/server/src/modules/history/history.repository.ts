import type { DeviceHistorySummaryDto, HistoryImportDto, HistoryImportStatus } from '@wadesk/contracts';
import { and, asc, count, desc, eq, inArray, lt, max, min, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { deviceHistory, historyImports, users, whatsapps } from '../../db/schema.js';

/** One message of a device's history, as it is kept (device_history). */
export type DeviceHistoryRow = typeof deviceHistory.$inferSelect;
export type DeviceHistoryWrite = Omit<typeof deviceHistory.$inferInsert, 'id' | 'createdAt'>;

export interface HistoryImportWrite {
  whatsappId: number;
  userId: number | null;
  contactNumber: string | null;
  limit: number;
  chain: string;
  nextRunAt: Date;
}

/** What the step job needs of an import. */
export interface HistoryImportRecord {
  id: number;
  status: HistoryImportStatus;
  whatsappId: number;
  contactNumber: string | null;
  limit: number;
  chats: string[] | null;
  chatsDone: number;
  chain: string;
}

/** What importing one chat did, added to the import's counts. */
export interface ChatOutcome {
  imported: number;
  skipped: number;
  ticketCreated: boolean;
  ticketJoined: boolean;
  olderRequested: boolean;
}

const ACTIVE: HistoryImportStatus[] = ['queued', 'running'];
const INSERT_BATCH = 500;

function toDto(row: { item: typeof historyImports.$inferSelect; whatsappName: string | null; userName: string | null }): HistoryImportDto {
  const i = row.item;
  return {
    id: i.id,
    status: i.status as HistoryImportStatus,
    whatsappId: i.whatsappId,
    whatsappName: row.whatsappName,
    userId: i.userId,
    userName: row.userName,
    contactNumber: i.contactNumber,
    limit: i.limit,
    chatsTotal: i.chats?.length ?? 0,
    chatsDone: i.chatsDone,
    messagesImported: i.messagesImported,
    messagesSkipped: i.messagesSkipped,
    ticketsCreated: i.ticketsCreated,
    ticketsJoined: i.ticketsJoined,
    groupsSkipped: i.groupsSkipped,
    olderRequested: i.olderRequested,
    lastError: i.lastError,
    createdAt: i.createdAt.toISOString(),
    updatedAt: i.updatedAt.toISOString(),
    startedAt: i.startedAt?.toISOString() ?? null,
    finishedAt: i.finishedAt?.toISOString() ?? null,
  };
}

/** The only file that queries the device history and the history imports. */
export class HistoryRepository {
  constructor(private readonly db: Executor) {}

  // ---- the device's raw history ----

  /** Keeps history messages once per network id (a message sent again keeps its first row). Answers how many were new. */
  async storeDeviceHistory(rows: DeviceHistoryWrite[]): Promise<number> {
    let added = 0;
    for (let i = 0; i < rows.length; i += INSERT_BATCH) {
      const inserted = await this.db
        .insert(deviceHistory)
        .values(rows.slice(i, i + INSERT_BATCH))
        .onConflictDoNothing({ target: [deviceHistory.whatsappId, deviceHistory.networkId] })
        .returning({ id: deviceHistory.id });
      added += inserted.length;
    }
    return added;
  }

  async deviceSummary(whatsappId: number): Promise<DeviceHistorySummaryDto> {
    const [row] = await this.db
      .select({
        chats: sql<number>`count(distinct ${deviceHistory.chatId})::int`,
        messages: count(),
        oldest: min(deviceHistory.timestamp),
        newest: max(deviceHistory.timestamp),
      })
      .from(deviceHistory)
      .where(eq(deviceHistory.whatsappId, whatsappId));
    return {
      whatsappId,
      chats: row?.chats ?? 0,
      messages: row?.messages ?? 0,
      oldest: row?.oldest ? new Date(row.oldest).toISOString() : null,
      newest: row?.newest ? new Date(row.newest).toISOString() : null,
    };
  }

  /** The chats of a connection's history (one contact's only, when named), newest conversation first. */
  async deviceChats(whatsappId: number, contactNumber: string | null): Promise<{ chatId: string; isGroup: boolean }[]> {
    const rows = await this.db
      .select({ chatId: deviceHistory.chatId, isGroup: sql<boolean>`bool_or(${deviceHistory.isGroup})` })
      .from(deviceHistory)
      .where(and(eq(deviceHistory.whatsappId, whatsappId), contactNumber ? eq(deviceHistory.chatId, contactNumber) : undefined))
      .groupBy(deviceHistory.chatId)
      .orderBy(desc(max(deviceHistory.timestamp)), asc(deviceHistory.chatId));
    return rows;
  }

  /** The newest `limit` messages of a chat, oldest first. */
  async chatMessages(whatsappId: number, chatId: string, limit: number): Promise<DeviceHistoryRow[]> {
    const rows = await this.db
      .select()
      .from(deviceHistory)
      .where(and(eq(deviceHistory.whatsappId, whatsappId), eq(deviceHistory.chatId, chatId)))
      .orderBy(desc(deviceHistory.timestamp), desc(deviceHistory.id))
      .limit(limit);
    return rows.reverse();
  }

  // ---- imports ----

  async insert(data: HistoryImportWrite): Promise<number> {
    const [row] = await this.db.insert(historyImports).values(data).returning({ id: historyImports.id });
    return row!.id;
  }

  /** Newest first; only `userId`'s imports when given. */
  async list(userId: number | null, page: number, pageSize: number): Promise<{ historyImports: HistoryImportDto[]; hasMore: boolean }> {
    const rows = await this.selectDtos()
      .where(userId === null ? undefined : eq(historyImports.userId, userId))
      .orderBy(desc(historyImports.id))
      .limit(pageSize + 1)
      .offset((page - 1) * pageSize);
    return { historyImports: rows.slice(0, pageSize).map(toDto), hasMore: rows.length > pageSize };
  }

  async findDto(id: number): Promise<HistoryImportDto | null> {
    const [row] = await this.selectDtos().where(eq(historyImports.id, id)).limit(1);
    return row ? toDto(row) : null;
  }

  async findRecord(id: number): Promise<HistoryImportRecord | null> {
    const [row] = await this.db.select().from(historyImports).where(eq(historyImports.id, id)).limit(1);
    if (!row) return null;
    return {
      id: row.id,
      status: row.status as HistoryImportStatus,
      whatsappId: row.whatsappId,
      contactNumber: row.contactNumber,
      limit: row.limit,
      chats: row.chats,
      chatsDone: row.chatsDone,
      chain: row.chain,
    };
  }

  /** The first step lists the chats (and the groups left out); false when the chain is no longer the import's. */
  async plan(id: number, chain: string, chats: string[], groupsSkipped: number, now: Date): Promise<boolean> {
    const rows = await this.db
      .update(historyImports)
      .set({ chats, groupsSkipped, status: 'running', startedAt: now, updatedAt: now })
      .where(and(eq(historyImports.id, id), eq(historyImports.chain, chain), inArray(historyImports.status, ACTIVE), sql`${historyImports.chats} is null`))
      .returning({ id: historyImports.id });
    return rows.length > 0;
  }

  /**
   * Counts chat number `index` (0-based) as done with what it stored; once, for the import's current chain only
   * (a retried or stale step counts nothing). The last chat finishes the import.
   */
  async finishChat(id: number, chain: string, index: number, outcome: ChatOutcome, now: Date): Promise<boolean> {
    const rows = await this.db
      .update(historyImports)
      .set({
        chatsDone: index + 1,
        messagesImported: sql`${historyImports.messagesImported} + ${outcome.imported}`,
        messagesSkipped: sql`${historyImports.messagesSkipped} + ${outcome.skipped}`,
        ticketsCreated: sql`${historyImports.ticketsCreated} + ${outcome.ticketCreated ? 1 : 0}`,
        ticketsJoined: sql`${historyImports.ticketsJoined} + ${outcome.ticketJoined ? 1 : 0}`,
        olderRequested: sql`${historyImports.olderRequested} + ${outcome.olderRequested ? 1 : 0}`,
        status: sql`case when jsonb_array_length(${historyImports.chats}) <= ${index + 1} then 'done' else 'running' end`,
        finishedAt: sql`case when jsonb_array_length(${historyImports.chats}) <= ${index + 1} then ${now.toISOString()}::timestamptz else null end`,
        lastError: null,
        updatedAt: now,
      })
      .where(and(eq(historyImports.id, id), eq(historyImports.chain, chain), eq(historyImports.chatsDone, index), inArray(historyImports.status, ACTIVE)))
      .returning({ id: historyImports.id });
    return rows.length > 0;
  }

  /** An import with nothing to do is done at once. */
  async finish(id: number, chain: string, now: Date): Promise<void> {
    await this.db
      .update(historyImports)
      .set({ status: 'done', finishedAt: now, updatedAt: now })
      .where(and(eq(historyImports.id, id), eq(historyImports.chain, chain), inArray(historyImports.status, ACTIVE)));
  }

  /** Records when the next step is due (and why it waits); false when the chain is no longer the import's. */
  async setNextRun(id: number, chain: string, at: Date, lastError: string | null = null): Promise<boolean> {
    const rows = await this.db
      .update(historyImports)
      .set({ nextRunAt: at, lastError, updatedAt: new Date() })
      .where(and(eq(historyImports.id, id), eq(historyImports.chain, chain), inArray(historyImports.status, ACTIVE)))
      .returning({ id: historyImports.id });
    return rows.length > 0;
  }

  /** Moves an import from one of `from` to `to` with a new chain; false when it was in none of them. */
  async transition(id: number, from: HistoryImportStatus[], to: HistoryImportStatus, set: { chain: string; now: Date; nextRunAt?: Date }): Promise<boolean> {
    const finished = to === 'done' || to === 'cancelled';
    const rows = await this.db
      .update(historyImports)
      .set({ status: to, chain: set.chain, updatedAt: set.now, ...(finished ? { finishedAt: set.now } : {}), ...(set.nextRunAt ? { nextRunAt: set.nextRunAt } : {}) })
      .where(and(eq(historyImports.id, id), inArray(historyImports.status, from)))
      .returning({ id: historyImports.id });
    return rows.length > 0;
  }

  /** Active imports whose next step is more than `graceMs` overdue: their step job was lost. */
  async overdue(now: Date, graceMs: number): Promise<{ id: number; status: HistoryImportStatus }[]> {
    const before = new Date(now.getTime() - graceMs);
    const rows = await this.db
      .select({ id: historyImports.id, status: historyImports.status })
      .from(historyImports)
      .where(and(inArray(historyImports.status, ACTIVE), lt(historyImports.nextRunAt, before)));
    return rows.map((r) => ({ id: r.id, status: r.status as HistoryImportStatus }));
  }

  private selectDtos() {
    return this.db
      .select({ item: historyImports, whatsappName: whatsapps.name, userName: users.name })
      .from(historyImports)
      .leftJoin(whatsapps, eq(whatsapps.id, historyImports.whatsappId))
      .leftJoin(users, eq(users.id, historyImports.userId));
  }
}
