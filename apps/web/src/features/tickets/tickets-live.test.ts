import type { TicketDto } from '@wadesk/contracts';
import { describe, expect, it } from 'vitest';
import { previewText } from './format';
import type { TicketsPages } from './tickets-api';
import { applyTicketToList, belongsTo } from './tickets-live';

const admin = { id: 1, profile: 'admin' as const };
const agent = { id: 2, profile: 'user' as const };

function ticket(over: Partial<TicketDto> = {}): TicketDto {
  return {
    id: 10,
    status: 'open',
    userId: 2,
    queueId: null,
    whatsappId: 1,
    contactId: 1,
    contact: { id: 1, name: 'Ana', number: '5511999999999', email: '', profilePicUrl: '', isGroup: false, extraInfo: [], labels: [], createdAt: '', updatedAt: '' },
    queue: null,
    user: null,
    whatsapp: null,
    lastMessage: 'hi',
    unreadMessages: 0,
    isGroup: false,
    protocol: null,
    labels: [],
    arrivedOutOfHours: false,
    csat: null,
    createdAt: '2026-01-01T00:00:00Z',
    updatedAt: '2026-01-01T00:00:00Z',
    ...over,
  };
}

function pages(...tickets: TicketDto[]): TicketsPages {
  return { pages: [{ tickets, hasMore: false, count: tickets.length }], pageParams: [1] };
}

describe('live ticket lists', () => {
  it('keeps a ticket out of a list filtered by labels it does not carry (issue 36 §2)', () => {
    const vip = { id: 7, name: 'VIP', color: '#FF0000' };
    expect(belongsTo(ticket(), { status: 'open', showAll: true, labelIds: [7] }, admin)).toBe(false);
    expect(belongsTo(ticket({ labels: [vip] }), { status: 'open', showAll: true, labelIds: [3, 7] }, admin)).toBe(true);
    expect(belongsTo(ticket(), { status: 'open', showAll: true, labelIds: [] }, admin)).toBe(true);
  });

  it('keeps a ticket out of a list whose status, kind or queue filter excludes it', () => {
    expect(belongsTo(ticket({ status: 'pending' }), { status: 'open', showAll: true }, admin)).toBe(false);
    expect(belongsTo(ticket({ isGroup: true }), { status: 'open', isGroup: false, showAll: true }, admin)).toBe(false);
    expect(belongsTo(ticket({ queueId: 3 }), { status: 'open', showAll: true, queueIds: [1, 2] }, admin)).toBe(false);
    expect(belongsTo(ticket({ queueId: null }), { status: 'open', showAll: true, queueIds: [1, 2] }, admin)).toBe(true);
  });

  it("shows an attendant only their own open tickets, and every pending one", () => {
    expect(belongsTo(ticket({ userId: 3 }), { status: 'open', showAll: false }, agent)).toBe(false);
    expect(belongsTo(ticket({ userId: 2 }), { status: 'open', showAll: false }, agent)).toBe(true);
    expect(belongsTo(ticket({ status: 'pending', userId: null }), { status: 'pending', showAll: false }, agent)).toBe(true);
  });

  it('replaces an updated row in place and moves a ticket with a new message to the top', () => {
    const list = pages(ticket({ id: 1 }), ticket({ id: 2 }));
    const replaced = applyTicketToList(list, ticket({ id: 2, lastMessage: 'new' }), { status: 'open', showAll: true }, admin, false);
    expect(replaced.pages[0].tickets.map((t) => t.id)).toEqual([1, 2]);
    expect(replaced.pages[0].tickets[1].lastMessage).toBe('new');
    const moved = applyTicketToList(list, ticket({ id: 2, unreadMessages: 1 }), { status: 'open', showAll: true }, admin, true);
    expect(moved.pages[0].tickets.map((t) => t.id)).toEqual([2, 1]);
    expect(moved.pages[0].count).toBe(2);
  });

  it('removes a row that no longer belongs and adds one that now does, keeping the count', () => {
    const list = pages(ticket({ id: 1 }));
    const removed = applyTicketToList(list, ticket({ id: 1, status: 'closed' }), { status: 'open', showAll: true }, admin, false);
    expect(removed.pages[0].tickets).toEqual([]);
    expect(removed.pages[0].count).toBe(0);
    const added = applyTicketToList(list, ticket({ id: 5 }), { status: 'open', showAll: true }, admin, false);
    expect(added.pages[0].tickets.map((t) => t.id)).toEqual([5, 1]);
    expect(added.pages[0].count).toBe(2);
  });

  it('adds a ticket new to a list where its last change puts it: an imported old conversation does not jump to the top', () => {
    const params = { status: 'closed' as const, showAll: true };
    const closed = (id: number, updatedAt: string) => ticket({ id, status: 'closed', updatedAt });
    const list = pages(closed(1, '2026-11-20T10:00:00Z'), closed(2, '2025-05-01T10:00:00Z'));
    const imported = applyTicketToList(list, closed(9, '2025-12-24T10:00:00Z'), params, admin, false);
    expect(imported.pages[0].tickets.map((t) => t.id)).toEqual([1, 9, 2]);
    expect(imported.pages[0].count).toBe(3);
    const oldest = applyTicketToList(list, closed(8, '2024-03-10T12:00:00Z'), params, admin, false);
    expect(oldest.pages[0].tickets.map((t) => t.id)).toEqual([1, 2, 8]);
    // Older than every loaded row while more pages remain: left for those pages, counted.
    const longer: TicketsPages = { ...list, pages: [{ ...list.pages[0]!, hasMore: true, count: 50 }] };
    const later = applyTicketToList(longer, closed(7, '2024-03-10T12:00:00Z'), params, admin, false);
    expect(later.pages[0].tickets.map((t) => t.id)).toEqual([1, 2]);
    expect(later.pages[0].count).toBe(51);
  });
});

describe('ticket row texts', () => {
  it('hides vcard and inline image data in the last message', () => {
    expect(previewText('BEGIN:VCARD\nVERSION:3.0\nFN:Jo Silva\nTEL:+55 11\nEND:VCARD')).toBe('👤 Jo Silva');
    expect(previewText('data:image/png;base64,AAAA')).toBe('📷');
    expect(previewText('[audio]')).toBe('🎤');
  });
});
