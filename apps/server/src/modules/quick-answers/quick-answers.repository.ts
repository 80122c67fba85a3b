import type { QuickAnswerDto } from '@wadesk/contracts';
import { asc, count, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { containsPattern, startsWithPattern } from '../../db/like-pattern.js';
import { quickAnswers } from '../../db/schema.js';

export interface QuickAnswerWrite {
  shortcut: string;
  message: string;
}

function toQuickAnswerDto(row: typeof quickAnswers.$inferSelect): QuickAnswerDto {
  return {
    id: row.id,
    shortcut: row.shortcut,
    message: row.message,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The only file that queries quick answers. */
export class QuickAnswersRepository {
  constructor(private readonly db: Executor) {}

  /**
   * Quick answers whose shortcut or message contains `search` ('' for all): first the shortcuts that start with
   * it (`/pr` lists `/prazo` before `/aprovado`), then the shortcuts that contain it, then the messages; each by shortcut.
   */
  async list(search: string, page: number, pageSize: number): Promise<{ quickAnswers: QuickAnswerDto[]; count: number }> {
    let where: SQL | undefined;
    // No rank without a search: a bare `order by 0` would name a column position.
    let rank: SQL | null = null;
    if (search) {
      const pattern = containsPattern(search);
      where = or(ilike(quickAnswers.shortcut, pattern), ilike(quickAnswers.message, pattern));
      rank = sql`case when ${ilike(quickAnswers.shortcut, startsWithPattern(search))} then 0 when ${ilike(quickAnswers.shortcut, pattern)} then 1 else 2 end`;
    }
    const [total] = await this.db.select({ n: count() }).from(quickAnswers).where(where);
    const rows = await this.db
      .select()
      .from(quickAnswers)
      .where(where)
      .orderBy(...(rank ? [asc(rank)] : []), asc(sql`lower(${quickAnswers.shortcut})`), asc(quickAnswers.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize);
    return { quickAnswers: rows.map(toQuickAnswerDto), count: total?.n ?? 0 };
  }

  async findDto(id: number): Promise<QuickAnswerDto | null> {
    const [row] = await this.db.select().from(quickAnswers).where(eq(quickAnswers.id, id)).limit(1);
    return row ? toQuickAnswerDto(row) : null;
  }

  async insert(data: QuickAnswerWrite): Promise<QuickAnswerDto> {
    const [row] = await this.db.insert(quickAnswers).values(data).returning();
    return toQuickAnswerDto(row!);
  }

  async update(id: number, data: QuickAnswerWrite): Promise<QuickAnswerDto | null> {
    const [row] = await this.db
      .update(quickAnswers)
      .set({ ...data, updatedAt: new Date() })
      .where(eq(quickAnswers.id, id))
      .returning();
    return row ? toQuickAnswerDto(row) : null;
  }

  async delete(id: number): Promise<boolean> {
    const rows = await this.db.delete(quickAnswers).where(eq(quickAnswers.id, id)).returning({ id: quickAnswers.id });
    return rows.length > 0;
  }
}
