import type { TicketEventDto, TicketEventKind } from '@wadesk/contracts';
import type { Executor } from '../../db/client.js';
import { ticketEvents } from '../../db/schema.js';

export interface TicketEventWrite {
  ticketId: number;
  kind: TicketEventKind;
  actorUserId: number | null;
  toUser?: { id: number; name: string } | null;
  toQueue?: { id: number; name: string } | null;
  error?: string;
  video?: boolean;
  createdAt?: Date;
}

interface TicketEventData {
  toUser?: { id: number; name: string } | null;
  toQueue?: { id: number; name: string } | null;
  error?: string;
  video?: boolean;
}

/**
 * Writes ticket events (the timeline's "resolved by …", "transferred to …"); the messages page's statement reads
 * them with the page (MessagesRepository.readPage).
 */
export class TicketEventsRepository {
  constructor(private readonly db: Executor) {}

  async insert(events: TicketEventWrite[]): Promise<void> {
    if (events.length === 0) return;
    await this.db.insert(ticketEvents).values(
      events.map((e) => {
        const data: TicketEventData = {};
        if (e.toUser !== undefined) data.toUser = e.toUser;
        if (e.toQueue !== undefined) data.toQueue = e.toQueue;
        if (e.error !== undefined) data.error = e.error;
        if (e.video !== undefined) data.video = e.video;
        return { ticketId: e.ticketId, kind: e.kind, actorUserId: e.actorUserId, data, ...(e.createdAt ? { createdAt: e.createdAt } : {}) };
      }),
    );
  }
}

/** A ticket event as the messages page's statement reads it (JSON built by PostgreSQL; `createdAt` already ISO). */
export interface TicketEventJson {
  id: number;
  ticketId: number;
  kind: string;
  actorUserId: number | null;
  actorName: string | null;
  data: TicketEventData | null;
  createdAt: string;
}

export function ticketEventFromJson(event: TicketEventJson): TicketEventDto {
  const data = event.data ?? {};
  const dto: TicketEventDto = {
    id: Number(event.id),
    ticketId: event.ticketId,
    kind: event.kind as TicketEventKind,
    actor: event.actorUserId && event.actorName ? { id: event.actorUserId, name: event.actorName } : null,
    createdAt: event.createdAt,
  };
  if (data.toUser) dto.toUser = data.toUser;
  if (data.toQueue) dto.toQueue = data.toQueue;
  if (data.error) dto.error = data.error;
  if (data.video !== undefined) dto.video = data.video;
  return dto;
}
