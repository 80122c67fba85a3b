import type { SimulatorOutboxItemDto, WhatsappDto } from '@wadesk/contracts';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { MessagesRepository } from '../../modules/messages/messages.repository.js';
import { queryRows } from '../../test/desk-factories.js';
import { eventually } from '../../test/session-helpers.js';
import { createTestApp, useTestApp } from '../../test/test-app.js';
import type { AckUpdate, InboundMessage } from '../channel-driver.js';

const t = useTestApp({ tempDataDir: true, admin: true });
let connection: WhatsappDto;
const inbound: InboundMessage[] = [];
const acks: AckUpdate[] = [];

beforeAll(async () => {
  t.app.services.sessions.onMessage((whatsappId, message) => {
    if (whatsappId === connection?.id) inbound.push(message);
  });
  t.app.services.sessions.onAck((whatsappId, update) => {
    if (whatsappId === connection?.id) acks.push(update);
  });
  connection = (await t.call<WhatsappDto>('POST', '/api/whatsapp', { token: t.admin, body: { name: 'Sim', channel: 'simulator' } })).body;
  await t.call('POST', `/api/simulator/${connection.id}/scan`, { token: t.admin });
});

async function storedCount(channelMessageId: string): Promise<number> {
  const rows = await queryRows<{ n: number }>(
    t,
    `select count(*)::int as n from messages where whatsapp_id = ${connection.id} and channel_message_id = '${channelMessageId}'`,
  );
  return rows[0]!.n;
}

const sim = (path: string) => `/api/simulator/${connection.id}/${path}`;

describe('simulator: pairing', () => {
  it('refuses a scan when no QR code is waiting', async () => {
    const res = await t.call('POST', sim('scan'), { token: t.admin });
    expect(res.status).toBe(400);
  });

  it('refuses inbound messages to a connection that is not connected', async () => {
    const other = (await t.call<WhatsappDto>('POST', '/api/whatsapp', { token: t.admin, body: { name: 'Unpaired', channel: 'simulator' } }))
      .body;
    const res = await t.call('POST', `/api/simulator/${other.id}/inbound`, { token: t.admin, body: { from: '5511987654321', body: 'hi' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_WAPP_NOT_INITIALIZED');
  });

  it('answers ERR_NO_WAPP_FOUND for an unknown connection', async () => {
    const res = await t.call('POST', '/api/simulator/99999/scan', { token: t.admin });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('ERR_NO_WAPP_FOUND');
  });
});

describe('simulator: inbound messages', () => {
  it('delivers a contact message as a normalized inbound message, once per id', async () => {
    const body = { id: 'MSG-1', from: '+55 11 98765-4321', name: 'Maria', body: 'Olá!' };
    const first = await t.call('POST', sim('inbound'), { token: t.admin, body });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ id: 'MSG-1', duplicate: false });
    const again = await t.call('POST', sim('inbound'), { token: t.admin, body });
    expect(again.status).toBe(200);
    expect(again.body.duplicate).toBe(true);
    const received = inbound.filter((m) => m.id === 'MSG-1');
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({
      fromMe: false,
      chatId: '5511987654321',
      chatName: 'Maria',
      isGroup: false,
      kind: 'text',
      body: 'Olá!',
    });
    expect(received[0]!.timestamp).toBeInstanceOf(Date);
  });

  it('answers 201 only once the message is stored; a resend of a message whose storing failed is stored', async () => {
    const body = { id: 'MSG-FAIL-1', from: '5511987654321', body: 'stored on the second try' };
    const failing = vi.spyOn(MessagesRepository.prototype, 'insertIntoTicketShared').mockRejectedValueOnce(new Error('disk full'));
    try {
      const first = await t.call('POST', sim('inbound'), { token: t.admin, body });
      expect(first.status).toBe(500);
      expect(await storedCount('MSG-FAIL-1')).toBe(0);
    } finally {
      failing.mockRestore();
    }
    const resend = await t.call('POST', sim('inbound'), { token: t.admin, body });
    expect(resend.status).toBe(201);
    expect(resend.body).toEqual({ id: 'MSG-FAIL-1', duplicate: false });
    expect(await storedCount('MSG-FAIL-1')).toBe(1); // committed before the answer
    const again = await t.call('POST', sim('inbound'), { token: t.admin, body });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ id: 'MSG-FAIL-1', duplicate: true });
    expect(await storedCount('MSG-FAIL-1')).toBe(1);
  });

  it('stores concurrent deliveries of one id once, answering the others as duplicates', async () => {
    const body = { id: 'MSG-RACE-1', from: '5511987654321', body: 'twice at once' };
    const answers = await Promise.all([1, 2, 3].map(async () => t.call('POST', sim('inbound'), { token: t.admin, body })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 201]);
    expect(await storedCount('MSG-RACE-1')).toBe(1);
  });

  it('reads media only from signed media URLs of this app, never from other API paths', async () => {
    for (const mediaUrl of ['/api/users', '//api/users', '/%61pi/users', '/API/users', '/api/media/x.png', '/./api/users', '/x/../api/users', '/socket.io/']) {
      const res = await t.call('POST', sim('inbound'), { token: t.admin, body: { from: '5511911112222', mediaType: 'image', mediaUrl } });
      expect(res.status, mediaUrl).toBe(400);
      expect(res.body.error, mediaUrl).toBe('ERR_VALIDATION');
    }
    const png = Buffer.from('signed-png-bytes');
    const url = t.app.services.media.url(await t.app.services.media.save(png, 'image/png'));
    const res = await t.call('POST', sim('inbound'), {
      token: t.admin,
      body: { id: 'MSG-SIGNED', from: '5511911113333', mediaType: 'image', mediaUrl: url },
    });
    expect(res.status).toBe(201);
    expect(await inbound.find((m) => m.id === 'MSG-SIGNED')!.media!.download()).toEqual(png);
  });

  it('gives a message without id a fresh network id', async () => {
    const res = await t.call('POST', sim('inbound'), { token: t.admin, body: { from: '5511987654321', body: 'no id' } });
    expect(res.status).toBe(201);
    expect(res.body.id).toMatch(/^SIM-IN-/);
  });

  it('delivers media from a data: URL, quoted replies and group messages', async () => {
    const png = Buffer.from('fake-png-bytes');
    const res = await t.call('POST', sim('inbound'), {
      token: t.admin,
      body: {
        id: 'MSG-IMG',
        from: '5511911112222',
        name: 'Ana',
        body: 'a photo',
        mediaType: 'image',
        mediaUrl: `data:image/png;base64,${png.toString('base64')}`,
        quotedId: 'MSG-1',
        groupId: '120363000000000001',
        groupName: 'Family',
      },
    });
    expect(res.status).toBe(201);
    const message = inbound.find((m) => m.id === 'MSG-IMG')!;
    expect(message).toMatchObject({
      chatId: '120363000000000001@g.us',
      chatName: 'Family',
      isGroup: true,
      participant: { number: '5511911112222', name: 'Ana' },
      kind: 'image',
      body: 'a photo',
      quotedId: 'MSG-1',
    });
    expect(message.media?.mimetype).toBe('image/png');
    expect(await message.media!.download()).toEqual(png);
  });

  it('delivers a location and a contact card', async () => {
    await t.call('POST', sim('inbound'), {
      token: t.admin,
      body: { id: 'LOC-1', from: '5511911112222', mediaType: 'location', body: '-23.55,-46.63|Av. Paulista' },
    });
    const vcard = 'BEGIN:VCARD\nVERSION:3.0\nFN:João\nTEL;type=CELL;waid=5511933334444:+55 11 93333-4444\nEND:VCARD';
    await t.call('POST', sim('inbound'), { token: t.admin, body: { id: 'VC-1', from: '5511911112222', mediaType: 'vcard', body: vcard } });
    expect(inbound.find((m) => m.id === 'LOC-1')).toMatchObject({
      kind: 'location',
      location: { latitude: -23.55, longitude: -46.63, description: 'Av. Paulista' },
    });
    expect(inbound.find((m) => m.id === 'VC-1')).toMatchObject({
      kind: 'vcard',
      vcard: { displayName: 'João', numbers: ['5511933334444'] },
    });
  });

  it('validates the inbound body', async () => {
    const noFrom = await t.call('POST', sim('inbound'), { token: t.admin, body: { body: 'x' } });
    expect(noFrom.status).toBe(400);
    const remote = await t.call('POST', sim('inbound'), {
      token: t.admin,
      body: { from: '5511911112222', mediaType: 'image', mediaUrl: 'https://example.com/a.jpg' },
    });
    expect(remote.status).toBe(400);
    expect(remote.body.error).toBe('ERR_VALIDATION');
    const empty = await t.call('POST', sim('inbound'), { token: t.admin, body: { from: '5511911112222' } });
    expect(empty.status).toBe(400);
  });
});

describe('simulator: sending, outbox and acks', () => {
  it('records sends in the outbox with ack 1, and moves acks through the ack route', async () => {
    const driver = t.app.services.sessions.driver(connection.id);
    const sent = await driver.sendText('5511987654321@s.whatsapp.net', 'Hello from the desk');
    await driver.sendMedia('5511955556666', { kind: 'image', data: Buffer.from('img'), mimetype: 'image/jpeg', caption: 'pic' });

    const outbox = await t.call<SimulatorOutboxItemDto[]>('GET', `${sim('outbox')}?to=5511987654321`, { token: t.admin });
    expect(outbox.status).toBe(200);
    expect(outbox.body).toEqual([
      expect.objectContaining({ id: sent.id, to: '5511987654321', body: 'Hello from the desk', mediaType: null, ack: 1 }),
    ]);
    const all = (await t.call<SimulatorOutboxItemDto[]>('GET', sim('outbox/'), { token: t.admin })).body;
    const media = all.find((e) => e.to === '5511955556666')!;
    expect(media).toMatchObject({ mediaType: 'image', body: 'pic' });
    expect(Object.keys(media)).toEqual(expect.arrayContaining(['id', 'to', 'body', 'mediaType', 'mediaUrl', 'createdAt']));
    // The file is on disk, served by a signed URL the page's <img> can load without a token.
    expect(media.mediaUrl).toMatch(new RegExp(`^/api/simulator/${connection.id}/files/[0-9a-f-]{36}\\.jpg\\?sig=`));
    const file = await t.app.http.inject({ method: 'GET', url: media.mediaUrl! });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/jpeg');
    expect(file.rawPayload).toEqual(Buffer.from('img'));
    const forged = await t.app.http.inject({ method: 'GET', url: media.mediaUrl!.replace(/sig=.*/, 'sig=forged') });
    expect(forged.statusCode).toBe(403);
    const otherDevice = await t.app.http.inject({ method: 'GET', url: media.mediaUrl!.replace(`/simulator/${connection.id}/`, '/simulator/999/') });
    expect(otherDevice.statusCode).toBe(403);

    await eventually(async () => acks.some((a) => a.id === sent.id && a.ack === 1), 3000, 'ack 1');
    const read = await t.call('POST', sim('ack'), { token: t.admin, body: { id: sent.id, ack: 3 } });
    expect(read.status).toBe(200);
    expect(read.body.ack).toBe(3);
    expect(acks.at(-1)).toEqual({ id: sent.id, chatId: '5511987654321', ack: 3 });
    const unknown = await t.call('POST', sim('ack'), { token: t.admin, body: { id: 'nope', ack: 2 } });
    expect(unknown.status).toBe(404);
    const invalid = await t.call('POST', sim('ack'), { token: t.admin, body: { id: sent.id, ack: 7 } });
    expect(invalid.status).toBe(400);
  });

  it('answers whether a number is on WhatsApp: numbers ending in 0000 are not', async () => {
    const driver = t.app.services.sessions.driver(connection.id);
    expect(await driver.checkNumber('+55 11 98765-4321')).toEqual({ exists: true, number: '5511987654321' });
    expect(await driver.checkNumber('5511987650000')).toEqual({ exists: false });
    await expect(driver.sendText('5511987650000', 'hi')).rejects.toMatchObject({ code: 'ERR_WAPP_INVALID_CONTACT' });
    expect(await driver.profilePictureUrl('5511987654321')).toBeNull();
  });

  it('keeps groups and answers history, most recent last', async () => {
    const driver = t.app.services.sessions.driver(connection.id);
    const group = await driver.createGroup('Team', ['5511911112222', '5511933334444']);
    expect(group.participants.map((p) => p.number)).toContain('5511933334444');
    await driver.updateGroupSubject(group.id, 'Team 2');
    await driver.updateGroupDescription(group.id, 'All of us');
    await driver.setGroupAnnounce(group.id, true);
    const groups = await driver.listGroups();
    expect(groups.find((g) => g.id === group.id)).toMatchObject({ subject: 'Team 2', description: 'All of us', announce: true });
    expect(groups.some((g) => g.id === '120363000000000001@g.us')).toBe(true);

    await driver.sendText(group.id, 'hello team');
    const history = await driver.fetchHistory(2);
    expect(history).toHaveLength(2);
    expect(history[1]).toMatchObject({ fromMe: true, chatId: group.id, isGroup: true, body: 'hello team' });
    expect((await driver.fetchHistory(1000)).some((m) => m.id === 'MSG-1' && !m.fromMe)).toBe(true);
  });

  it('a closed group takes posts from its admins only (issue 33 item 25)', async () => {
    const driver = t.app.services.sessions.driver(connection.id);
    const group = await driver.createGroup('Avisos', ['5511922223333', '5511944445555']);
    const post = (from: string, id: string) =>
      t.call('POST', sim('inbound'), { token: t.admin, body: { id, from, body: 'posting', groupId: group.id } });
    expect((await post('5511922223333', 'MSG-OPEN-GROUP')).status).toBe(201);
    await driver.setGroupAnnounce(group.id, true);
    const refused = await post('5511944445555', 'MSG-CLOSED-GROUP');
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/only the admins/i);
    expect(inbound.some((m) => m.id === 'MSG-CLOSED-GROUP')).toBe(false);
    // The phone itself is the group's admin: what it types there still goes.
    const own = await t.call('POST', sim('inbound'), { token: t.admin, body: { id: 'MSG-CLOSED-OWN', from: '5511944445555', fromMe: true, body: 'admin note', groupId: group.id } });
    expect(own.status).toBe(201);
  });

  it('lists the chats the simulated phone knows', async () => {
    const res = await t.call('GET', sim('contacts'), { token: t.admin });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('CONNECTED');
    expect(res.body.contacts.some((c: { number: string }) => c.number === '5511987654321')).toBe(true);
  });
});

describe('simulator: access', () => {
  it('is for admins only (403 ERR_NO_PERMISSION for users)', async () => {
    const { token } = await t.createUser();
    const calls = [
      t.call('POST', sim('scan'), { token }),
      t.call('POST', sim('inbound'), { token, body: { from: '5511987654321', body: 'x' } }),
      t.call('GET', sim('outbox'), { token }),
      t.call('POST', sim('ack'), { token, body: { id: 'x', ack: 2 } }),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('ERR_NO_PERMISSION');
    }
  });

  it('is absent when SIMULATOR is off (404 ERR_NOT_FOUND)', async () => {
    const off = await createTestApp({ simulator: false });
    try {
      const token = await off.adminToken();
      const created = await off.call<WhatsappDto>('POST', '/api/whatsapp', { token, body: { name: 'Sim', channel: 'simulator' } });
      expect(created.body.status).toBe('DISCONNECTED');
      const res = await off.call('POST', `/api/simulator/${created.body.id}/scan`, { token });
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('ERR_NOT_FOUND');
    } finally {
      await off.close();
    }
  });
});

describe('default connection helpers', () => {
  it('checks numbers through the default connection once it is connected', async () => {
    const { defaultConnectionNumberChecker } = await import('../../modules/contacts/connection-contact-sources.js');
    const checker = defaultConnectionNumberChecker(t.app.database.db, t.app.services.sessions);
    // `connection` was the first one created, so it is the default, and it is paired.
    expect(await checker.checkNumber('5511987650000')).toEqual({ exists: false });
    expect(await checker.checkNumber('5511987654321')).toEqual({ exists: true, number: '5511987654321' });
    await t.call('DELETE', `/api/whatsappsession/${connection.id}`, { token: t.admin });
    expect(await checker.checkNumber('5511987654321')).toBeNull();
  });
});
