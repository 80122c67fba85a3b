import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../app.js';
import { connectedSimulator, createQueue, inbound, outbox, phoneNumbers, queryRows } from '../../test/desk-factories.js';
import { eventually } from '../../test/session-helpers.js';
import { createTestApp } from '../../test/test-app.js';

const onPostgres = Boolean(process.env.DATABASE_URL);

// Issue 35 item 6: the menus of a connection one process runs, while another works the same job queue.
describe.skipIf(!onPostgres)('the queue menu with two processes on one database', () => {
  it('is sent once per ticket while a process that does not run the connection works the queue too (it hands the job on)', { timeout: 60_000 }, async () => {
    const t = await createTestApp({ queueMenuDebounceMs: 50 }, { tempDataDir: true });
    let second: App | undefined;
    try {
      second = await buildApp({ ...t.app.config, nodeId: 'second-process' }, { database: t.app.database, logger: false });
      const queues = [await createQueue(t, 'Dois processos A'), await createQueue(t, 'Dois processos B')];
      const connection = await connectedSimulator(t, { queueIds: queues, greetingMessage: 'Escolha:' });
      const phone = phoneNumbers(84_000, 1);
      const numbers = Array.from({ length: 12 }, () => phone());
      const tickets = await Promise.all(numbers.map((from) => inbound(t, connection.id, { from, body: 'oi' })));

      for (const number of numbers) await eventually(async () => ((await outbox(t, connection.id, number)).length === 1 ? true : null), 20_000, `the menu to ${number}`);
      // Nothing more comes: one menu a ticket.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      for (const number of numbers) expect(await outbox(t, connection.id, number)).toHaveLength(1);

      // One job a ticket sent its menu; any other was handed on by the second process (which takes a batch about
      // half the time: whichever process polls first after the menus fall due). A menu handed on for 3 s is sent
      // through the owner from where it is (decision 0020), still once.
      const ids = tickets.map((ticket) => ticket.id);
      const jobs = await queryRows<{ ticket: number; outcome: string | null }>(
        t,
        sql`select (data->>'ticketId')::int as ticket, output->>'outcome' as outcome from pgboss.job
             where name = 'queue.menu' and (data->>'ticketId')::int in ${ids}`,
      );
      for (const id of ids) expect(jobs.filter((job) => job.ticket === id && job.outcome === 'sent')).toHaveLength(1);
      expect(jobs.every((job) => job.outcome === 'sent' || job.outcome === 'elsewhere')).toBe(true);
    } finally {
      await second?.close();
      await t.close();
    }
  });
});
