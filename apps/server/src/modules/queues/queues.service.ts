import type { QueueDto, QueueInput, QueueUpdateInput } from '@wadesk/contracts';
import type { z } from 'zod';
import type { Database } from '../../db/client.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { DomainEvents } from '../../events/domain-events.js';
import { AppError } from '../../http/app-error.js';
import { audit } from '../audit/audit.js';
import { QueuesRepository } from './queues.repository.js';

export type QueueCreateData = z.output<typeof QueueInput>;
export type QueueUpdateData = z.output<typeof QueueUpdateInput>;

const NAME_TAKEN = 'This name is already in use, pick another one.';
const COLOR_TAKEN = 'This color is already in use, pick another one.';

export class QueuesService {
  constructor(
    private readonly db: Database,
    private readonly events: DomainEvents,
  ) {}

  private repo(): QueuesRepository {
    return new QueuesRepository(this.db);
  }

  list(): Promise<QueueDto[]> {
    return this.repo().list();
  }

  async get(id: number): Promise<QueueDto> {
    const queue = await this.repo().findDto(id);
    if (!queue) throw new AppError('ERR_NO_QUEUE_FOUND', 'Queue not found.');
    return queue;
  }

  async create(data: QueueCreateData): Promise<QueueDto> {
    await this.checkUnique(data);
    let queue: QueueDto;
    try {
      queue = await this.db.transaction(async (tx) => {
        const created = await new QueuesRepository(tx).insert(data);
        await audit.record(tx, { action: 'queue.create', targetType: 'queue', targetId: created.id, after: created });
        return created;
      });
    } catch (err) {
      throw translateWriteError(err);
    }
    this.events.emit('queue.saved', { queue, created: true });
    return queue;
  }

  async update(id: number, data: QueueUpdateData): Promise<QueueDto> {
    const before = await this.get(id);
    await this.checkUnique(data, id);
    let queue: QueueDto | null;
    try {
      queue = await this.db.transaction(async (tx) => {
        const updated = await new QueuesRepository(tx).update(id, data);
        if (updated) await audit.record(tx, { action: 'queue.update', targetType: 'queue', targetId: id, before, after: updated });
        return updated;
      });
    } catch (err) {
      throw translateWriteError(err);
    }
    if (!queue) throw new AppError('ERR_NO_QUEUE_FOUND', 'Queue not found.');
    this.events.emit('queue.saved', { queue, created: false });
    return queue;
  }

  /** Deletes a queue; its tickets stay, without a queue. */
  async delete(id: number): Promise<void> {
    const ticketIds = await this.db.transaction(async (tx) => {
      const before = await new QueuesRepository(tx).findDto(id);
      const returned = await new QueuesRepository(tx).delete(id);
      if (returned) await audit.record(tx, { action: 'queue.delete', targetType: 'queue', targetId: id, before });
      return returned;
    });
    if (!ticketIds) throw new AppError('ERR_NO_QUEUE_FOUND', 'Queue not found.');
    this.events.emit('queue.deleted', { queueId: id });
    if (ticketIds.length > 0) this.events.emit('tickets.changed', { ticketIds });
  }

  /** The friendly path; the unique indexes still decide under a race (see translateWriteError). */
  private async checkUnique(data: { name?: string; color?: string }, exceptId?: number): Promise<void> {
    const repo = this.repo();
    if (data.name !== undefined && (await repo.nameTaken(data.name, exceptId))) {
      throw new AppError('ERR_QUEUE_NAME_ALREADY_EXISTS', NAME_TAKEN);
    }
    if (data.color !== undefined && (await repo.colorTaken(data.color, exceptId))) {
      throw new AppError('ERR_QUEUE_COLOR_ALREADY_EXISTS', COLOR_TAKEN);
    }
  }
}

function translateWriteError(err: unknown): unknown {
  if (isUniqueViolation(err, 'queues_name_unique')) return new AppError('ERR_QUEUE_NAME_ALREADY_EXISTS', NAME_TAKEN);
  if (isUniqueViolation(err, 'queues_color_unique')) return new AppError('ERR_QUEUE_COLOR_ALREADY_EXISTS', COLOR_TAKEN);
  return err;
}
