import type { MessageDto } from '@wadesk/contracts';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../app.js';
import { connectedSimulator, inbound, outbox, phoneNumbers, queryRows } from '../../test/desk-factories.js';
import { eventually } from '../../test/session-helpers.js';
import { ADMIN, createTestApp } from '../../test/test-app.js';

const onPostgres = Boolean(process.env.DATABASE_URL);

async function call<T>(app: App, method: 'GET' | 'POST' | 'DELETE', url: string, token?: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await app.http.inject({ method, url, payload: body as never, headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.statusCode, body: JSON.parse(res.body) as T };
}

// Several processes own connections only on PostgreSQL (advisory locks): on the embedded database one process
// runs them all and nothing is routed.
describe.skipIf(!onPostgres)('sends and deletes through a process that does not run the connection (issue 17)', () => {
  it('texts and files are stored once and sent once, deletes and reactions carried out, by the process that runs the connection', { timeout: 60_000 }, async () => {
    const t = await createTestApp({}, { tempDataDir: true });
    let second: App | undefined;
    try {
      second = await buildApp({ ...t.app.config, nodeId: 'second-process' }, { database: t.app.database, logger: false });
      const connection = await connectedSimulator(t, { name: 'Routed sends' });
      expect(t.app.services.sessions.status(connection.id)).toBe('CONNECTED');
      expect(second.services.sessions.status(connection.id)).toBeNull(); // the second process does not run it
      const contact = phoneNumbers(81_000, 1)();
      const ticket = await inbound(t, connection.id, { from: contact, body: 'Olá' });

      const token2 = (await call<{ token: string }>(second, 'POST', '/api/auth/login', undefined, ADMIN)).body.token;
      const bodies = ['Roteado 1', 'Roteado 2', 'Roteado 3'];
      const answers = [];
      for (const body of bodies) answers.push(await call<MessageDto>(second, 'POST', `/api/messages/${ticket.id}`, token2, { body }));
      // Accepted at once, stored with ack 0: the owner sends it.
      for (const answer of answers) expect(answer).toMatchObject({ status: 201, body: { fromMe: true, ack: 0 } });

      let last: unknown = null;
      const sent = await eventually(async () => {
        const rows = await queryRows<{ body: string; ack: number; send_error: string | null }>(
          t,
          sql`select body, ack, send_error from messages where ticket_id = ${ticket.id} and from_me order by id`,
        );
        last = rows;
        return rows.length === bodies.length && rows.every((r) => r.ack >= 1) ? rows : null;
      }, 30_000, 'routed texts sent').catch((err: Error) => {
        throw new Error(`${err.message}: ${JSON.stringify(last)}`);
      });
      expect(sent.map((r) => r.body).sort()).toEqual(bodies);
      expect(sent.every((r) => r.send_error === null)).toBe(true);
      // Handed to the network once each, by the process that runs the connection (each its own job: any order).
      const box = (await outbox(t, connection.id, contact)).filter((e) => bodies.includes(e.body));
      expect(box.map((e) => e.body).sort()).toEqual(bodies);
      // The simulated phone keeps its state in the database (issue 33 item 25): the other process sees the same
      // device, never a send of its own.
      const elsewhere = await call<{ id: string; body: string }[]>(second, 'GET', `/api/simulator/${connection.id}/outbox?to=${contact}`, token2);
      expect(elsewhere.status).toBe(200);
      const sentIds = new Set(box.map((e) => e.id));
      expect(elsewhere.body.filter((e) => bodies.includes(e.body) && !sentIds.has(e.id))).toEqual([]);

      // A job for a message already sent does nothing.
      const [first] = await queryRows<{ id: number }>(t, sql`select id from messages where ticket_id = ${ticket.id} and body = 'Roteado 1'`);
      expect(await t.app.services.messages.sendStored(Number(first!.id), Date.now(), Date.now())).toBe('already-done');
      expect((await outbox(t, connection.id, contact)).filter((e) => e.body === 'Roteado 1')).toHaveLength(1);

      // A file sent through the second process: stored there (media storage is shared), sent once by the owner.
      const form = new FormData();
      form.append('body', 'Roteado com arquivo');
      form.append('medias', new Blob([Buffer.from('%PDF-1.4 routed')], { type: 'application/pdf' }), 'routed.pdf');
      const request = new Request('http://local/', { method: 'POST', body: form });
      const fileAnswer = await second.http.inject({
        method: 'POST',
        url: `/api/messages/${ticket.id}`,
        payload: Buffer.from(await request.arrayBuffer()),
        headers: { authorization: `Bearer ${token2}`, 'content-type': request.headers.get('content-type')! },
      });
      expect(fileAnswer.statusCode).toBe(201);
      const [file] = JSON.parse(fileAnswer.body) as MessageDto[];
      expect(file).toMatchObject({ fromMe: true, ack: 0, mediaType: 'other', body: 'Roteado com arquivo' });
      await eventually(async () => {
        const [row] = await queryRows<{ ack: number }>(t, sql`select ack from messages where id = ${file!.id}`);
        return row && row.ack >= 1 ? row : null;
      }, 30_000, 'routed file sent');
      const files = (await outbox(t, connection.id, contact)).filter((e) => e.mediaType === 'document');
      expect(files).toHaveLength(1);
      expect(files[0]!.body).toBe('Roteado com arquivo');

      // A delete through the second process is carried out by the owner; the answer waits for it.
      const message = answers[0]!.body;
      const deleted = await call<MessageDto>(second, 'DELETE', `/api/messages/${message.id}`, token2);
      expect(deleted).toMatchObject({ status: 200, body: { id: message.id, isDeleted: true } });
      const gone = (await call<{ body: string; isDeleted: boolean }[]>(t.app, 'GET', `/api/simulator/${connection.id}/outbox?to=${contact}`, await t.adminToken())).body;
      expect(gone.find((e) => e.body === 'Roteado 1')).toMatchObject({ isDeleted: true });
      // Deleting it again answers the deleted message without another job.
      expect(await call<MessageDto>(second, 'DELETE', `/api/messages/${message.id}`, token2)).toMatchObject({ status: 200, body: { isDeleted: true } });
      // A reaction through the second process: sent by the owner, stored once, answered as on the owner.
      const [customer] = await queryRows<{ id: number }>(t, sql`select id from messages where ticket_id = ${ticket.id} and not from_me limit 1`);
      const reacted = await call<MessageDto>(second, 'POST', `/api/messages/${customer!.id}/react`, token2, { emoji: '👍' });
      expect(reacted).toMatchObject({ status: 201, body: { body: '👍', fromMe: true, quotedMsg: { id: Number(customer!.id) } } });
      expect((await outbox(t, connection.id, contact)).filter((e) => e.mediaType === 'reaction').map((e) => e.body)).toEqual(['👍']);
      const removed = await second.http.inject({ method: 'POST', url: `/api/messages/${customer!.id}/react`, payload: { emoji: '' }, headers: { authorization: `Bearer ${token2}` } });
      expect(removed.statusCode).toBe(204);
      const [kept] = await queryRows<{ is_deleted: boolean }>(t, sql`select is_deleted from messages where id = ${reacted.body.id}`);
      expect(kept!.is_deleted).toBe(true);

      // A refusal by the network reaches the caller of the other process as the error the owner got.
      const [unknown] = await queryRows<{ id: number }>(
        t,
        sql`insert into messages (channel_message_id, whatsapp_id, ticket_id, body, from_me, read, ack, sender_kind)
            values ('NOT-ON-THE-PHONE', ${connection.id}, ${ticket.id}, 'never sent', true, true, 1, 'user') returning id`,
      );
      const refused = await call<{ error: string }>(second, 'DELETE', `/api/messages/${unknown!.id}`, token2);
      expect(refused).toMatchObject({ status: 400, body: { error: 'ERR_DELETE_WAPP_MSG' } });
      const [stays] = await queryRows<{ is_deleted: boolean }>(t, sql`select is_deleted from messages where id = ${unknown!.id}`);
      expect(stays!.is_deleted).toBe(false);
    } finally {
      await second?.close();
      await t.close();
    }
  });

  it('a routed send is taken by the process that runs the connection, told when it falls due: one job a text, give or take a hop', { timeout: 60_000 }, async () => {
    const t = await createTestApp({}, { tempDataDir: true });
    let second: App | undefined;
    try {
      second = await buildApp({ ...t.app.config, nodeId: 'second-process' }, { database: t.app.database, logger: false });
      const connection = await connectedSimulator(t, { name: 'Owner told' });
      expect(second.services.sessions.status(connection.id)).toBeNull();
      const nextNumber = phoneNumbers(82_000, 1);
      const contacts = [nextNumber(), nextNumber()];
      const tickets = [await inbound(t, connection.id, { from: contacts[0]!, body: 'Oi' }), await inbound(t, connection.id, { from: contacts[1]!, body: 'Oi' })];
      const token2 = (await call<{ token: string }>(second, 'POST', '/api/auth/login', undefined, ADMIN)).body.token;
      const sends = 10;
      const ids: number[] = [];
      for (let n = 1; n <= sends; n++) {
        for (const [i, ticket] of tickets.entries()) {
          const answer = await call<MessageDto>(second, 'POST', `/api/messages/${ticket.id}`, token2, { body: `Em ordem ${i}.${n}` });
          expect(answer.status).toBe(201);
          ids.push(answer.body.id);
        }
      }
      await eventually(async () => {
        const [row] = await queryRows<{ n: number }>(t, sql`select count(*)::int as n from messages where id = any(${`{${ids.join(',')}}`}::int[]) and ack >= 1`);
        return row!.n === ids.length ? true : null;
      }, 30_000, 'every routed text sent');
      // Each text reached the phone once. (In the order written unless one hopped: a job queued again is behind those
      // queued after it; job-queue.test.ts holds the order of a batch's lanes.)
      for (const [i, contact] of contacts.entries()) {
        const box = (await outbox(t, connection.id, contact)).filter((e) => e.body.startsWith(`Em ordem ${i}.`));
        expect(box.map((e) => e.body).sort()).toEqual(Array.from({ length: sends }, (_, n) => `Em ordem ${i}.${n + 1}`).sort());
      }
      // One job a text, give or take a hop: before the owner was told, the process that queued a text took it first
      // and queued it again, and so on until the owner's turn (about three jobs a text on three processes).
      const [jobs] = await queryRows<{ n: number }>(
        t,
        sql`select count(*)::int as n from pgboss.job where name = 'message.send' and (data->>'messageId')::int = any(${`{${ids.join(',')}}`}::int[])`,
      );
      expect(jobs!.n).toBeGreaterThanOrEqual(ids.length);
      expect(jobs!.n).toBeLessThan(ids.length * 1.5);

      // Reactions (routed actions, whose callers wait for the owner's answer) go the same way.
      const customers = await queryRows<{ id: number }>(t, sql`select id from messages where ticket_id in (${tickets[0]!.id}, ${tickets[1]!.id}) and not from_me`);
      expect(customers).toHaveLength(2);
      for (const emoji of ['👍', '']) {
        for (const customer of customers) {
          const reacted = await second.http.inject({ method: 'POST', url: `/api/messages/${customer.id}/react`, payload: { emoji }, headers: { authorization: `Bearer ${token2}` } });
          expect(reacted.statusCode).toBe(emoji ? 201 : 204);
        }
      }
      const [acts] = await queryRows<{ n: number }>(
        t,
        sql`select count(*)::int as n from pgboss.job where name = 'message.act' and (data->'action'->>'messageId')::int in (${customers[0]!.id}, ${customers[1]!.id})`,
      );
      // Four actions: one job each, give or take a hop (before the owner was told, at least two each).
      expect(acts!.n).toBeGreaterThanOrEqual(4);
      expect(acts!.n).toBeLessThan(7);
    } finally {
      await second?.close();
      await t.close();
    }
  });
});
