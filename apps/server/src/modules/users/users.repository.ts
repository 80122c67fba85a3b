import type { ColleagueDto, Profile, UserDto } from '@wadesk/contracts';
import { and, asc, count, eq, ilike, inArray, ne, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { containsPattern, foldedContains } from '../../db/like-pattern.js';
import { batchedRead, perDatabase } from '../../db/batched.js';
import { intArrayParam, prepared } from '../../db/prepared.js';
import { queues, tickets, userQueues, users, whatsapps } from '../../db/schema.js';
import { toQueueDto } from '../queues/queues.mapper.js';

export interface UserRecord {
  id: number;
  name: string;
  email: string;
  profile: Profile;
  passwordHash: string;
  /** Access tokens issued before this instant are refused; null when the password never changed. */
  tokensValidAfter: Date | null;
  /** Two-factor sign-in is on since then (issue 37 §1); null: off. */
  mfaEnabledAt: Date | null;
}

export interface UserWrite {
  name?: string;
  email?: string;
  passwordHash?: string;
  profile?: Profile;
  whatsappId?: number | null;
  tokensValidAfter?: Date;
  /** Automatic assignment's limit of open tickets (issue 36 §4); 0 = no limit. */
  maxOpenTickets?: number;
}

const recordReader = perDatabase((db) =>
  batchedRead<number, UserRecord | null>(async (ids) => {
    const byIds = prepared(db, 'users.byIds', (name) =>
      db.select().from(users).where(sql`${users.id} = any(${sql.placeholder('ids')}::int[])`).prepare(name),
    );
    const rows = await byIds.execute({ ids: intArrayParam([...new Set(ids)]) });
    const byId = new Map(rows.map((row) => [row.id, { ...row, profile: row.profile as Profile }]));
    return ids.map((key) => byId.get(key) ?? null);
  }),
);

/** The only file that queries users. */
export class UsersRepository {
  constructor(private readonly db: Executor) {}

  async count(): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(users);
    return row?.n ?? 0;
  }

  async countAdmins(): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(users).where(eq(users.profile, 'admin'));
    return row?.n ?? 0;
  }

  async findRecordByEmail(email: string): Promise<UserRecord | null> {
    const [row] = await this.db.select().from(users).where(eq(users.email, email)).limit(1);
    return row ? { ...row, profile: row.profile as Profile } : null;
  }

  /**
   * Read on every authenticated request and socket event: one prepared statement for the users of every request
   * arriving in the same turn of the event loop (db/batched.ts), read after all of them arrived.
   */
  findRecordById(id: number): Promise<UserRecord | null> {
    return recordReader(this.db)(id);
  }

  async emailTaken(email: string, exceptId?: number): Promise<boolean> {
    const where = exceptId ? and(eq(users.email, email), ne(users.id, exceptId)) : eq(users.email, email);
    const [row] = await this.db.select({ id: users.id }).from(users).where(where).limit(1);
    return !!row;
  }

  async insert(data: Required<Pick<UserWrite, 'name' | 'email' | 'passwordHash' | 'profile'>> & UserWrite): Promise<number> {
    const [row] = await this.db
      .insert(users)
      .values({
        name: data.name,
        email: data.email,
        passwordHash: data.passwordHash,
        profile: data.profile,
        whatsappId: data.whatsappId ?? null,
        maxOpenTickets: data.maxOpenTickets ?? 0,
      })
      .returning({ id: users.id });
    return row!.id;
  }

  async update(id: number, data: UserWrite): Promise<void> {
    await this.db
      .update(users)
      .set({ ...data, updatedAt: new Date() })
      .where(eq(users.id, id));
  }

  async setQueues(userId: number, queueIds: number[]): Promise<void> {
    await this.db.delete(userQueues).where(eq(userQueues.userId, userId));
    if (queueIds.length > 0) {
      await this.db.insert(userQueues).values(queueIds.map((queueId) => ({ userId, queueId })));
    }
  }

  /** Read on every listing by an attendant: a prepared statement. */
  async queueIdsOf(userId: number): Promise<number[]> {
    const ofUser = prepared(this.db, 'users.queueIds', (name) =>
      this.db.select({ queueId: userQueues.queueId }).from(userQueues).where(eq(userQueues.userId, sql.placeholder('userId'))).prepare(name),
    );
    const rows = await ofUser.execute({ userId });
    return rows.map((r) => r.queueId);
  }

  async delete(id: number): Promise<void> {
    await this.db.delete(users).where(eq(users.id, id));
  }

  /** Returns the user's open tickets to the queue (pending, no user); gives their ids. */
  async returnOpenTicketsToQueue(userId: number): Promise<number[]> {
    const rows = await this.db
      .update(tickets)
      .set({ status: 'pending', userId: null, updatedAt: new Date() })
      .where(and(eq(tickets.userId, userId), eq(tickets.status, 'open')))
      .returning({ id: tickets.id });
    return rows.map((r) => r.id);
  }

  async findDto(id: number): Promise<UserDto | null> {
    const [dto] = await this.loadDtos([id]);
    return dto ?? null;
  }

  async list(searchParam: string, page: number, pageSize: number): Promise<{ users: UserDto[]; count: number }> {
    const pattern = containsPattern(searchParam);
    // The name ignores case and accents ('joao' finds João), through its f_unaccent trigram index.
    const where = searchParam ? or(foldedContains(users.name, searchParam), ilike(users.email, pattern)) : undefined;
    const [total] = await this.db.select({ n: count() }).from(users).where(where);
    const rows = await this.db
      .select({ id: users.id })
      .from(users)
      .where(where)
      .orderBy(asc(sql`lower(${users.name})`), asc(users.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize);
    return { users: await this.loadDtos(rows.map((r) => r.id)), count: total?.n ?? 0 };
  }

  /** Every user as a colleague (id, name, queues), by name: the transfer modal's list. */
  async listColleagues(): Promise<ColleagueDto[]> {
    const rows = await this.db
      .select({ id: users.id, name: users.name })
      .from(users)
      .orderBy(asc(sql`lower(${users.name})`), asc(users.id));
    return this.withQueues(rows);
  }

  /**
   * A page of colleagues (id, name, queues) whose name holds `searchParam` (ignoring case and accents; never the
   * e-mail, which an attendant does not see), by name; one more row is read to tell whether more follow.
   */
  async listColleaguesPage(searchParam: string, page: number, pageSize: number): Promise<{ users: ColleagueDto[]; hasMore: boolean }> {
    const rows = await this.db
      .select({ id: users.id, name: users.name })
      .from(users)
      .where(searchParam ? foldedContains(users.name, searchParam) : undefined)
      .orderBy(asc(sql`lower(${users.name})`), asc(users.id))
      .limit(pageSize + 1)
      .offset((page - 1) * pageSize);
    return { users: await this.withQueues(rows.slice(0, pageSize)), hasMore: rows.length > pageSize };
  }

  /** The users given, each with their queues (id, name, colour). */
  private async withQueues(rows: { id: number; name: string }[]): Promise<ColleagueDto[]> {
    if (rows.length === 0) return [];
    const queueRows = await this.db
      .select({ userId: userQueues.userId, id: queues.id, name: queues.name, color: queues.color })
      .from(userQueues)
      .innerJoin(queues, eq(queues.id, userQueues.queueId))
      .where(inArray(userQueues.userId, rows.map((r) => r.id)))
      .orderBy(asc(queues.name), asc(queues.id));
    const queuesOf = new Map<number, ColleagueDto['queues']>();
    for (const { userId, ...queue } of queueRows) {
      const list = queuesOf.get(userId) ?? [];
      list.push(queue);
      queuesOf.set(userId, list);
    }
    return rows.map((u) => ({ id: u.id, name: u.name, queues: queuesOf.get(u.id) ?? [] }));
  }

  /** DTOs for the given ids, in that order, with queues and connection. */
  async loadDtos(ids: number[]): Promise<UserDto[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .select({ user: users, whatsappName: whatsapps.name })
      .from(users)
      .leftJoin(whatsapps, eq(whatsapps.id, users.whatsappId))
      .where(inArray(users.id, ids));
    const queueRows = await this.db
      .select({ userId: userQueues.userId, queue: queues })
      .from(userQueues)
      .innerJoin(queues, eq(queues.id, userQueues.queueId))
      .where(inArray(userQueues.userId, ids))
      .orderBy(asc(queues.name));
    const byId = new Map(rows.map((r) => [r.user.id, r]));
    return ids.flatMap((id) => {
      const r = byId.get(id);
      if (!r) return [];
      const u = r.user;
      return [
        {
          id: u.id,
          name: u.name,
          email: u.email,
          profile: u.profile as Profile,
          whatsappId: u.whatsappId,
          whatsapp: u.whatsappId && r.whatsappName ? { id: u.whatsappId, name: r.whatsappName } : null,
          mfaEnabled: u.mfaEnabledAt !== null,
          queues: queueRows.filter((q) => q.userId === id).map((q) => toQueueDto(q.queue)),
          maxOpenTickets: u.maxOpenTickets,
          createdAt: u.createdAt.toISOString(),
          updatedAt: u.updatedAt.toISOString(),
        },
      ];
    });
  }
}
