import { describe, expect, it } from 'vitest';

describe('no-eval', () => {
  it('makes zod jitless without importing it (zod loaded after it sees the setting)', async () => {
    await import('./no-eval');
    const { config, z } = await import('zod');
    expect(config().jitless).toBe(true);
    // A parse works without compiling code.
    expect(z.object({ a: z.string() }).parse({ a: 'x' })).toEqual({ a: 'x' });
  });
});
