import type { ChannelDriverFactory } from '../channel-driver.js';
import { BaileysDriver, type BaileysDriverOptions } from './baileys-driver.js';

export { BaileysDriver, type BaileysDriverOptions, type BaileysSocket, type BaileysSocketFactory } from './baileys-driver.js';

/** Real WhatsApp through Baileys, with its auth state in the connection's AuthStateStore. */
export const createBaileysDriver: ChannelDriverFactory = (context) => new BaileysDriver(context);

/** The same with injected parts (a fake socket in tests). */
export function baileysDriverFactory(options: BaileysDriverOptions): ChannelDriverFactory {
  return (context) => new BaileysDriver(context, options);
}
