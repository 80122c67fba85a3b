import type { ChannelPorts } from './channels/ports.js';
import type { Database } from './db/client.js';
import { MessagesRepository } from './modules/messages/messages.repository.js';
import { WhatsappRepository } from './modules/whatsapp/whatsapp.repository.js';

/**
 * Part of the composition root: the modules' implementations of what the channel layer needs (channels/ports.ts).
 * Channels never import modules (decision 0034); app.ts hands these in.
 */
export function channelPorts(db: Database): ChannelPorts {
  return { connections: new WhatsappRepository(db), messages: new MessagesRepository(db) };
}
