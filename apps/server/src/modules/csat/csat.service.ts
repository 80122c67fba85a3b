import type { TicketDto } from '@wadesk/contracts';
import type { Database, Executor } from '../../db/client.js';
import type { DomainEvents } from '../../events/domain-events.js';
import { renderGreeting, ticketTemplateValues } from '../inbound/greeting-template.js';
import type { MessagesService } from '../messages/messages.service.js';
import type { SettingsService } from '../settings/settings.service.js';
import { parseCsatRating } from './csat-rating.js';
import { CsatRepository } from './csat.repository.js';

/** A rating counts within this long after the survey went. */
export const CSAT_ANSWER_WINDOW_MS = 24 * 3600 * 1000;
/** The text message that follows a rating within this long is its comment. */
export const CSAT_COMMENT_WINDOW_MS = 10 * 60 * 1000;

export type CsatAnswer = { ticketId: number; kind: 'rating'; rating: number } | { ticketId: number; kind: 'comment' };

/**
 * Customer satisfaction (issue 36 §5, decision 0041): the survey sent when an attendant resolves a ticket, and the
 * contact's answer kept on that ticket instead of opening a new one.
 */
export class CsatService {
  constructor(
    private readonly db: Database,
    private readonly events: DomainEvents,
    private readonly settings: SettingsService,
    private readonly messages: MessagesService,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * After an attendant resolved `ticket` (the `ticket.closed` event, after the farewell): with csatEnabled on, a 1:1
   * ticket not rated yet gets csatMessage (an automatic message) and its survey time. Best effort: a connection that is
   * down sends nothing and notes nothing.
   */
  async requestSurvey(ticket: TicketDto): Promise<boolean> {
    if (ticket.isGroup || ticket.status !== 'closed') return false;
    if ((await this.settings.value('csatEnabled')) !== 'enabled') return false;
    const template = (await this.settings.value('csatMessage')).trim();
    if (!template) return false;
    const repo = new CsatRepository(this.db);
    if (await repo.isRated(ticket.id)) return false;
    const now = this.now();
    const body = renderGreeting(template, ticketTemplateValues(ticket, ticket.whatsapp?.name, { now }));
    // Noted first, so that a reply arriving right after the survey finds it; undone when the survey could not go.
    await repo.markRequested(ticket.id, now);
    try {
      await this.messages.sendText(ticket, { body, auto: true });
    } catch (err) {
      await repo.clearRequested(ticket.id, now);
      throw err;
    }
    return true;
  }

  /**
   * Whether an inbound text from a contact with no active ticket on the connection answers a survey: a rating (1–5)
   * within 24 h of the survey, or the first text within 10 minutes after the rating (its comment). When it does, the
   * answer is kept on the surveyed ticket by `keep`, which stores the message in it (in the same transaction).
   */
  async answer(
    contactId: number,
    whatsappId: number,
    body: string,
    keep: (ticketId: number, write: (tx: Executor) => Promise<boolean>) => Promise<boolean>,
  ): Promise<CsatAnswer | null> {
    const now = this.now();
    const since = new Date(now.getTime() - CSAT_ANSWER_WINDOW_MS);
    const surveyed = await new CsatRepository(this.db).latestSurveyed(contactId, whatsappId, since);
    if (!surveyed) return null;
    if (surveyed.rating === null) {
      const rating = parseCsatRating(body);
      if (rating === null) return null;
      const kept = await keep(surveyed.id, (tx) => new CsatRepository(tx).rate(surveyed.id, rating, now, since));
      return kept ? { ticketId: surveyed.id, kind: 'rating', rating } : null;
    }
    const commentSince = new Date(now.getTime() - CSAT_COMMENT_WINDOW_MS);
    const text = body.trim();
    if (surveyed.comment !== null || !text || !surveyed.ratedAt || surveyed.ratedAt.getTime() <= commentSince.getTime()) return null;
    const kept = await keep(surveyed.id, (tx) => new CsatRepository(tx).comment(surveyed.id, text.slice(0, 2000), commentSince));
    return kept ? { ticketId: surveyed.id, kind: 'comment' } : null;
  }

  /** Tells who sees the ticket that its rating or comment came (the header's stars, the contact panel, webhooks). */
  announce(ticket: TicketDto): void {
    this.events.emit('ticket.updated', { ticket });
  }
}
