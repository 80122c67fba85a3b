import type { TicketDto, WhatsappDto } from '@wadesk/contracts';
import { sql, type SQL } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { connectedSimulator, inbound, queryRows } from '../../test/desk-factories.js';
import { useTestApp } from '../../test/test-app.js';

// Ticket search by words (issue 11, decision 0012): each ticket's words live in ticket_search, kept by a trigger.
const t = useTestApp({ admin: true });
let conn: WhatsappDto;
let order: TicketDto;
let other: TicketDto;

type ListBody = { tickets: TicketDto[]; count: number; hasMore: boolean };
const search = (term: string, page = 1) =>
  t.call<ListBody>('GET', `/api/tickets?showAll=true&pageNumber=${page}&searchParam=${encodeURIComponent(term)}`, { token: t.admin });
const ids = (body: ListBody) => body.tickets.map((x) => x.id);

beforeAll(async () => {
  conn = await connectedSimulator(t);
  order = await inbound(t, conn.id, { from: '5511974000001', name: 'Pedro', body: 'Meu pedido PED-48213 chegou sem a garantia' });
  await inbound(t, conn.id, { from: '5511974000001', body: 'A transportadora Rápida deixou na portaria' });
  other = await inbound(t, conn.id, { from: '5511974000002', name: 'Rita', body: 'Quero trocar o tamanho' });
});

describe('ticket search by words', () => {
  it('finds a word by its beginning, ignoring case and accents, in any message of the ticket', async () => {
    expect(ids((await search('GARANT')).body)).toEqual([order.id]);
    expect(ids((await search('rapida')).body)).toEqual([order.id]); // the second message, 'Rápida'
    expect(ids((await search('48213')).body)).toEqual([order.id]); // a code's parts are words too
    expect(ids((await search('trocar')).body)).toEqual([other.id]);
  });

  it('needs every word of the search, each in any message of the ticket', async () => {
    expect(ids((await search('garantia portaria')).body)).toEqual([order.id]);
    expect(ids((await search('garantia tamanho')).body)).toEqual([]);
  });

  it('finds a message as soon as it is stored (the trigger adds its words)', async () => {
    expect(ids((await search('ornitorrinco')).body)).toEqual([]);
    await inbound(t, conn.id, { from: '5511974000002', body: 'Vi um ornitorrinco na embalagem' });
    const res = await search('ornitorrinco');
    expect(ids(res.body)).toEqual([other.id]);
    expect(res.body.tickets[0]!.searchMatch?.text).toContain('ornitorrinco');
    const stored = await queryRows<{ n: number }>(t, sql`select count(*)::int as n from ticket_search where ticket_id = ${other.id}`);
    expect(stored[0]?.n).toBe(1); // one row a ticket, its words merged
  });

  it('shows a snippet of the newest message holding the words apart when no message holds the whole text', async () => {
    const res = await search('garantia portaria');
    expect(res.body.tickets[0]!.searchMatch?.text).toContain('portaria');
  });

  it('matches nothing by words for a text without words, and still by contact number', async () => {
    const res = await search('%%%');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ tickets: [], count: 0, hasMore: false });
    expect(ids((await search('974000002')).body)).toEqual([other.id]);
  });

  it('pages a search 40 at a time, newest change first, with the count of all matches', async () => {
    const created: number[] = [];
    for (let i = 0; i < 45; i += 1) {
      created.push((await inbound(t, conn.id, { from: `55119750${String(i).padStart(5, '0')}`, name: `Cliente ${i}`, body: `pergunta sobre zabumba ${i}` })).id);
    }
    const first = await search('zabumba');
    expect(first.body.count).toBe(45);
    expect(first.body.hasMore).toBe(true);
    expect(ids(first.body)).toEqual([...created].reverse().slice(0, 40));
    const second = await search('zabumba', 2);
    expect(second.body).toMatchObject({ count: 45, hasMore: false });
    expect(ids(second.body)).toEqual([...created].reverse().slice(40));
    const beyond = await search('zabumba', 5);
    expect(beyond.body).toMatchObject({ tickets: [], count: 45, hasMore: false });
  });

  it('lists a deep page of a status in the same order as the first pages (page ids from the index, rows joined after)', async () => {
    const all: number[] = [];
    for (let page = 1; ; page += 1) {
      const res = await t.call<ListBody>('GET', `/api/tickets?status=pending&showAll=true&pageNumber=${page}`, { token: t.admin });
      all.push(...ids(res.body));
      if (!res.body.hasMore) break;
    }
    const expected = await queryRows<{ id: number }>(t, sql`select id from tickets where status = 'pending' order by updated_at desc, id desc`);
    expect(all).toEqual(expected.map((r) => r.id));
    expect(all.length).toBeGreaterThan(40);
  });

  /**
   * `count` contacts named "<name> N", each with a closed ticket (newest first by N) holding one message `body`:
   * bulk rows straight into the database (the trigger indexes their words as it does the app's messages).
   */
  async function bulkTickets(name: string, numberPrefix: string, count: number, body: string): Promise<void> {
    await queryRows(t, sql`insert into contacts (name, number) select ${name} || ' ' || g, ${numberPrefix} || lpad(g::text, 6, '0') from generate_series(1, ${count}) g`);
    await queryRows(t, sql`
      insert into tickets (status, contact_id, whatsapp_id, updated_at)
      select 'closed', c.id, ${conn.id}, now() - (c.id || ' seconds')::interval from contacts c where c.name like ${`${name} %`}`);
    await queryRows(t, sql`
      insert into messages (channel_message_id, whatsapp_id, ticket_id, contact_id, body)
      select ${`${name.toLowerCase()}-`} || t.id, ${conn.id}, t.id, t.contact_id, ${body} from tickets t join contacts c on c.id = t.contact_id where c.name like ${`${name} %`}`);
  }

  it('walks the tickets newest first for a word in more than 1,000 tickets, counting up to 1,000 and paging on', async () => {
    await bulkTickets('Bulk', '5521990', 1100, 'um pirilampo no jardim');
    const expected = (await queryRows<{ id: number }>(t, sql`
      select t.id from tickets t join ticket_search s on s.ticket_id = t.id where s.words @@ search_query('pirilampo') order by t.updated_at desc, t.id desc`)).map((r) => r.id);
    expect(expected).toHaveLength(1100);
    const first = await search('PIRILAMPO');
    expect(first.body).toMatchObject({ count: 1000, hasMore: true });
    expect(ids(first.body)).toEqual(expected.slice(0, 40));
    expect(first.body.tickets[0]!.searchMatch?.text).toBe('um pirilampo no jardim');
    const last = await search('pirilampo', 28);
    expect(last.body).toMatchObject({ count: 1000, hasMore: false });
    expect(ids(last.body)).toEqual(expected.slice(1080));
  });

  it('tickets found both by their contact and by their words are counted once, however many ways found them', async () => {
    // 700 contacts named with the word and 700 tickets holding it: 1,400 candidates by the two ways, 700 tickets.
    await bulkTickets('Colibri', '5521970', 700, 'um colibri na janela');
    const expected = (await queryRows<{ id: number }>(t, sql`
      select t.id from tickets t join contacts c on c.id = t.contact_id where c.name like 'Colibri %' order by t.updated_at desc, t.id desc`)).map((r) => r.id);
    const first = await search('colibri');
    expect(first.body).toMatchObject({ count: 700, hasMore: true });
    expect(ids(first.body)).toEqual(expected.slice(0, 40));
    const last = await search('colibri', 18);
    expect(last.body).toMatchObject({ count: 700, hasMore: false });
    expect(ids(last.body)).toEqual(expected.slice(680));
  });

  it('a word in hundreds of older tickets: the candidates hashed, the same order, count and pages (issue 35 item 1)', async () => {
    // 3,000 tickets newer than any other; the word in 600 of them, none among the newest 1,000, so that probing the
    // newest tickets finds no page and the search hashes its candidates instead.
    await queryRows(t, sql`insert into contacts (name, number) select 'Mid ' || g, '5521980' || lpad(g::text, 6, '0') from generate_series(1, 3000) g`);
    await queryRows(t, sql`
      insert into tickets (status, contact_id, whatsapp_id, updated_at)
      select 'closed', c.id, ${conn.id}, now() + interval '1 day' - (c.id || ' seconds')::interval from contacts c where c.name like 'Mid %'`);
    await queryRows(t, sql`
      insert into messages (channel_message_id, whatsapp_id, ticket_id, contact_id, body)
      select 'mid-' || t.id, ${conn.id}, t.id, t.contact_id,
             case when substr(c.name, 5)::int > 1000 and substr(c.name, 5)::int % 10 < 3 then 'um vagalume na varanda' else 'nada aqui' end
      from tickets t join contacts c on c.id = t.contact_id where c.name like 'Mid %'`);
    const expected = (await queryRows<{ id: number }>(t, sql`
      select t.id from tickets t join ticket_search s on s.ticket_id = t.id where s.words @@ search_query('vagalume') order by t.updated_at desc, t.id desc`)).map((r) => r.id);
    expect(expected).toHaveLength(600);
    const first = await search('vagalume');
    expect(first.body).toMatchObject({ count: 600, hasMore: true });
    expect(ids(first.body)).toEqual(expected.slice(0, 40));
    expect(first.body.tickets[0]!.searchMatch?.text).toBe('um vagalume na varanda');
    const second = await search('vagalume', 2);
    expect(ids(second.body)).toEqual(expected.slice(40, 80));
    const last = await search('vagalume', 15);
    expect(last.body).toMatchObject({ count: 600, hasMore: false });
    expect(ids(last.body)).toEqual(expected.slice(560));
  });

  /**
   * `count` contacts "<name> N", each with a closed ticket `daysAhead` days in the future (newer than every earlier
   * ticket of the file; newest first by N) holding one message: `body` for the tickets `holds(N)` picks, else 'nada'.
   */
  async function futureTickets(name: string, numberPrefix: string, count: number, daysAhead: number, body: string, holds: SQL): Promise<void> {
    await queryRows(t, sql`insert into contacts (name, number) select ${name} || ' ' || g, ${numberPrefix} || lpad(g::text, 6, '0') from generate_series(1, ${count}) g`);
    await queryRows(t, sql`
      insert into tickets (status, contact_id, whatsapp_id, updated_at)
      select 'closed', c.id, ${conn.id}, now() + make_interval(days => ${daysAhead}) - make_interval(secs => c.id) from contacts c where c.name like ${`${name} %`}`);
    await queryRows(t, sql`
      insert into messages (channel_message_id, whatsapp_id, ticket_id, contact_id, body)
      select ${`${name.toLowerCase()}-`} || t.id, ${conn.id}, t.id, t.contact_id, case when ${holds} then ${body} else 'nada aqui' end
      from tickets t join contacts c on c.id = t.contact_id where c.name like ${`${name} %`}`);
  }

  const wordOrder = async (word: string) =>
    (await queryRows<{ id: number }>(t, sql`
      select t.id from tickets t join ticket_search s on s.ticket_id = t.id where s.words @@ search_query(${word}) order by t.updated_at desc, t.id desc`)).map((r) => r.id);

  it('a word in more than 1,000 tickets none of which is among the newest: the candidates hashed, the same pages', async () => {
    // 1,900 tickets newer than any other; the word in 1,200 of them, none among the newest 700: the walk of the
    // newest tickets finds no page, and the candidates are hashed.
    await futureTickets('Quintal', '5521960', 1900, 2, 'um grilo no jardim', sql`substr(c.name, 9)::int > 700`);
    const expected = await wordOrder('grilo');
    expect(expected).toHaveLength(1200);
    const first = await search('grilo');
    expect(first.body).toMatchObject({ count: 1000, hasMore: true });
    expect(ids(first.body)).toEqual(expected.slice(0, 40));
    expect(first.body.tickets[0]!.searchMatch?.text).toBe('um grilo no jardim');
    expect(ids((await search('grilo', 2)).body)).toEqual(expected.slice(40, 80));
    const last = await search('grilo', 30);
    expect(last.body).toMatchObject({ count: 1000, hasMore: false });
    expect(ids(last.body)).toEqual(expected.slice(1160));
  });
});
