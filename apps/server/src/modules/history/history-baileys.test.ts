import { proto, type WAMessage } from '@whiskeysockets/baileys';
import type { DeviceHistorySummaryDto, HistoryImportDto, HistoryImportStartedResponse, WhatsappDto } from '@wadesk/contracts';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../test/desk-factories.js';
import { fakeBaileys } from '../../test/fakes/baileys-app.js';
import { eventually } from '../../test/session-helpers.js';
import { useTestApp } from '../../test/test-app.js';

/**
 * The device history on WhatsApp: the real app with the Baileys driver on the fake socket. What the phone sends on
 * pairing (`messaging-history.set`) lands in device_history, media by reference, and is imported from there.
 */
const downloads: string[] = [];
const baileys = fakeBaileys({
  downloadMedia: async (message) => {
    downloads.push(message.key.id ?? '');
    // The reference kept in the database brings the media keys back.
    expect(Buffer.isBuffer(message.message?.imageMessage?.mediaKey)).toBe(true);
    return Buffer.from('fake jpeg bytes');
  },
});
const t = useTestApp({ admin: true, channels: { drivers: baileys.drivers } });
let connection: WhatsappDto;
const socket = baileys.socket;
const CONTACT = '5511977776666';

function message(id: string, content: WAMessage['message'], seconds: number, fromMe = false): WAMessage {
  return { key: { remoteJid: `${CONTACT}@s.whatsapp.net`, fromMe, id }, message: content, messageTimestamp: seconds, pushName: fromMe ? undefined : 'Joana' };
}

beforeAll(async () => {
  connection = await baileys.connect(t);
});

describe('device history on WhatsApp (Baileys driver, fake socket)', () => {
  it('keeps messaging-history.set in the database per connection, and imports it with its quote and media', async () => {
    socket().ev.emit('messaging-history.set', {
      chats: [],
      contacts: [],
      messages: [
        message('WA-1', { conversation: 'Oi, tudo bem?' }, 1_700_000_100),
        message('WA-2', { extendedTextMessage: { text: 'Tudo!', contextInfo: { stanzaId: 'WA-1' } } }, 1_700_000_200, true),
        message('WA-3', { imageMessage: { caption: 'a foto', mimetype: 'image/jpeg', mediaKey: Buffer.from('0123456789abcdef0123456789abcdef'), directPath: '/v/t62/x', url: 'https://mmg.whatsapp.net/x' } }, 1_700_000_300),
      ],
      isLatest: true,
    });
    const rows = await eventually(async () => {
      const found = await queryRows<{ network_id: string; chat_id: string; from_me: boolean; body: string; timestamp: Date | string; media_type: string | null; media_url: string | null; quoted_id: string | null; name: string | null }>(
        t,
        sql`select network_id, chat_id, from_me, body, timestamp, media_type, media_url, quoted_id, name from device_history where whatsapp_id = ${connection.id} order by timestamp`,
      );
      return found.length === 3 ? found : null;
    }, 5000, 'history kept');
    expect(rows.map((r) => [r.network_id, r.chat_id, r.from_me, r.body, new Date(r.timestamp).toISOString()])).toEqual([
      ['WA-1', CONTACT, false, 'Oi, tudo bem?', '2023-11-14T22:15:00.000Z'],
      ['WA-2', CONTACT, true, 'Tudo!', '2023-11-14T22:16:40.000Z'],
      ['WA-3', CONTACT, false, 'a foto', '2023-11-14T22:18:20.000Z'],
    ]);
    expect(rows[0]!.name).toBe('Joana');
    expect(rows[1]!.quoted_id).toBe('WA-1');
    expect(rows[2]!.media_type).toBe('image');
    expect(rows[2]!.media_url).toContain('mediaKey');
    // Nothing became a ticket on its own: history is imported only when asked.
    expect(await queryRows(t, sql`select id from messages where whatsapp_id = ${connection.id}`)).toEqual([]);
    const summary = await t.call<DeviceHistorySummaryDto>('GET', `/api/history/device?whatsappId=${connection.id}`, { token: t.admin });
    expect(summary.body).toMatchObject({ chats: 1, messages: 3 });

    const started = await t.call<HistoryImportStartedResponse>('POST', '/api/history/imports', { token: t.admin, body: { whatsappId: connection.id, limit: 10 } });
    expect(started.status).toBe(201);
    const done = await eventually(async () => {
      const found = (await t.call<HistoryImportDto>('GET', `/api/history/imports/${started.body.historyImport.id}`, { token: t.admin })).body;
      return found.status === 'done' ? found : null;
    }, 10_000, 'import done');
    expect(done).toMatchObject({ messagesImported: 3, ticketsCreated: 1 });
    expect(downloads).toEqual(['WA-3']);
    const stored = await queryRows<{ channel_message_id: string; media_url: string | null; quoted_msg_id: number | null }>(
      t,
      sql`select channel_message_id, media_url, quoted_msg_id from messages where whatsapp_id = ${connection.id} order by created_at`,
    );
    expect(stored.map((m) => m.channel_message_id)).toEqual(['WA-1', 'WA-2', 'WA-3']);
    expect(stored[1]!.quoted_msg_id).not.toBeNull();
    expect(stored[2]!.media_url).toMatch(/^\/api\/media\//);

    // The chat holds fewer messages than the limit: the older ones were asked from the phone, from the oldest known.
    expect(done.olderRequested).toBe(1);
    expect(socket().fetchMessageHistory).toHaveBeenCalledWith(7, { remoteJid: `${CONTACT}@s.whatsapp.net`, id: 'WA-1', fromMe: false }, 1_700_000_100_000);
    // The phone answers with an on-demand history sync: kept, and the next import adds it to the same (closed) ticket.
    socket().ev.emit('messaging-history.set', {
      chats: [],
      contacts: [],
      messages: [message('WA-0', { conversation: 'Mensagem mais antiga' }, 1_699_000_000)],
      isLatest: false,
      syncType: proto.HistorySync.HistorySyncType.ON_DEMAND,
    });
    await eventually(async () => (await queryRows(t, sql`select 1 from device_history where network_id = 'WA-0'`)).length === 1, 5000, 'older message kept');
    const again = await t.call<HistoryImportStartedResponse>('POST', '/api/history/imports', { token: t.admin, body: { whatsappId: connection.id, limit: 10 } });
    const second = await eventually(async () => {
      const found = (await t.call<HistoryImportDto>('GET', `/api/history/imports/${again.body.historyImport.id}`, { token: t.admin })).body;
      return found.status === 'done' ? found : null;
    }, 10_000, 'second import done');
    expect(second).toMatchObject({ messagesImported: 1, messagesSkipped: 3, ticketsCreated: 0 });
    const tickets = await queryRows<{ ticket_id: number }>(t, sql`select distinct ticket_id from messages where whatsapp_id = ${connection.id}`);
    expect(tickets).toHaveLength(1);
  });
});
