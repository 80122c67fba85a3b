import { ATTENDANT_TOOLS, type TicketDto, type WhatsappDto } from '@wadesk/contracts';
import { sql, type SQL } from 'drizzle-orm';
import { rowsOf } from '../db/client.js';
import { queues } from '../db/schema.js';
import { eventually } from './session-helpers.js';
import type { TestApp } from './test-app.js';

let seq = 0;

/** A test file's contact numbers: 55119 and eight digits, `start + n × step` for the n-th call. */
export function phoneNumbers(start: number, step: number): () => string {
  let n = 0;
  return () => `55119${String(start + (n += 1) * step).padStart(8, '0')}`;
}

/** A simulator connection, paired and CONNECTED. */
export async function connectedSimulator(
  t: TestApp,
  input: { name?: string; queueIds?: number[]; greetingMessage?: string; farewellMessage?: string } = {},
): Promise<WhatsappDto> {
  const admin = await t.adminToken();
  seq += 1;
  const res = await t.call<WhatsappDto>('POST', '/api/whatsapp', {
    token: admin,
    body: { name: input.name ?? `Sim ${seq}`, channel: 'simulator', ...input },
  });
  if (res.status !== 201 && res.status !== 200) throw new Error(`create connection: ${res.status} ${JSON.stringify(res.body)}`);
  const id = res.body.id;
  await eventually(async () => t.app.services.sessions.status(id) === 'qrcode', 5000, 'qrcode');
  const scan = await t.call('POST', `/api/simulator/${id}/scan`, { token: admin });
  if (scan.status >= 300) throw new Error(`scan: ${scan.status} ${JSON.stringify(scan.body)}`);
  await eventually(async () => t.app.services.sessions.status(id) === 'CONNECTED', 5000, 'CONNECTED');
  return res.body;
}

export async function createQueue(t: TestApp, name: string, greetingMessage = ''): Promise<number> {
  seq += 1;
  const color = `#${(0x100000 + seq * 7919).toString(16).slice(-6)}`;
  const [row] = await t.app.database.db.insert(queues).values({ name, color, greetingMessage }).returning({ id: queues.id });
  return row!.id;
}

/** A contact writes to the connection through the simulator; resolves with the ticket it landed in. */
export async function inbound(
  t: TestApp,
  whatsappId: number,
  message: { from: string; body?: string; name?: string; id?: string; groupId?: string; groupName?: string; mediaType?: string; mediaUrl?: string; duration?: number },
): Promise<TicketDto> {
  const admin = await t.adminToken();
  const res = await t.call<{ id: string }>('POST', `/api/simulator/${whatsappId}/inbound`, { token: admin, body: message });
  if (res.status >= 300) throw new Error(`inbound: ${res.status} ${JSON.stringify(res.body)}`);
  const networkId = res.body.id;
  return eventually(async () => {
    const rows = await queryRows<{ ticket_id: number }>(
      t,
      sql`select ticket_id from messages where whatsapp_id = ${whatsappId} and channel_message_id = ${networkId}`,
    );
    const ticketId = rows[0]?.ticket_id;
    return ticketId ? t.app.services.tickets.loadMany([Number(ticketId)]).then((list) => list[0]) : null;
  }, 5000, `message ${networkId} stored`);
}

export async function outbox(t: TestApp, whatsappId: number, to?: string) {
  const admin = await t.adminToken();
  const res = await t.call<{ id: string; to: string; body: string; mediaType: string | null }[]>(
    'GET',
    `/api/simulator/${whatsappId}/outbox${to ? `?to=${to}` : ''}`,
    { token: admin },
  );
  return res.body;
}

/** Rows of a raw SQL query (tests only). */
export async function queryRows<T>(t: TestApp, query: SQL | string): Promise<T[]> {
  return rowsOf<T>(await t.app.database.db.execute(typeof query === 'string' ? sql.raw(query) : query));
}

/** Runs `run` with the setting attendantTools at `value` (issue 32), then puts the default (every tool) back. */
export async function withAttendantTools(t: TestApp, value: string, run: () => Promise<void>): Promise<void> {
  const admin = await t.adminToken();
  const put = async (v: string) => {
    const res = await t.call('PUT', '/api/settings/attendantTools', { token: admin, body: { value: v } });
    if (res.status !== 200) throw new Error(`attendantTools: ${res.status} ${JSON.stringify(res.body)}`);
  };
  await put(value);
  try {
    await run();
  } finally {
    await put(ATTENDANT_TOOLS.join(','));
  }
}
