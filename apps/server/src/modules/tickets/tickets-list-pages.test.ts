import type { TicketDto, WhatsappDto } from '@wadesk/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { connectedSimulator, inbound, phoneNumbers } from '../../test/desk-factories.js';
import { useTestApp } from '../../test/test-app.js';

// Listings run as prepared statements, one per shape of filter, each giving its page, count and DTOs at once:
// these calls alternate shapes and values on one server, and read pages past the end (their count, no ticket).
const t = useTestApp({ admin: true });
let conn: WhatsappDto;
const phone = phoneNumbers(71000000, 13);

interface Page {
  tickets: TicketDto[];
  count: number;
  hasMore: boolean;
}

async function list(query: Record<string, string | number>): Promise<Page> {
  const res = await t.call('GET', `/api/tickets?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`, { token: t.admin });
  expect(res.status).toBe(200);
  return res.body as Page;
}

beforeAll(async () => {
  conn = await connectedSimulator(t);
  // 45 pending tickets (one page of 40 and a second of 5), the newest last.
  for (let i = 0; i < 45; i += 1) await inbound(t, conn.id, { from: phone(), name: `Lista ${i}`, body: `mensagem ${i}` });
});

describe('ticket listings: pages, counts and shapes', () => {
  it('gives every page its count, newest first, and a page past the end its count and no ticket', async () => {
    const first = await list({ pageNumber: 1, status: 'pending', showAll: 'true' });
    expect(first.count).toBe(45);
    expect(first.hasMore).toBe(true);
    expect(first.tickets).toHaveLength(40);
    expect(first.tickets[0]!.contact.name).toBe('Lista 44');
    const second = await list({ pageNumber: 2, status: 'pending', showAll: 'true' });
    expect(second).toMatchObject({ count: 45, hasMore: false });
    expect(second.tickets.map((ticket) => ticket.contact.name)).toEqual(['Lista 4', 'Lista 3', 'Lista 2', 'Lista 1', 'Lista 0']);
    const past = await list({ pageNumber: 3, status: 'pending', showAll: 'true' });
    expect(past).toEqual({ tickets: [], count: 45, hasMore: false });
  });

  it('keeps the values of one call out of the next, shape after shape', async () => {
    for (let round = 0; round < 7; round += 1) {
      // More than five rounds: PostgreSQL switches a prepared statement to its generic plan after five runs.
      expect((await list({ pageNumber: 1, status: 'pending', showAll: 'true' })).count).toBe(45);
      expect(await list({ pageNumber: 1, status: 'open', showAll: 'true' })).toEqual({ tickets: [], count: 0, hasMore: false });
      expect((await list({ pageNumber: 2, status: 'pending', showAll: 'true', isGroup: 'false' })).tickets).toHaveLength(5);
      expect((await list({ pageNumber: 1, status: 'pending', showAll: 'true', isGroup: 'true' })).count).toBe(0);
      expect((await list({ pageNumber: 1, showAll: 'true', queueIds: '[]' })).count).toBe(45);
      expect((await list({ pageNumber: 2, showAll: 'true' })).tickets).toHaveLength(5); // no condition at all
      expect((await list({ pageNumber: 1, status: 'pending', showAll: 'true', withUnreadMessages: 'true' })).count).toBe(45);
    }
  });
});
