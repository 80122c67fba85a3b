import {
  makeEventBuffer,
  proto,
  type AnyMessageContent,
  type GroupMetadata,
  type MiscMessageGenerationOptions,
  type UserFacingSocketConfig,
  type WAMessage,
} from '@whiskeysockets/baileys';
import { vi } from 'vitest';

/**
 * A fake Baileys socket fed through Baileys' own event emitter: what the Baileys driver's tests and the group
 * actions' Baileys test drive the driver with. Its device is 5511955554444; its groups have a phone-number member
 * (superadmin) and a member addressed by LID with its phone number beside it.
 */

const silentLogger = {
  level: 'silent',
  child: () => silentLogger,
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

export interface SentCall {
  jid: string;
  content: AnyMessageContent;
  options?: MiscMessageGenerationOptions;
}

export function makeFakeSocket(config: UserFacingSocketConfig) {
  const ev = makeEventBuffer(silentLogger);
  const sent: SentCall[] = [];
  let nextId = 1;
  const group = (id: string, subject: string): GroupMetadata => ({
    id,
    subject,
    owner: undefined,
    announce: false,
    desc: 'About',
    participants: [
      { id: '5511900000001@s.whatsapp.net', admin: 'superadmin' },
      { id: '99887766554433@lid', phoneNumber: '5511900000002@s.whatsapp.net', admin: null },
    ],
  });
  const socket = {
    ev,
    config,
    sent,
    user: { id: '5511955554444:7@s.whatsapp.net', name: 'Desk' },
    sendMessage: vi.fn(async (jid: string, content: AnyMessageContent, options?: MiscMessageGenerationOptions) => {
      sent.push({ jid, content, options });
      const message: WAMessage = {
        key: { remoteJid: jid, fromMe: true, id: options?.messageId ?? `SENT${nextId++}` },
        message: 'text' in content ? { conversation: content.text } : {},
        messageTimestamp: 1_763_700_000,
        status: proto.WebMessageInfo.Status.PENDING,
      };
      // Baileys echoes its own sends as an 'append' upsert.
      ev.emit('messages.upsert', { messages: [message], type: 'append' });
      return message;
    }),
    onWhatsApp: vi.fn(async (...numbers: string[]) =>
      numbers.map((n) => ({ jid: `${n}@s.whatsapp.net`, exists: !n.endsWith('0000') })),
    ),
    profilePictureUrl: vi.fn(async (): Promise<string | undefined> => {
      throw new Error('item-not-found');
    }),
    groupCreate: vi.fn(async (subject: string) => group('120363000000000001@g.us', subject)),
    groupMetadata: vi.fn(async (jid: string) => group(jid, 'Support team')),
    groupFetchAllParticipating: vi.fn(async () => ({ '120363000000000002@g.us': group('120363000000000002@g.us', 'Sales') })),
    groupUpdateSubject: vi.fn(async () => undefined),
    groupUpdateDescription: vi.fn(async () => undefined),
    groupSettingUpdate: vi.fn(async () => undefined),
    updateMediaMessage: vi.fn(async (m: WAMessage) => m),
    fetchMessageHistory: vi.fn(async () => 'HISTORY-REQUEST-1'),
    rejectCall: vi.fn(async (_callId: string, _callFrom: string) => undefined),
    logout: vi.fn(async () => {
      ev.emit('connection.update', { connection: 'close', lastDisconnect: { error: boomLike(401), date: new Date() } });
    }),
    end: vi.fn(async () => undefined),
  };
  return socket;
}

export type FakeSocket = ReturnType<typeof makeFakeSocket>;

/** The shape of the Boom errors Baileys closes connections with. */
export function boomLike(statusCode: number, message = `closed ${statusCode}`): Error {
  return Object.assign(new Error(message), { isBoom: true, output: { statusCode } });
}

