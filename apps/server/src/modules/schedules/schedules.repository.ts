import type { MessageTemplate, ScheduleDto, ScheduleStatus } from '@wadesk/contracts';
import { and, asc, desc, eq, lt, lte, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { contacts, schedules, users, whatsapps } from '../../db/schema.js';

export interface ScheduleWrite {
  whatsappId: number;
  contactId: number | null;
  number: string;
  userId: number | null;
  body: string;
  mediaUrl: string | null;
  /** Sent as this approved template (cloud-api connections, issue 18). */
  template: MessageTemplate | null;
  sendAt: Date;
}

/** What the send job needs of a schedule. */
export interface ScheduleRecord extends ScheduleWrite {
  id: number;
  status: ScheduleStatus;
  version: number;
}

export interface ScheduleFilter {
  status?: ScheduleStatus;
  /** `YYYY-MM-DD`, a day of `timeZone`. */
  date?: string;
  timeZone: string;
  contactId?: number;
  /** Only the schedules of this user (attendants see their own). */
  userId?: number;
  whatsappId?: number;
}

export type ScheduleOutcome =
  | { status: 'sent'; messageId: number; ticketId: number; sentAt: Date; late: boolean }
  | { status: 'failed'; error: string; ticketId?: number | null };

const LOST_SEND =
  'The server stopped while this message was being sent: it may or may not have arrived, so it is not sent again.';

function toRecord(row: typeof schedules.$inferSelect): ScheduleRecord {
  return {
    id: row.id,
    status: row.status as ScheduleStatus,
    version: row.version,
    whatsappId: row.whatsappId,
    contactId: row.contactId,
    number: row.number,
    userId: row.userId,
    body: row.body,
    mediaUrl: row.mediaUrl,
    template: row.template ?? null,
    sendAt: row.sendAt,
  };
}

function toDto(row: { s: typeof schedules.$inferSelect; whatsappName: string | null; contactName: string | null; userName: string | null }): ScheduleDto {
  const s = row.s;
  return {
    id: s.id,
    status: s.status as ScheduleStatus,
    whatsappId: s.whatsappId,
    whatsappName: row.whatsappName,
    contactId: s.contactId,
    contactName: row.contactName,
    number: s.number,
    body: s.body,
    mediaUrl: s.mediaUrl,
    template: s.template ?? null,
    sendAt: s.sendAt.toISOString(),
    userId: s.userId,
    userName: row.userName,
    error: s.error,
    messageId: s.messageId,
    ticketId: s.ticketId,
    sentAt: s.sentAt?.toISOString() ?? null,
    late: s.late,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  };
}

/** The only file that queries scheduled messages. */
export class SchedulesRepository {
  constructor(private readonly db: Database) {}

  async insert(data: ScheduleWrite, now: Date): Promise<ScheduleRecord> {
    const [row] = await this.db.insert(schedules).values({ ...data, createdAt: now, updatedAt: now }).returning();
    return toRecord(row!);
  }

  async findRecord(id: number): Promise<ScheduleRecord | null> {
    const [row] = await this.db.select().from(schedules).where(eq(schedules.id, id)).limit(1);
    return row ? toRecord(row) : null;
  }

  async findDto(id: number): Promise<ScheduleDto | null> {
    const [row] = await this.selectDtos().where(eq(schedules.id, id)).limit(1);
    return row ? toDto(row) : null;
  }

  /** A page of schedules: the waiting ones soonest first, any other listing newest time first. */
  async list(filter: ScheduleFilter, page: number, pageSize: number): Promise<{ schedules: ScheduleDto[]; hasMore: boolean }> {
    const order = filter.status === 'scheduled' ? [asc(schedules.sendAt), asc(schedules.id)] : [desc(schedules.sendAt), desc(schedules.id)];
    const rows = await this.selectDtos()
      .where(and(...this.conditions(filter)))
      .orderBy(...order)
      .limit(pageSize + 1)
      .offset((page - 1) * pageSize);
    return { schedules: rows.slice(0, pageSize).map(toDto), hasMore: rows.length > pageSize };
  }

  /** The ids and versions of the `scheduled` schedules matching `filter` (DISPARAR). */
  async waiting(filter: ScheduleFilter): Promise<{ id: number; version: number }[]> {
    return this.db
      .select({ id: schedules.id, version: schedules.version })
      .from(schedules)
      .where(and(...this.conditions({ ...filter, status: 'scheduled' })))
      .orderBy(asc(schedules.sendAt), asc(schedules.id));
  }

  /**
   * Changes a schedule that is still `scheduled` at `version`, moving it to the next version (so any job queued for
   * the old one does nothing). Null when it is no longer scheduled or was changed meanwhile.
   */
  async change(id: number, version: number, changes: Partial<Pick<ScheduleWrite, 'body' | 'mediaUrl' | 'template' | 'sendAt' | 'whatsappId'>> & { status?: 'cancelled' }, now: Date): Promise<ScheduleRecord | null> {
    const [row] = await this.db
      .update(schedules)
      .set({ ...changes, version: sql`${schedules.version} + 1`, updatedAt: now })
      .where(and(eq(schedules.id, id), eq(schedules.status, 'scheduled'), eq(schedules.version, version)))
      .returning();
    return row ? toRecord(row) : null;
  }

  /**
   * The claim (decision 0014): `scheduled → sending` for exactly this version, in one statement, committed before
   * the network is called. Only one caller (job, re-delivered job, another process) gets the row.
   */
  async claim(id: number, version: number, now: Date): Promise<ScheduleRecord | null> {
    const [row] = await this.db
      .update(schedules)
      .set({ status: 'sending', updatedAt: now })
      .where(and(eq(schedules.id, id), eq(schedules.status, 'scheduled'), eq(schedules.version, version)))
      .returning();
    return row ? toRecord(row) : null;
  }

  /** Records what became of a claimed (`sending`) schedule. */
  async finish(id: number, outcome: ScheduleOutcome, now: Date): Promise<void> {
    const set =
      outcome.status === 'sent'
        ? { status: 'sent', messageId: outcome.messageId, ticketId: outcome.ticketId, sentAt: outcome.sentAt, late: outcome.late, error: null }
        : { status: 'failed', error: outcome.error.slice(0, 2000), ...(outcome.ticketId ? { ticketId: outcome.ticketId } : {}) };
    await this.db
      .update(schedules)
      .set({ ...set, updatedAt: now })
      .where(and(eq(schedules.id, id), eq(schedules.status, 'sending')));
  }

  /** The `scheduled` schedules due by `now` (their job may be lost, or the app was stopped at their time). */
  async due(now: Date, limit = 500): Promise<{ id: number; version: number }[]> {
    return this.db
      .select({ id: schedules.id, version: schedules.version })
      .from(schedules)
      .where(and(eq(schedules.status, 'scheduled'), lte(schedules.sendAt, now)))
      .orderBy(asc(schedules.sendAt))
      .limit(limit);
  }

  /**
   * Schedules left `sending` since before `before` (their process died during the send, which is bounded in time):
   * `failed`, never sent again. Answers their ids.
   */
  async failLostSends(before: Date, now: Date): Promise<number[]> {
    const rows = await this.db
      .update(schedules)
      .set({ status: 'failed', error: LOST_SEND, updatedAt: now })
      .where(and(eq(schedules.status, 'sending'), lt(schedules.updatedAt, before)))
      .returning({ id: schedules.id });
    return rows.map((r) => r.id);
  }

  private conditions(filter: ScheduleFilter): SQL[] {
    const where: SQL[] = [];
    if (filter.status) where.push(eq(schedules.status, filter.status));
    if (filter.contactId) where.push(eq(schedules.contactId, filter.contactId));
    if (filter.userId) where.push(eq(schedules.userId, filter.userId));
    if (filter.whatsappId) where.push(eq(schedules.whatsappId, filter.whatsappId));
    if (filter.date) {
      // The day of the given time zone: [day 00:00, next day 00:00) there, whatever the session's zone.
      where.push(sql`(${schedules.sendAt} at time zone ${filter.timeZone})::date = ${filter.date}::date`);
    }
    return where;
  }

  private selectDtos() {
    return this.db
      .select({ s: schedules, whatsappName: whatsapps.name, contactName: contacts.name, userName: users.name })
      .from(schedules)
      .leftJoin(whatsapps, eq(whatsapps.id, schedules.whatsappId))
      .leftJoin(contacts, eq(contacts.id, schedules.contactId))
      .leftJoin(users, eq(users.id, schedules.userId))
      .$dynamic();
  }
}

