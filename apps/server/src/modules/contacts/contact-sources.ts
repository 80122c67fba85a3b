/**
 * What the contacts module needs from a WhatsApp connection, behind small interfaces so the module does not
 * depend on the session manager (channels/) and tests can inject fakes.
 */

/** Whether a number is on WhatsApp, asked through the default connection. */
export interface NumberChecker {
  /**
   * `exists` tells whether the number is on the network; `number` is its canonical form when known.
   * `null` means no default connection can check right now: the number is then accepted unchecked.
   */
  checkNumber(number: string): Promise<{ exists: boolean; number?: string } | null>;
}

export interface DeviceContact {
  number: string;
  name: string;
}

/** The contacts stored on the default connection's device (POST /contacts/import). */
export interface DeviceContactsSource {
  /** `null` means there is no default connection that can list its contacts right now. */
  listContacts(): Promise<DeviceContact[] | null>;
}

/** Until a connection is wired in: numbers are not checked. */
export const uncheckedNumbers: NumberChecker = {
  checkNumber: () => Promise.resolve(null),
};

/** Until a connection is wired in: nothing to import. */
export const noDeviceContacts: DeviceContactsSource = {
  listContacts: () => Promise.resolve(null),
};
