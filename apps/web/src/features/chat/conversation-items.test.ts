import type { TFunction } from 'i18next';
import type { ConversationTicketDto, MessageDto, TicketEventDto } from '@wadesk/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { translators } from '../../i18n/translators.test-support';
import { formatDate } from '../../services/dates';
import { buildConversationItems, ticketSeparatorLabel, type ConversationItem } from './conversation-items';

const CURRENT = 130;

function message(id: number, ticketId: number, createdAt: string): MessageDto {
  return { id, ticketId, createdAt, body: `m${id}`, fromMe: false, isDeleted: false, mediaType: null, senderKind: 'contact' } as MessageDto;
}

function event(id: number, ticketId: number, kind: TicketEventDto['kind'], createdAt: string): TicketEventDto {
  return { id, ticketId, kind, actor: { id: 1, name: 'Ana' }, createdAt };
}

function earlierTicket(id: number, overrides: Partial<ConversationTicketDto> = {}): ConversationTicketDto {
  return { id, status: 'closed', whatsappId: 1, createdAt: '2026-11-10T12:00:00.000Z', closedAt: '2026-11-12T15:00:00.000Z', closedBy: { id: 1, name: 'Ana' }, ...overrides };
}

/** The rows in short: "day", "ticket 123", "ticket 130 (current)", "m1", "m1 (earlier)", "e-resolved (earlier)". */
function outline(items: ConversationItem[]): string[] {
  return items.map((i) => {
    if (i.kind === 'day') return 'day';
    if (i.kind === 'ticket') return `ticket ${i.ticketId}${i.current ? ' (current)' : ''}`;
    if (i.kind === 'msg') return `m${i.message.id}${i.earlier ? ' (earlier)' : ''}`;
    return `e-${i.event.kind}${i.earlier ? ' (earlier)' : ''}`;
  });
}

let ts: Record<string, TFunction> = {};
beforeAll(async () => {
  ts = await translators();
});

describe('the conversation of a contact in the chat', () => {
  it("shows only this ticket's messages and events, with day separators, as before, while no earlier ticket is loaded", () => {
    const items = buildConversationItems(
      [message(1, CURRENT, '2026-11-20T10:00:00.000Z'), message(2, CURRENT, '2026-11-21T10:00:00.000Z')],
      [event(9, CURRENT, 'accepted', '2026-11-20T10:05:00.000Z')],
      CURRENT,
    );
    expect(outline(items)).toEqual(['day', 'm1', 'e-accepted', 'day', 'm2']);
  });

  it("starts each earlier ticket's messages with its separator, and this ticket's with its own", () => {
    const tickets = new Map([[120, earlierTicket(120)], [125, earlierTicket(125)]]);
    // Day separators follow the browser's zone (the process's here, any TZ). Every zone's midnight falls on a quarter
    // hour of UTC (offsets are whole quarters), so rows between :01 and :14 of one UTC hour share a day in every zone,
    // and the rows below keep the same day separators wherever the test runs.
    const items = buildConversationItems(
      [
        message(1, 120, '2026-11-10T12:01:00.000Z'),
        message(2, 120, '2026-11-10T12:02:00.000Z'),
        message(3, 125, '2026-11-10T12:04:00.000Z'),
        message(4, CURRENT, '2026-11-20T10:02:00.000Z'),
      ],
      [event(7, 120, 'resolved', '2026-11-10T12:03:00.000Z'), event(8, CURRENT, 'accepted', '2026-11-20T10:01:00.000Z')],
      CURRENT,
      tickets,
    );
    expect(outline(items)).toEqual([
      'ticket 120',
      'day',
      'm1 (earlier)',
      'm2 (earlier)',
      'e-resolved (earlier)',
      'ticket 125',
      'm3 (earlier)',
      'ticket 130 (current)',
      'day',
      'e-accepted',
      'm4',
    ]);
    const first = items[0] as Extract<ConversationItem, { kind: 'ticket' }>;
    expect(first.ticket).toEqual(tickets.get(120));
  });

  it('marks where this ticket begins even before anything is written in it', () => {
    const items = buildConversationItems([message(1, 120, '2026-11-10T12:00:00.000Z')], [], CURRENT);
    expect(outline(items)).toEqual(['ticket 120', 'day', 'm1 (earlier)', 'ticket 130 (current)']);
  });

  it('gives every row its own key, each separator too', () => {
    const items = buildConversationItems(
      [message(1, 120, '2026-11-10T12:00:00.000Z'), message(2, CURRENT, '2026-11-10T12:10:00.000Z'), message(3, 120, '2026-11-10T12:20:00.000Z'), message(4, CURRENT, '2026-11-10T12:30:00.000Z')],
      [],
      CURRENT,
    );
    expect(outline(items).filter((o) => o.startsWith('ticket'))).toEqual(['ticket 120', 'ticket 130 (current)', 'ticket 120', 'ticket 130 (current)']);
    expect(new Set(items.map((i) => i.key)).size).toBe(items.length);
  });
});

describe('the ticket separator', () => {
  const date = formatDate('2026-11-12T15:00:00.000Z', { language: 'en' });

  it('says when and by whom an earlier ticket was resolved, the day as each language writes it', () => {
    const day = (language: 'en' | 'pt' | 'es') => formatDate('2026-11-12T15:00:00.000Z', { language });
    expect(day('en')).not.toBe(day('pt'));
    expect(ticketSeparatorLabel(ts.en!, { ticketId: 123, current: false, ticket: earlierTicket(123) }, 'en')).toBe(`Ticket #123 · resolved ${day('en')} by Ana`);
    expect(ticketSeparatorLabel(ts.pt!, { ticketId: 123, current: false, ticket: earlierTicket(123) }, 'pt')).toBe(`Ticket #123 · resolvido em ${day('pt')} por Ana`);
    expect(ticketSeparatorLabel(ts.es!, { ticketId: 123, current: false, ticket: earlierTicket(123) }, 'es')).toBe(`Ticket #123 · resuelto el ${day('es')} por Ana`);
  });

  it('says what is known when the resolver or the time is not', () => {
    const t = ts.en!;
    expect(ticketSeparatorLabel(t, { ticketId: 123, current: false, ticket: earlierTicket(123, { closedBy: null }) }, 'en')).toBe(`Ticket #123 · resolved ${date}`);
    expect(ticketSeparatorLabel(t, { ticketId: 123, current: false, ticket: earlierTicket(123, { closedAt: null, closedBy: null }) })).toBe('Ticket #123');
    expect(ticketSeparatorLabel(t, { ticketId: 123, current: false })).toBe('Ticket #123');
  });

  it('does not call a ticket that is open again resolved', () => {
    expect(ticketSeparatorLabel(ts.en!, { ticketId: 123, current: false, ticket: earlierTicket(123, { status: 'open' }) })).toBe('Ticket #123');
  });

  it('marks where the ticket on screen begins', () => {
    expect(ticketSeparatorLabel(ts.en!, { ticketId: CURRENT, current: true })).toBe('Ticket #130 (this ticket)');
    expect(ticketSeparatorLabel(ts.pt!, { ticketId: CURRENT, current: true })).toBe('Ticket #130 (este ticket)');
  });
});
