import type { ContactDto, TicketDto, UserDto, WhatsappDto } from '@wadesk/contracts';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/client.js';
import { connectedSimulator, inbound, queryRows } from '../../test/desk-factories.js';
import { useTestApp } from '../../test/test-app.js';

const t = useTestApp({ admin: true });
let conn: WhatsappDto;
let joao: TicketDto;
let sabado: TicketDto;

const search = (path: string, term: string) =>
  t.call<{ tickets?: TicketDto[]; contacts?: ContactDto[]; users?: UserDto[] }>('GET', `${path}?searchParam=${encodeURIComponent(term)}`, { token: t.admin });

beforeAll(async () => {
  conn = await connectedSimulator(t);
  joao = await inbound(t, conn.id, { from: '5511973000001', name: 'João Gonçalves', body: 'bom dia' });
  sabado = await inbound(t, conn.id, {
    from: '5511973000002',
    name: 'Maria',
    body: 'Recebi o pedido ontem, mas a caixa veio amassada. Podemos trocar? Fico em casa até sábado à tarde, depois viajo.',
  });
  await t.createUser({ name: 'Joãozinho Araújo', email: 'joaozinho@desk.test' });
});

describe('search ignores accents and case (issue 10 item 13)', () => {
  it("'joao' finds João in the ticket search, the contacts and the users", async () => {
    const tickets = await search('/api/tickets', 'joao');
    expect(tickets.body.tickets?.map((x) => x.id)).toContain(joao.id);
    const upper = await search('/api/tickets', 'JOAO GONCALVES');
    expect(upper.body.tickets?.map((x) => x.id)).toContain(joao.id);

    const contacts = await search('/api/contacts', 'joao');
    expect(contacts.body.contacts?.map((c) => c.name)).toContain('João Gonçalves');

    const users = await search('/api/users', 'joao');
    expect(users.body.users?.map((u) => u.name)).toEqual(['Joãozinho Araújo']);
    const byAccentedQuery = await search('/api/users', 'ARAÚJO');
    expect(byAccentedQuery.body.users?.map((u) => u.name)).toEqual(['Joãozinho Araújo']);
  });

  it("'sabado' finds the message 'até sábado' and shows it as a snippet with the match marked", async () => {
    const res = await search('/api/tickets', 'sabado');
    const found = res.body.tickets?.find((x) => x.id === sabado.id);
    expect(found).toBeDefined();
    const match = found!.searchMatch!;
    expect(match.text.slice(match.start, match.end)).toBe('sábado');
    expect(match.text).toContain('até sábado à tarde');
    expect(match.text.startsWith('…')).toBe(true); // cut around the match, not the whole message
    expect(match.text.length).toBeLessThan(110);
    // The message it is in, for the chat to scroll to (issue 33 item 3).
    const [message] = await queryRows<{ id: number }>(t, sql`select id from messages where ticket_id = ${sabado.id} and body like '%sábado%'`);
    expect(match.messageId).toBe(Number(message!.id));
    // A ticket found by its contact's name has no message snippet.
    const byName = await search('/api/tickets', 'goncalves');
    expect(byName.body.tickets?.find((x) => x.id === joao.id)?.searchMatch).toBeNull();
  });

  it('keeps LIKE characters literal', async () => {
    const res = await search('/api/tickets', 's%do');
    expect(res.body.tickets?.map((x) => x.id)).not.toContain(sabado.id);
  });

  it('serves the folded search from the f_unaccent trigram indexes and the ticket words index', async () => {
    const plan = async (query: string) => {
      const rows = await t.app.database.db.transaction(async (tx) => {
        await tx.execute(sql`set local enable_seqscan = off`);
        return rowsOf<{ 'QUERY PLAN': string }>(await tx.execute(sql.raw(`explain ${query}`)));
      });
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    };
    expect(await plan(`select ticket_id from ticket_search where words @@ search_query('SÁBADO')`)).toContain('ticket_search_words_idx');
    expect(await plan(`select id from contacts where name_folded like f_unaccent(lower('%joao%'))`)).toContain('contacts_name_folded_trgm_idx');
    // The stored folded name follows the name as it changes.
    const [row] = await queryRows<{ name_folded: string }>(t, sql`update contacts set name = 'Conceição Ávila' where id = (select min(id) from contacts) returning name_folded`);
    expect(row?.name_folded).toBe('conceicao avila');
    expect(await plan(`select id from users where f_unaccent(lower(name)) like f_unaccent(lower('%joao%'))`)).toContain('users_name_unaccent_trgm_idx');
    const folded = await queryRows<{ f: string }>(t, sql`select f_unaccent(lower('João ÇÃO Sábado')) as f`);
    expect(folded[0]?.f).toBe('joao cao sabado');
  });
});
