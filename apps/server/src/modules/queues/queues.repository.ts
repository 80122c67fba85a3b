import type { QueueDto } from '@wadesk/contracts';
import { and, asc, eq, ne, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { queues, tickets, type BusinessHours } from '../../db/schema.js';
import { toQueueDto } from './queues.mapper.js';

export interface QueueWrite {
  name?: string;
  color?: string;
  greetingMessage?: string;
  businessHours?: BusinessHours | null;
  outOfHoursMessage?: string;
  autoAssign?: boolean;
}

/** The only file that queries queues (their DTOs are mapped here). */
export class QueuesRepository {
  constructor(private readonly db: Executor) {}

  async list(): Promise<QueueDto[]> {
    const rows = await this.db.select().from(queues).orderBy(asc(queues.name), asc(queues.id));
    return rows.map(toQueueDto);
  }

  async findDto(id: number): Promise<QueueDto | null> {
    const [row] = await this.db.select().from(queues).where(eq(queues.id, id)).limit(1);
    return row ? toQueueDto(row) : null;
  }

  async nameTaken(name: string, exceptId?: number): Promise<boolean> {
    const byName = eq(queues.name, name);
    return this.exists(exceptId ? and(byName, ne(queues.id, exceptId)) : byName);
  }

  /** Colours compare case-insensitively ('#ff0000' is '#FF0000'). */
  async colorTaken(color: string, exceptId?: number): Promise<boolean> {
    const byColor = eq(sql`lower(${queues.color})`, color.toLowerCase());
    return this.exists(exceptId ? and(byColor, ne(queues.id, exceptId)) : byColor);
  }

  async insert(data: Required<QueueWrite>): Promise<QueueDto> {
    const [row] = await this.db.insert(queues).values(data).returning();
    return toQueueDto(row!);
  }

  async update(id: number, data: QueueWrite): Promise<QueueDto | null> {
    const [row] = await this.db
      .update(queues)
      .set({ ...data, updatedAt: new Date() })
      .where(eq(queues.id, id))
      .returning();
    return row ? toQueueDto(row) : null;
  }

  /** Deletes the queue; its tickets stay with no queue (FK set null). Gives those tickets' ids, or null when absent. */
  async delete(id: number): Promise<number[] | null> {
    const ticketRows = await this.db.select({ id: tickets.id }).from(tickets).where(eq(tickets.queueId, id));
    const deleted = await this.db.delete(queues).where(eq(queues.id, id)).returning({ id: queues.id });
    return deleted.length > 0 ? ticketRows.map((r) => r.id) : null;
  }

  private async exists(where: SQL | undefined): Promise<boolean> {
    const [row] = await this.db.select({ id: queues.id }).from(queues).where(where).limit(1);
    return !!row;
  }
}
