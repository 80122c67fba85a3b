import { afterEach, describe, expect, it } from 'vitest';
import { serverTimeZone } from './tickets.service.js';

const startedWith = process.env.TZ;

afterEach(() => {
  if (startedWith === undefined) delete process.env.TZ;
  else process.env.TZ = startedWith;
});

describe('serverTimeZone', () => {
  it('is the zone of TZ, read again when TZ changes while the server runs', () => {
    process.env.TZ = 'Asia/Tokyo';
    expect(serverTimeZone()).toBe('Asia/Tokyo');
    expect(serverTimeZone()).toBe('Asia/Tokyo');
    process.env.TZ = 'America/Sao_Paulo';
    expect(serverTimeZone()).toBe('America/Sao_Paulo');
    expect(new Intl.DateTimeFormat().resolvedOptions().timeZone).toBe('America/Sao_Paulo');
  });
});
