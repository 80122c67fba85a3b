import { defaultConnectionDriver } from '../../channels/default-connection.js';
import type { SessionManager } from '../../channels/session-manager.js';
import type { Database } from '../../db/client.js';
import { WhatsappRepository } from '../whatsapp/whatsapp.repository.js';
import type { DeviceContactsSource, NumberChecker } from './contact-sources.js';

/** Checks numbers through the default connection (null while it is not connected). */
export function defaultConnectionNumberChecker(db: Database, sessions: SessionManager): NumberChecker {
  return {
    async checkNumber(number) {
      const driver = await defaultConnectionDriver(new WhatsappRepository(db), sessions);
      return driver ? driver.checkNumber(number) : null;
    },
  };
}

/** The default connection's address book (null when it is not connected or has none). */
export function defaultConnectionContacts(db: Database, sessions: SessionManager): DeviceContactsSource {
  return {
    async listContacts() {
      const driver = await defaultConnectionDriver(new WhatsappRepository(db), sessions);
      return driver?.listContacts ? driver.listContacts() : null;
    },
  };
}
