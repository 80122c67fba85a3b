import type { ChannelDriver } from '../../channels/channel-driver.js';
import type { SessionManager } from '../../channels/session-manager.js';
import type { Database } from '../../db/client.js';
import { WhatsappRepository } from '../whatsapp/whatsapp.repository.js';
import type { DeviceContactsSource, NumberChecker } from './contact-sources.js';

/** The driver of the default connection when it is connected; null otherwise. */
async function defaultDriver(db: Database, sessions: SessionManager): Promise<ChannelDriver | null> {
  const connections = await new WhatsappRepository(db).list();
  const connection = connections.find((w) => w.isDefault);
  if (!connection || sessions.status(connection.id) !== 'CONNECTED') return null;
  try {
    return sessions.driver(connection.id);
  } catch {
    return null;
  }
}

/** Checks numbers through the default connection (null while it is not connected). */
export function defaultConnectionNumberChecker(db: Database, sessions: SessionManager): NumberChecker {
  return {
    async checkNumber(number) {
      const driver = await defaultDriver(db, sessions);
      return driver ? driver.checkNumber(number) : null;
    },
  };
}

/** The default connection's address book (null when it is not connected or has none). */
export function defaultConnectionContacts(db: Database, sessions: SessionManager): DeviceContactsSource {
  return {
    async listContacts() {
      const driver = await defaultDriver(db, sessions);
      return driver?.listContacts ? driver.listContacts() : null;
    },
  };
}
