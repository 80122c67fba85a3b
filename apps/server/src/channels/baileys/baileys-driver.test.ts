import { spawnSync } from 'node:child_process';
import { initAuthCreds, proto, type WAMessage } from '@whiskeysockets/baileys';
import type { SessionStatus } from '@wadesk/contracts';
import { describe, expect, it, vi } from 'vitest';
import { AppError } from '../../http/app-error.js';
import { resolveFfmpeg } from '../../ops/ffmpeg.js';
import { wavFile } from '../../test/audio-fixtures.js';
import type { AckUpdate, AuthStateStore, DriverContext, InboundCall, InboundMessage, InboundOutcome } from '../channel-driver.js';
import { toVoiceNote } from './baileys-audio.js';
import { boomLike, makeFakeSocket, type FakeSocket } from '../../test/fakes/baileys-socket.js';
import { BaileysDriver, type BaileysDriverOptions, type BaileysSocket } from './baileys-driver.js';

// ---- an in-memory AuthStateStore that, like a jsonb column, only keeps JSON ----

class MemoryAuthStateStore implements AuthStateStore {
  readonly rows = new Map<string, string>();
  async get<T = unknown>(key: string): Promise<T | null> {
    const row = this.rows.get(key);
    return row === undefined ? null : (JSON.parse(row) as T);
  }
  async getMany<T = unknown>(keys: string[]): Promise<Map<string, T>> {
    const out = new Map<string, T>();
    for (const key of keys) {
      const row = this.rows.get(key);
      if (row !== undefined) out.set(key, JSON.parse(row) as T);
    }
    return out;
  }
  async set(entries: Record<string, unknown>): Promise<void> {
    for (const [key, value] of Object.entries(entries)) {
      if (value === null || value === undefined) this.rows.delete(key);
      else this.rows.set(key, JSON.stringify(value));
    }
  }
  async clear(): Promise<void> {
    this.rows.clear();
  }
}

/** Like the database repository: hands encoded bytes back as real Buffers. */
class DecodingAuthStateStore extends MemoryAuthStateStore {
  override async get<T = unknown>(key: string): Promise<T | null> {
    const row = this.rows.get(key);
    return row === undefined ? null : (JSON.parse(row, decodeBuffers) as T);
  }
  override async getMany<T = unknown>(keys: string[]): Promise<Map<string, T>> {
    const out = new Map<string, T>();
    for (const key of keys) {
      const row = this.rows.get(key);
      if (row !== undefined) out.set(key, JSON.parse(row, decodeBuffers) as T);
    }
    return out;
  }
}

function decodeBuffers(_key: string, value: unknown): unknown {
  const v = value as { type?: unknown; data?: unknown } | null;
  return typeof v === 'object' && v !== null && v.type === 'Buffer' && typeof v.data === 'string' ? Buffer.from(v.data, 'base64') : value;
}

interface Harness {
  driver: BaileysDriver;
  store: MemoryAuthStateStore;
  socket: () => FakeSocket;
  qrs: string[];
  statuses: { status: SessionStatus; detail?: { loggedOut?: boolean; reason?: string; number?: string } }[];
  messages: InboundMessage[];
  acks: AckUpdate[];
  histories: InboundMessage[][];
  calls: InboundCall[];
  /** What listener.call answers (true: reject). */
  rejectCalls: boolean;
  /** What listener.message does with each message (after recording it); stores it by default. */
  storeMessage: (m: InboundMessage) => Promise<InboundOutcome>;
}

function harness(authStore = new MemoryAuthStateStore(), options: BaileysDriverOptions = {}): Harness {
  const sockets: FakeSocket[] = [];
  const h: Omit<Harness, 'driver'> = {
    store: authStore,
    storeMessage: async () => 'stored',
    socket: () => {
      const last = sockets.at(-1);
      if (!last) throw new Error('no socket yet');
      return last;
    },
    qrs: [],
    statuses: [],
    messages: [],
    acks: [],
    histories: [],
    calls: [],
    rejectCalls: false,
  };
  const context: DriverContext = {
    whatsappId: 7,
    authState: authStore,
    listener: {
      qr: (qr) => h.qrs.push(qr),
      status: (status, detail) => h.statuses.push({ status, detail }),
      message: async (m) => {
        h.messages.push(m);
        return h.storeMessage(m);
      },
      ack: (a) => h.acks.push(a),
      history: async (list) => {
        h.histories.push(list);
      },
      call: async (c) => {
        h.calls.push(c);
        return h.rejectCalls;
      },
    },
    log: { info: () => undefined, warn: () => undefined, error: () => undefined },
  };
  const driver = new BaileysDriver(context, {
    socketFactory: (config) => {
      const socket = makeFakeSocket(config);
      sockets.push(socket);
      return socket as unknown as BaileysSocket;
    },
    downloadMedia: async (message) => Buffer.from(`bytes of ${message.key.id}`),
    ...options,
  });
  return Object.assign(h, { driver });
}

function inbound(id: string, message: proto.IMessage, key: Partial<WAMessage['key']> = {}, extra: Partial<WAMessage> = {}): WAMessage {
  return {
    key: { remoteJid: '5511988887777@s.whatsapp.net', fromMe: false, id, ...key },
    message,
    messageTimestamp: 1_763_700_123,
    pushName: 'Maria',
    ...extra,
  };
}

function ffmpegWorks(): boolean {
  try {
    // The one the transcoder runs outside an app (no FFMPEG_PATH given): the system's, else the bundled one.
    const ffmpeg = resolveFfmpeg();
    return !!ffmpeg && spawnSync(ffmpeg.path, ['-hide_banner', '-version']).status === 0;
  } catch {
    return false;
  }
}

/** A short 8 kHz mono 16-bit PCM WAV: a 440 Hz tone. */
function sineWav(seconds = 0.5, rate = 8000): Buffer {
  const samples = Math.floor(seconds * rate);
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) data.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 440 * i) / rate) * 12000), i * 2);
  return wavFile(data, rate, 16);
}

describe('Baileys driver: pairing and auth state', () => {
  it('turns a QR event into listener.qr and the qrcode state, connecting into OPENING', async () => {
    const h = harness();
    await h.driver.start();
    h.socket().ev.emit('connection.update', { connection: 'connecting' });
    h.socket().ev.emit('connection.update', { qr: '2@abc,def,ghi' });
    expect(h.qrs).toEqual(['2@abc,def,ghi']);
    expect(h.statuses.map((s) => s.status)).toEqual(['OPENING', 'qrcode']);
  });

  it('reports PAIRING after the scan and CONNECTED with the own number', async () => {
    const h = harness();
    await h.driver.start();
    h.socket().ev.emit('connection.update', { isNewLogin: true, qr: undefined });
    h.socket().ev.emit('connection.update', { connection: 'open' });
    expect(h.statuses).toEqual([{ status: 'PAIRING', detail: undefined }, { status: 'CONNECTED', detail: { number: '5511955554444' } }]);
  });

  it.each([
    ['a store that keeps JSON', () => new MemoryAuthStateStore()],
    ['a store that decodes Buffers', () => new DecodingAuthStateStore()],
  ])('persists creds.update and signal keys, and a second driver reloads them with Buffers intact (%s)', async (_name, makeStore) => {
    const store = makeStore();
    const first = harness(store);
    await first.driver.start();
    const auth1 = first.socket().config.auth;
    if (!auth1) throw new Error('no auth passed to the socket');
    const noisePrivate = Buffer.from(auth1.creds.noiseKey.private);
    first.socket().ev.emit('creds.update', { me: { id: '5511955554444:7@s.whatsapp.net', name: 'Desk' }, registered: true });
    const preKey = { public: Buffer.from('public-key-bytes'), private: Buffer.from('private-key-bytes') };
    await auth1.keys.set({
      'pre-key': { '5': preKey },
      session: { '5511988887777.0': new Uint8Array([1, 2, 3, 250]) },
      'lid-mapping': { '5511988887777': '123456789012345' },
    });
    await first.driver.stop();

    expect(store.rows.has('creds')).toBe(true);
    expect(store.rows.has('pre-key-5')).toBe(true);
    expect(store.rows.has('session-5511988887777.0')).toBe(true);

    const second = harness(store);
    await second.driver.start();
    const auth2 = second.socket().config.auth;
    if (!auth2) throw new Error('no auth passed to the socket');
    expect(auth2.creds.me?.id).toBe('5511955554444:7@s.whatsapp.net');
    expect(auth2.creds.registered).toBe(true);
    expect(Buffer.isBuffer(auth2.creds.noiseKey.private)).toBe(true);
    expect(Buffer.from(auth2.creds.noiseKey.private).equals(noisePrivate)).toBe(true);
    expect(auth2.creds.signedIdentityKey.public).toEqual(auth1.creds.signedIdentityKey.public);
    const keys = await auth2.keys.get('pre-key', ['5', '6']);
    expect(Buffer.from(keys['5'].private).toString()).toBe('private-key-bytes');
    expect(keys['6']).toBeUndefined();
    const sessions = await auth2.keys.get('session', ['5511988887777.0']);
    expect([...sessions['5511988887777.0']]).toEqual([1, 2, 3, 250]);
    expect(await auth2.keys.get('lid-mapping', ['5511988887777'])).toEqual({ '5511988887777': '123456789012345' });
    await auth2.keys.set({ 'pre-key': { '5': null } });
    expect(store.rows.has('pre-key-5')).toBe(false);
  });

  it('starts a new session with fresh credentials', async () => {
    const h = harness();
    await h.driver.start();
    const creds = h.socket().config.auth?.creds;
    expect(creds?.registered).toBe(false);
    expect(creds?.noiseKey.private).toHaveLength(initAuthCreds().noiseKey.private.length);
  });

  it('clears the auth state and reports loggedOut when the phone removes the device', async () => {
    const h = harness();
    await h.driver.start();
    h.socket().ev.emit('creds.update', { registered: true });
    await h.driver.stop();
    await h.driver.start();
    expect(h.store.rows.size).toBeGreaterThan(0);
    h.socket().ev.emit('connection.update', { connection: 'close', lastDisconnect: { error: boomLike(401), date: new Date() } });
    await vi.waitFor(() => expect(h.statuses.at(-1)).toEqual({ status: 'DISCONNECTED', detail: { loggedOut: true, reason: 'loggedOut' } }));
    expect(h.store.rows.size).toBe(0);
  });

  it('reports other closes as DISCONNECTED with the reason and keeps the auth state (no reconnect inside)', async () => {
    const h = harness();
    await h.driver.start();
    h.socket().ev.emit('creds.update', { registered: true, me: { id: '5511955554444:7@s.whatsapp.net' } });
    h.socket().ev.emit('connection.update', { connection: 'close', lastDisconnect: { error: boomLike(515), date: new Date() } });
    await vi.waitFor(() => expect(h.statuses.at(-1)).toEqual({ status: 'DISCONNECTED', detail: { reason: 'restartRequired' } }));
    await vi.waitFor(() => expect(h.store.rows.has('creds')).toBe(true));
    await expect(h.driver.sendText('5511988887777', 'hi')).rejects.toMatchObject({ code: 'ERR_WAPP_NOT_INITIALIZED' });
  });

  it('names an unscanned QR that ran out qrTimeout', async () => {
    const h = harness();
    await h.driver.start();
    h.socket().ev.emit('connection.update', { connection: 'close', lastDisconnect: { error: boomLike(408, 'QR refs attempts ended'), date: new Date() } });
    await vi.waitFor(() => expect(h.statuses.at(-1)).toEqual({ status: 'DISCONNECTED', detail: { reason: 'qrTimeout' } }));
    await h.driver.start();
    h.socket().ev.emit('connection.update', { connection: 'close', lastDisconnect: { error: boomLike(408, 'Connection was lost'), date: new Date() } });
    await vi.waitFor(() => expect(h.statuses.at(-1)).toEqual({ status: 'DISCONNECTED', detail: { reason: 'timedOut' } }));
  });

  it('logout() logs the device out and clears the state, silently', async () => {
    const h = harness();
    await h.driver.start();
    h.socket().ev.emit('creds.update', { registered: true });
    await h.driver.logout();
    expect(h.socket().logout).toHaveBeenCalled();
    expect(h.store.rows.size).toBe(0);
    expect(h.statuses).toEqual([]);
  });
});

describe('Baileys driver: inbound messages', () => {
  async function deliver(messages: WAMessage[], type: 'notify' | 'append' = 'notify') {
    const h = harness();
    await h.driver.start();
    h.socket().ev.emit('messages.upsert', { messages, type });
    return h;
  }

  it('maps a text reply with its quoted id from a LID-addressed contact', async () => {
    const h = await deliver([
      inbound(
        'TXT1',
        { extendedTextMessage: { text: 'Hello, is this support?', contextInfo: { stanzaId: 'QUOTED9', participant: '5511955554444@s.whatsapp.net' } } },
        { remoteJid: '123456789012345@lid', remoteJidAlt: '5511988887777@s.whatsapp.net' },
      ),
    ]);
    await vi.waitFor(() => expect(h.messages).toHaveLength(1));
    expect(h.messages[0]).toMatchObject({
      id: 'TXT1',
      fromMe: false,
      chatId: '5511988887777',
      chatName: 'Maria',
      isGroup: false,
      kind: 'text',
      body: 'Hello, is this support?',
      quotedId: 'QUOTED9',
      timestamp: new Date(1_763_700_123_000),
    });
    expect(h.messages[0].participant).toBeUndefined();
  });

  it('maps an image with caption and downloads its bytes lazily', async () => {
    const h = await deliver([inbound('IMG1', { imageMessage: { caption: 'my receipt', mimetype: 'image/jpeg', url: 'https://mmg.whatsapp.net/x' } })]);
    await vi.waitFor(() => expect(h.messages).toHaveLength(1));
    const m = h.messages[0];
    expect(m).toMatchObject({ kind: 'image', body: 'my receipt', media: { mimetype: 'image/jpeg' } });
    expect((await m.media?.download())?.toString()).toBe('bytes of IMG1');
  });

  it('maps a voice note (ptt) and a plain audio file', async () => {
    const h = await deliver([
      inbound('AUD1', { audioMessage: { mimetype: 'audio/ogg; codecs=opus', ptt: true, seconds: 3 } }),
      inbound('AUD2', { audioMessage: { mimetype: 'audio/mpeg', ptt: false } }),
    ]);
    await vi.waitFor(() => expect(h.messages).toHaveLength(2));
    expect(h.messages[0]).toMatchObject({ kind: 'audio', body: '', media: { mimetype: 'audio/ogg; codecs=opus', ptt: true, seconds: 3 } });
    expect(h.messages[1]).toMatchObject({ kind: 'audio', media: { mimetype: 'audio/mpeg', ptt: false } });
  });

  it('maps a location as "lat,lng|description"', async () => {
    const h = await deliver([
      inbound('LOC1', { locationMessage: { degreesLatitude: -23.5505, degreesLongitude: -46.6333, name: 'Head office', address: 'Av. Paulista, 1000' } }),
    ]);
    await vi.waitFor(() => expect(h.messages).toHaveLength(1));
    expect(h.messages[0]).toMatchObject({
      kind: 'location',
      body: '-23.5505,-46.6333|Head office - Av. Paulista, 1000',
      location: { latitude: -23.5505, longitude: -46.6333, description: 'Head office - Av. Paulista, 1000' },
    });
  });

  it('maps a contact card with its display name, vcard and WhatsApp numbers', async () => {
    const vcard = 'BEGIN:VCARD\nVERSION:3.0\nFN:João Silva\nTEL;type=CELL;type=VOICE;waid=5521977776666:+55 21 97777-6666\nEND:VCARD';
    const h = await deliver([inbound('VC1', { contactMessage: { displayName: 'João Silva', vcard } })]);
    await vi.waitFor(() => expect(h.messages).toHaveLength(1));
    expect(h.messages[0]).toMatchObject({
      kind: 'vcard',
      body: vcard,
      vcard: { displayName: 'João Silva', vcard, numbers: ['5521977776666'] },
    });
  });

  it('maps a group message with its participant and the group subject', async () => {
    const h = await deliver([
      inbound(
        'GRP1',
        { conversation: 'hi all' },
        { remoteJid: '120363000000000009@g.us', participant: '5511933332222:4@s.whatsapp.net' },
        { pushName: 'Carlos' },
      ),
    ]);
    await vi.waitFor(() => expect(h.messages).toHaveLength(1));
    expect(h.messages[0]).toMatchObject({
      chatId: '120363000000000009',
      chatName: 'Support team',
      isGroup: true,
      participant: { number: '5511933332222', name: 'Carlos' },
      kind: 'text',
      body: 'hi all',
    });
  });

  it('maps video, document, sticker and view-once/ephemeral wrappers', async () => {
    const h = await deliver([
      inbound('VID1', { ephemeralMessage: { message: { videoMessage: { caption: 'look', mimetype: 'video/mp4' } } } }),
      inbound('DOC1', { documentWithCaptionMessage: { message: { documentMessage: { fileName: 'invoice.pdf', mimetype: 'application/pdf', caption: 'Invoice' } } } }),
      inbound('STK1', { stickerMessage: { mimetype: 'image/webp' } }),
    ]);
    await vi.waitFor(() => expect(h.messages).toHaveLength(3));
    expect(h.messages[0]).toMatchObject({ kind: 'video', body: 'look', media: { mimetype: 'video/mp4' } });
    expect(h.messages[1]).toMatchObject({ kind: 'document', body: 'Invoice', media: { mimetype: 'application/pdf', filename: 'invoice.pdf' } });
    expect(h.messages[2]).toMatchObject({ kind: 'sticker', media: { mimetype: 'image/webp' } });
  });

  it('skips status broadcasts, protocol messages and removed reactions; keeps own messages from the phone', async () => {
    const h = await deliver(
      [
        inbound('ST1', { conversation: 'my status' }, { remoteJid: 'status@broadcast', participant: '5511988887777@s.whatsapp.net' }),
        inbound('PR1', { protocolMessage: { type: proto.Message.ProtocolMessage.Type.REVOKE, key: { id: 'X' } } }),
        inbound('RE0', { reactionMessage: { key: { id: 'TXT1' }, text: '' } }),
        inbound('ME1', { conversation: 'typed on the phone' }, { fromMe: true }),
      ],
      'append',
    );
    await vi.waitFor(() => expect(h.messages).toHaveLength(1));
    expect(h.messages[0]).toMatchObject({ id: 'ME1', fromMe: true, chatId: '5511988887777', chatName: undefined });
  });

  it('maps a reaction as the Cloud API does: its emoji, replying to the message it reacts to', async () => {
    const h = await deliver([inbound('RE1', { reactionMessage: { key: { id: 'TXT1' }, text: '👍' } })], 'notify');
    await vi.waitFor(() => expect(h.messages).toHaveLength(1));
    expect(h.messages[0]).toMatchObject({ id: 'RE1', kind: 'text', body: '👍', quotedId: 'TXT1', fromMe: false });
  });
});

describe('Baileys driver: a message is handled once stored', () => {
  it('waits for each message to be stored before the next, and tries a failed store again', async () => {
    const h = harness(undefined, { handOverRetryMs: [10, 10] });
    let failures = 1;
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    h.storeMessage = async (m) => {
      if (m.id === 'A1') await gate;
      if (m.id === 'B1' && failures-- > 0) throw new Error('database away');
      return 'stored';
    };
    await h.driver.start();
    h.socket().ev.emit('messages.upsert', { messages: [inbound('A1', { conversation: 'first' })], type: 'notify' });
    h.socket().ev.emit('messages.upsert', { messages: [inbound('B1', { conversation: 'second' })], type: 'notify' });
    await vi.waitFor(() => expect(h.messages.map((m) => m.id)).toEqual(['A1']));
    await new Promise((r) => setTimeout(r, 30));
    expect(h.messages.map((m) => m.id)).toEqual(['A1']); // B1 waits until A1 is stored
    release();
    await vi.waitFor(() => expect(h.messages.map((m) => m.id)).toEqual(['A1', 'B1', 'B1'])); // B1 failed once, then stored
  });

  it('gives up on a message when the connection no longer runs here, and goes on with the next', async () => {
    const h = harness(undefined, { handOverRetryMs: [10, 10, 10] });
    h.storeMessage = async (m) => {
      if (m.id === 'GONE') throw new AppError('ERR_WAPP_NOT_INITIALIZED');
      return 'stored';
    };
    await h.driver.start();
    h.socket().ev.emit('messages.upsert', { messages: [inbound('GONE', { conversation: 'x' }), inbound('NEXT', { conversation: 'y' })], type: 'notify' });
    await vi.waitFor(() => expect(h.messages.map((m) => m.id)).toEqual(['GONE', 'NEXT']));
  });
});

describe('Baileys driver: acks and history', () => {
  it('maps message status updates of sent messages to acks 0..4', async () => {
    const h = harness();
    await h.driver.start();
    const S = proto.WebMessageInfo.Status;
    expect([S.ERROR, S.PENDING, S.SERVER_ACK, S.DELIVERY_ACK, S.READ, S.PLAYED]).toEqual([0, 1, 2, 3, 4, 5]);
    const key = { remoteJid: '5511988887777@s.whatsapp.net', fromMe: true, id: 'OUT1' };
    h.socket().ev.emit('messages.update', [
      { key, update: { status: S.PENDING } },
      { key, update: { status: S.SERVER_ACK } },
      { key, update: { status: S.DELIVERY_ACK } },
      { key, update: { status: S.READ } },
      { key, update: { status: S.PLAYED } },
      { key, update: { status: S.ERROR } },
      { key: { ...key, fromMe: false, id: 'IN1' }, update: { status: S.READ } },
      { key: { remoteJid: '120363000000000009@g.us', fromMe: true, id: 'OUT2' }, update: { status: S.DELIVERY_ACK } },
    ]);
    expect(h.acks).toEqual([
      { id: 'OUT1', chatId: '5511988887777', ack: 0 },
      { id: 'OUT1', chatId: '5511988887777', ack: 1 },
      { id: 'OUT1', chatId: '5511988887777', ack: 2 },
      { id: 'OUT1', chatId: '5511988887777', ack: 3 },
      { id: 'OUT1', chatId: '5511988887777', ack: 4 },
      { id: 'OUT2', chatId: '120363000000000009', ack: 2 },
    ]);
  });

  it('hands history sync to listener.history and keeps it for fetchHistory', async () => {
    const h = harness();
    await h.driver.start();
    h.socket().ev.emit('messaging-history.set', {
      chats: [{ id: '120363000000000009@g.us', name: 'Old group' }],
      contacts: [],
      messages: [
        inbound('H2', { conversation: 'second' }, {}, { messageTimestamp: 1_700_000_200 }),
        inbound('H1', { conversation: 'first' }, {}, { messageTimestamp: 1_700_000_100 }),
        inbound('H3', { conversation: 'in group' }, { remoteJid: '120363000000000009@g.us', participant: '5511933332222@s.whatsapp.net' }, { messageTimestamp: 1_700_000_300 }),
      ],
      isLatest: true,
    });
    await vi.waitFor(() => expect(h.histories).toHaveLength(1));
    expect(h.histories[0].map((m) => m.id)).toEqual(['H1', 'H2', 'H3']);
    expect(h.histories[0][2]).toMatchObject({ chatName: 'Old group', isGroup: true });
    expect(h.socket().groupMetadata).not.toHaveBeenCalled();
    expect((await h.driver.fetchHistory(2)).map((m) => m.id)).toEqual(['H2', 'H3']);
    expect(h.messages).toEqual([]);
  });
});

describe('Baileys driver: sending', () => {
  async function connected(options: BaileysDriverOptions = {}) {
    const h = harness(new MemoryAuthStateStore(), options);
    await h.driver.start();
    h.socket().ev.emit('connection.update', { connection: 'open' });
    return h;
  }

  it('sends text to the contact JID, quoting a message by a minimal key', async () => {
    const h = await connected();
    const sent = await h.driver.sendText('5511988887777', 'Hello Maria', { quoted: { id: 'TXT1', fromMe: false, body: 'Hello?' } });
    expect(sent.timestamp).toEqual(new Date(1_763_700_000_000));
    expect(sent.id).toMatch(/^[0-9A-F]{10,}$/);
    expect(h.socket().sent[0]).toEqual({
      jid: '5511988887777@s.whatsapp.net',
      content: { text: 'Hello Maria' },
      options: {
        messageId: sent.id,
        quoted: { key: { remoteJid: '5511988887777@s.whatsapp.net', id: 'TXT1', fromMe: false }, message: { conversation: 'Hello?' } },
      },
    });
    // Baileys' echo of our own send is not an inbound message.
    await new Promise((r) => setTimeout(r, 20));
    expect(h.messages).toEqual([]);
  });

  it('sends to a group by its id', async () => {
    const h = await connected();
    await h.driver.sendText('120363000000000009', 'hi group');
    expect(h.socket().sent[0].jid).toBe('120363000000000009@g.us');
  });

  it('sends image, video and document with caption and file name', async () => {
    const h = await connected();
    const data = Buffer.from('media');
    await h.driver.sendMedia('5511988887777', { kind: 'image', data, mimetype: 'image/png', caption: 'chart' });
    await h.driver.sendMedia('5511988887777', { kind: 'video', data, mimetype: 'video/mp4', caption: 'clip' });
    await h.driver.sendMedia('5511988887777', { kind: 'document', data, mimetype: 'application/pdf', filename: 'invoice.pdf', caption: 'Invoice' });
    expect(h.socket().sent.map((s) => s.content)).toEqual([
      { image: data, mimetype: 'image/png', caption: 'chart' },
      { video: data, mimetype: 'video/mp4', caption: 'clip' },
      { document: data, mimetype: 'application/pdf', fileName: 'invoice.pdf', caption: 'Invoice' },
    ]);
  });

  it.skipIf(!ffmpegWorks())('sends audio as an ogg/opus voice note converted by ffmpeg', async () => {
    const h = await connected();
    await h.driver.sendMedia('5511988887777', { kind: 'audio', data: sineWav(), mimetype: 'audio/wav' });
    const content = h.socket().sent[0].content;
    expect(content).toMatchObject({ mimetype: 'audio/ogg; codecs=opus', ptt: true });
    const audio = 'audio' in content ? content.audio : null;
    if (!Buffer.isBuffer(audio)) throw new Error('audio is not a buffer');
    expect(audio.subarray(0, 4).toString()).toBe('OggS');
    expect(audio.includes(Buffer.from('OpusHead'))).toBe(true);
  });

  it.skipIf(!ffmpegWorks())('rejects audio ffmpeg cannot read', async () => {
    await expect(toVoiceNote(Buffer.from('not audio at all'))).rejects.toThrow(/ffmpeg exited/);
  });

  it('deletes a message for everyone', async () => {
    const h = await connected();
    await h.driver.deleteMessage('5511988887777', 'SENT0', true);
    expect(h.socket().sent[0]).toMatchObject({
      jid: '5511988887777@s.whatsapp.net',
      content: { delete: { remoteJid: '5511988887777@s.whatsapp.net', id: 'SENT0', fromMe: true } },
    });
  });

  it('reacts to a message by its key (react), in a group with its participant; an empty text removes the reaction', async () => {
    const h = await connected();
    const sent = await h.driver.sendReaction('5511988887777', { id: 'IN1', fromMe: false }, '👍');
    expect(sent.id).toMatch(/^[0-9A-F]{10,}$/);
    await h.driver.sendReaction('120363000000000009', { id: 'G1', fromMe: false, participant: '5511977776666' }, '❤️');
    await h.driver.sendReaction('5511988887777', { id: 'IN1', fromMe: false }, '');
    expect(h.socket().sent.map((s) => [s.jid, s.content])).toEqual([
      ['5511988887777@s.whatsapp.net', { react: { text: '👍', key: { remoteJid: '5511988887777@s.whatsapp.net', id: 'IN1', fromMe: false } } }],
      ['120363000000000009@g.us', { react: { text: '❤️', key: { remoteJid: '120363000000000009@g.us', id: 'G1', fromMe: false, participant: '5511977776666@s.whatsapp.net' } } }],
      ['5511988887777@s.whatsapp.net', { react: { text: '', key: { remoteJid: '5511988887777@s.whatsapp.net', id: 'IN1', fromMe: false } } }],
    ]);
  });

  it('checks numbers, and answers null for a missing profile picture', async () => {
    const h = await connected();
    expect(await h.driver.checkNumber('+55 (11) 98888-7777')).toEqual({ exists: true, number: '5511988887777' });
    expect(await h.driver.checkNumber('5511988880000')).toEqual({ exists: false });
    expect(await h.driver.profilePictureUrl('5511988887777')).toBeNull();
  });

  it('runs group operations against the group JID', async () => {
    const h = await connected();
    const created = await h.driver.createGroup('New team', ['5511900000001', '5511900000002']);
    expect(h.socket().groupCreate).toHaveBeenCalledWith('New team', ['5511900000001@s.whatsapp.net', '5511900000002@s.whatsapp.net']);
    expect(created).toEqual({
      id: '120363000000000001',
      subject: 'New team',
      description: 'About',
      participants: [
        { number: '5511900000001', isAdmin: true },
        { number: '5511900000002', isAdmin: false },
      ],
      announce: false,
    });
    expect((await h.driver.listGroups()).map((g) => g.subject)).toEqual(['Sales']);
    await h.driver.updateGroupSubject('120363000000000001', 'Renamed');
    await h.driver.updateGroupDescription('120363000000000001', 'Desc');
    await h.driver.setGroupAnnounce('120363000000000001', true);
    await h.driver.setGroupAnnounce('120363000000000001', false);
    expect(h.socket().groupUpdateSubject).toHaveBeenCalledWith('120363000000000001@g.us', 'Renamed');
    expect(h.socket().groupUpdateDescription).toHaveBeenCalledWith('120363000000000001@g.us', 'Desc');
    expect(h.socket().groupSettingUpdate.mock.calls).toEqual([
      ['120363000000000001@g.us', 'announcement'],
      ['120363000000000001@g.us', 'not_announcement'],
    ]);
  });
});

describe('Baileys driver: calls (issue 15)', () => {
  async function connected() {
    const h = harness(new MemoryAuthStateStore());
    await h.driver.start();
    h.socket().ev.emit('connection.update', { connection: 'open' });
    return h;
  }
  const offer = (id: string, extra: Record<string, unknown> = {}) => ({
    chatId: '5511988887777@s.whatsapp.net',
    from: '5511988887777@s.whatsapp.net',
    id,
    date: new Date(1_763_700_000_000),
    status: 'offer' as const,
    offline: false,
    ...extra,
  });

  it('asks the desk about each offered call and rejects it on the network when told to', async () => {
    const h = await connected();
    h.rejectCalls = true;
    h.socket().ev.emit('call', [offer('CALL1', { isVideo: true })]);
    await vi.waitFor(() => expect(h.socket().rejectCall).toHaveBeenCalledWith('CALL1', '5511988887777@s.whatsapp.net'));
    expect(h.calls).toEqual([{ id: 'CALL1', from: '5511988887777', video: true }]);
  });

  it('lets the call ring when the desk accepts calls; ignores ringing, ended, offline and group call updates', async () => {
    const h = await connected();
    h.socket().ev.emit('call', [offer('CALL2')]);
    await vi.waitFor(() => expect(h.calls).toHaveLength(1));
    h.rejectCalls = true;
    h.socket().ev.emit('call', [
      offer('CALL2', { status: 'ringing' }),
      offer('CALL2', { status: 'terminate' }),
      offer('CALL3', { offline: true }),
      offer('CALL4', { isGroup: true, groupJid: '120363000000000001@g.us' }),
    ]);
    await new Promise((r) => setTimeout(r, 30));
    expect(h.calls.map((c) => c.id)).toEqual(['CALL2']);
    expect(h.socket().rejectCall).not.toHaveBeenCalled();
  });
});
