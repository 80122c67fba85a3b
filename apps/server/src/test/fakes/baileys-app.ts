import type { WhatsappDto } from '@wadesk/contracts';
import { BaileysDriver, type BaileysDriverOptions, type BaileysSocket } from '../../channels/baileys/baileys-driver.js';
import type { ChannelDriverFactory } from '../../channels/channel-driver.js';
import { eventually } from '../session-helpers.js';
import type { TestApp } from '../test-app.js';
import { makeFakeSocket, type FakeSocket } from './baileys-socket.js';

/**
 * The real app's Baileys driver on fake sockets, for a test file: `drivers` goes into the app's channels, `connect`
 * adds a Baileys connection and opens its socket, `socket()` is the newest socket the driver made.
 */
export function fakeBaileys(options: Omit<BaileysDriverOptions, 'socketFactory'> = {}) {
  const sockets: FakeSocket[] = [];
  const factory: ChannelDriverFactory = (context) =>
    new BaileysDriver(context, {
      ...options,
      socketFactory: (config) => {
        const socket = makeFakeSocket(config);
        sockets.push(socket);
        return socket as unknown as BaileysSocket;
      },
    });
  const socket = (): FakeSocket => sockets.at(-1)!;
  return {
    sockets,
    socket,
    drivers: new Map([['baileys' as const, factory]]),
    /** A Baileys connection added by the admin, CONNECTED once its socket says it is open. */
    async connect(t: TestApp, name = 'WhatsApp'): Promise<WhatsappDto> {
      const before = sockets.length;
      const res = await t.call<WhatsappDto>('POST', '/api/whatsapp', { token: await t.adminToken(), body: { name, channel: 'baileys' } });
      if (res.status !== 201) throw new Error(`create connection: ${res.status} ${JSON.stringify(res.body)}`);
      await eventually(async () => sockets.length > before, 5000, 'a Baileys socket');
      socket().ev.emit('connection.update', { connection: 'open' });
      await eventually(async () => t.app.services.sessions.status(res.body.id) === 'CONNECTED', 5000, 'CONNECTED');
      return res.body;
    },
  };
}
