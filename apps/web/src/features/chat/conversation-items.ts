import type { ConversationTicketDto, MessageDto, TicketEventDto } from '@wadesk/contracts';
import type { TFunction } from 'i18next';
import { currentLanguage, type LanguageCode } from '../../i18n';
import { formatDate } from '../../services/dates';

/**
 * One row of the chat: a day separator, a ticket separator (where a ticket's messages begin, when the contact's
 * earlier tickets are shown above this one), a message or a ticket event. `earlier`: of an earlier ticket (history).
 */
export type ConversationItem =
  | { kind: 'day'; key: string; label: string }
  | { kind: 'ticket'; key: string; ticketId: number; current: boolean; ticket?: ConversationTicketDto }
  | { kind: 'msg'; key: string; message: MessageDto; earlier: boolean }
  | { kind: 'event'; key: string; event: TicketEventDto; earlier: boolean };

/**
 * The loaded messages and events (both oldest first) in one timeline, with day separators. The pages go on past this
 * ticket's first message into the contact's earlier tickets (issue 32): when any of those are loaded, each ticket's
 * run of rows starts with a ticket separator, the earlier ones described by `tickets` (the pages' `tickets`).
 */
export function buildConversationItems(
  messages: readonly MessageDto[],
  events: readonly TicketEventDto[],
  ticketId: number,
  tickets: ReadonlyMap<number, ConversationTicketDto> = new Map(),
  /** The language of the day separators: the interface's. */
  language: LanguageCode = currentLanguage(),
): ConversationItem[] {
  const items: ConversationItem[] = [];
  const withEarlier = messages.some((m) => m.ticketId !== ticketId) || events.some((e) => e.ticketId !== ticketId);
  let lastTicket: number | undefined;
  const ticketOf = (id: number, key: string) => {
    if (!withEarlier || id === lastTicket) return;
    lastTicket = id;
    items.push({ kind: 'ticket', key: `t-${id}-${key}`, ticketId: id, current: id === ticketId, ticket: tickets.get(id) });
  };
  let lastDay = '';
  const dayOf = (createdAt: string, key: string) => {
    const day = formatDate(createdAt, { language });
    if (day !== lastDay) {
      items.push({ kind: 'day', key: `d-${day}-${key}`, label: day });
      lastDay = day;
    }
  };
  let e = 0;
  const eventsUntil = (time: number) => {
    while (e < events.length && Date.parse(events[e]!.createdAt) <= time) {
      const event = events[e]!;
      const key = `e-${event.id}`;
      ticketOf(event.ticketId, key);
      dayOf(event.createdAt, `e${event.id}`);
      items.push({ kind: 'event', key, event, earlier: event.ticketId !== ticketId });
      e += 1;
    }
  };
  for (const message of messages) {
    eventsUntil(Date.parse(message.createdAt) - 1);
    const key = `m-${message.id}`;
    ticketOf(message.ticketId, key);
    dayOf(message.createdAt, String(message.id));
    items.push({ kind: 'msg', key, message, earlier: message.ticketId !== ticketId });
  }
  eventsUntil(Infinity);
  // Earlier tickets shown and nothing of this one yet (a ticket opened by the desk, not written in yet): say where it starts.
  if (withEarlier && lastTicket !== ticketId) items.push({ kind: 'ticket', key: `t-${ticketId}-end`, ticketId, current: true });
  return items;
}

/**
 * A ticket separator's words: "Ticket #123 · resolved 12/11/2026 by Ana" for an earlier ticket (as much of it as is
 * known: "Ticket #123 · resolved 12/11/2026", "Ticket #123"), "Ticket #130 (this ticket)" where this one begins.
 */
export function ticketSeparatorLabel(
  t: TFunction,
  item: { ticketId: number; current: boolean; ticket?: ConversationTicketDto },
  language: LanguageCode = currentLanguage(),
): string {
  const id = item.ticketId;
  if (item.current) return t('chat.ticketSeparator.current', { id });
  const ticket = item.ticket;
  // Resolved only while it still is: a ticket resolved once and open again (on another connection) is just a ticket.
  if (!ticket?.closedAt || ticket.status !== 'closed') return t('chat.ticketSeparator.ticket', { id });
  const date = formatDate(ticket.closedAt, { language });
  return ticket.closedBy
    ? t('chat.ticketSeparator.resolvedBy', { id, date, name: ticket.closedBy.name })
    : t('chat.ticketSeparator.resolved', { id, date });
}
