import type { WhatsappDto } from '@wadesk/contracts';
import type { Database } from '../../db/client.js';
import type { DomainEvents } from '../../events/domain-events.js';
import { WhatsappRepository } from '../whatsapp/whatsapp.repository.js';

/** How long a connection read for inbound and the queue menu is used again. */
export const CONNECTION_MEMO_MS = 1000;

/**
 * A connection as inbound and the queue menu read it (its queues, greeting and name), kept for a second: a new
 * conversation read it twice, two statements each time, once for its ticket and once for its menu (issue 35 item 6:
 * at hundreds of first messages a second, a sixth of their statements). Forgotten at once when this process saves a
 * connection or a queue; a change another process makes is seen within the second.
 */
export class ConnectionMemo {
  private readonly kept = new Map<number, { at: number; dto: Promise<WhatsappDto | null> }>();

  constructor(
    private readonly db: Database,
    events: DomainEvents,
    private readonly now: () => number = Date.now,
  ) {
    const forget = () => this.kept.clear();
    events.on('whatsapp.saved', forget);
    events.on('whatsapp.deleted', forget);
    events.on('queue.saved', forget);
    events.on('queue.deleted', forget);
  }

  find(whatsappId: number): Promise<WhatsappDto | null> {
    const kept = this.kept.get(whatsappId);
    if (kept && this.now() - kept.at < CONNECTION_MEMO_MS) return kept.dto;
    const dto = new WhatsappRepository(this.db).findDto(whatsappId);
    const entry = { at: this.now(), dto };
    this.kept.set(whatsappId, entry);
    // A failed read is not kept.
    dto.catch(() => {
      if (this.kept.get(whatsappId) === entry) this.kept.delete(whatsappId);
    });
    return dto;
  }
}
