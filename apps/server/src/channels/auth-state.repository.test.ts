import { describe, expect, it } from 'vitest';
import { decodeAuthValue, encodeAuthValue } from './auth-state.repository.js';

describe('auth state encoding', () => {
  it('round-trips Buffers and byte arrays nested in objects and arrays through JSON', () => {
    const value = {
      noiseKey: { private: Buffer.from([1, 2, 3, 255]), public: new Uint8Array([9, 8]) },
      list: [Buffer.from('hello'), 'text', 3, null],
      flag: true,
    };
    const stored = JSON.parse(JSON.stringify(encodeAuthValue(value))) as unknown;
    expect(stored).toMatchObject({ noiseKey: { private: { type: 'Buffer', data: 'AQID/w==' } } });
    const back = decodeAuthValue(stored) as typeof value;
    expect(Buffer.isBuffer(back.noiseKey.private)).toBe(true);
    expect([...back.noiseKey.private]).toEqual([1, 2, 3, 255]);
    expect([...(back.noiseKey.public as Uint8Array)]).toEqual([9, 8]);
    expect((back.list[0] as Buffer).toString()).toBe('hello');
    expect(back.list.slice(1)).toEqual(['text', 3, null]);
    expect(back.flag).toBe(true);
  });

  it("reads Node's own Buffer JSON form", () => {
    const back = decodeAuthValue(JSON.parse(JSON.stringify({ k: Buffer.from([7, 7]) }))) as { k: Buffer };
    expect([...back.k]).toEqual([7, 7]);
  });
});
