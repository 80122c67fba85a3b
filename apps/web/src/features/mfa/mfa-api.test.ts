import { describe, expect, it } from 'vitest';
import { secretOfUri } from './mfa-api';

describe('secretOfUri', () => {
  it('shows the secret of an otpauth:// URI in groups of four, to type by hand', () => {
    expect(secretOfUri('otpauth://totp/WaDesk:a%40b.c?issuer=WaDesk&secret=NIAASMHUBB7LPMGUOFRXACG7A56RLJBL&period=30')).toBe(
      'NIAA SMHU BB7L PMGU OFRX ACG7 A56R LJBL',
    );
  });

  it('shows nothing for what is no URI', () => {
    expect(secretOfUri('not a uri')).toBe('');
  });
});
