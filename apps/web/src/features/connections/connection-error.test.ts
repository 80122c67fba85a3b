import { CONNECTION_ERROR_CODES } from '@wadesk/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import i18n from '../../i18n';
import { connectionErrorText } from './connection-error';

const at = '2025-01-05T09:07:00.000Z';

describe('connectionErrorText', () => {
  beforeAll(async () => {
    await i18n.changeLanguage('en');
  });

  it('says why a connection failed, with the network reason when there is one', () => {
    expect(connectionErrorText({ code: 'logged_out', at }, 'qrcode', i18n.t)).toBe(
      'The phone logged this device out — pair again with a new QR code',
    );
    expect(connectionErrorText({ code: 'connection_lost', detail: 'connectionClosed', at }, 'DISCONNECTED', i18n.t)).toBe(
      'The connection to WhatsApp was lost — reconnecting automatically (connectionClosed)',
    );
  });

  it('says nothing without a failure, or once connected', () => {
    expect(connectionErrorText(null, 'DISCONNECTED', i18n.t)).toBeNull();
    expect(connectionErrorText(undefined, 'OPENING', i18n.t)).toBeNull();
    expect(connectionErrorText({ code: 'qr_timeout', at }, 'CONNECTED', i18n.t)).toBeNull();
  });

  it('is translated for every failure code in Portuguese and Spanish', async () => {
    for (const lng of ['pt', 'es']) {
      await i18n.changeLanguage(lng);
      for (const code of CONNECTION_ERROR_CODES) {
        const text = connectionErrorText({ code, at }, 'DISCONNECTED', i18n.t);
        expect(text).not.toContain('connections.lastError');
      }
    }
    await i18n.changeLanguage('en');
  });
});
