import { describe, expect, it } from 'vitest';
import { protocolNumber } from './protocol-number.js';

// Issue 33 item 22: the protocol number carries the ticket id after the seconds (decision 0030).
describe('protocolNumber', () => {
  const at = new Date('2026-11-27T04:00:00.900Z');

  it('is the time in seconds followed by the ticket id, at least four digits', () => {
    expect(protocolNumber(at, 7)).toBe('17957520000007');
    expect(protocolNumber(at, 123456)).toBe('1795752000123456');
  });

  it('differs for every two tickets resolved in the same second, however far apart their ids', () => {
    const ids = [1, 2, 10, 9999, 10000, 10001, 20001, 123456];
    const numbers = ids.map((id) => protocolNumber(at, id));
    expect(new Set(numbers).size).toBe(ids.length);
    for (const [i, id] of ids.entries()) expect(Number(numbers[i]!.slice(10))).toBe(id);
  });
});
