import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateDatabase, rowsOf, type DatabaseHandle } from '../../db/client.js';
import { openTestDatabase } from '../../test/test-database.js';
import { MessagesRepository } from './messages.repository.js';

// A chat's pages are written as JSON text by PostgreSQL (MESSAGE_DTO_TEXT); a single message's live event is mapped
// from its row in the server (toMessageDto). Both must give the same DTO for every kind of message: quoted or not,
// with or without a contact name, media, a failed send, text that needs escaping.
let handle: DatabaseHandle;

beforeAll(async () => {
  handle = await openTestDatabase();
  await migrateDatabase(handle);
  await handle.db.execute(sql`
    insert into whatsapps (name) values ('Loja');
    insert into contacts (id, name, number) values (1, 'Zé "Aspas" \\ D''Ávila', '5511900000001'), (2, '', '5511900000002');
    insert into tickets (id, status, contact_id, whatsapp_id) values (1, 'open', 1, 1);
    insert into messages (id, channel_message_id, whatsapp_id, ticket_id, contact_id, body, from_me, read, ack, sender_kind, created_at) values
      (1, 'a', 1, 1, 1, 'olá
linha dois	tab \u0001', false, true, 0, 'contact', '2026-05-01T10:00:00.123456Z'),
      (2, 'b', 1, 1, 2, '', false, false, 0, 'contact', '2026-05-01T10:01:00Z'),
      (3, 'c', 1, 1, null, '😀 </script>', true, true, 3, 'user', '2026-05-01T10:02:00Z');
    insert into messages (id, channel_message_id, whatsapp_id, ticket_id, contact_id, body, from_me, read, ack, media_type, media_url, media_duration,
                          quoted_msg_id, participant_name, sender_kind, send_error, is_deleted, created_at) values
      (4, 'd', 1, 1, 1, 'responde', false, false, 1, 'audio', '/media/a b.ogg', 7, 1, 'Grupo: Ana', 'contact', null, false, '2026-05-01T10:03:00Z'),
      (5, 'e', 1, 1, null, 'falhou', true, true, 0, null, null, null, 2, null, 'user', 'rede: "recusado"', false, '2026-05-01T10:04:00Z'),
      (6, 'f', 1, 1, null, 'apagada', true, true, 0, 'image', '/media/x.png', null, 3, null, 'auto', null, true, '2026-05-01T10:05:00Z');`);
});

afterAll(async () => {
  await handle?.close();
});

describe('message DTOs written by PostgreSQL', () => {
  it("are the DTOs the server maps from the same rows, every kind of message", async () => {
    const repo = new MessagesRepository(handle.db);
    const page = await repo.readPage(1, 1, 20);
    const ids = rowsOf<{ id: number }>(await handle.db.execute(sql`select id from messages order by created_at, id`)).map((row) => Number(row.id));
    expect(page.messages.map((m) => m.id)).toEqual(ids);
    const mapped = await Promise.all(ids.map((id) => repo.findDto(id)));
    expect(page.messages).toEqual(mapped);
    expect(page.messages[3]!.quotedMsg).toMatchObject({ id: 1, contact: { name: 'Zé "Aspas" \\ D\'Ávila' } });
    expect(page.messages[4]!.quotedMsg).toMatchObject({ id: 2, contact: null });
  });
});
