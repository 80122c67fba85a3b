import type { QueueDto } from '@wadesk/contracts';
import type { queues } from '../../db/schema.js';

export function toQueueDto(row: typeof queues.$inferSelect): QueueDto {
  return {
    id: row.id,
    name: row.name,
    color: row.color,
    greetingMessage: row.greetingMessage,
    businessHours: row.businessHours ?? null,
    outOfHoursMessage: row.outOfHoursMessage,
    autoAssign: row.autoAssign,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
