import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { EMBEDDED_SHARED_BUFFERS, openDatabase, rowsOf } from './client.js';

async function sharedBuffersOf(sharedBuffers: string): Promise<string> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'wadesk-pglite-buffers-'));
  const handle = await openDatabase({ dataDir: dir, sharedBuffers });
  try {
    const [row] = rowsOf<{ shared_buffers: string }>(await handle.db.execute(sql`show shared_buffers`));
    return row!.shared_buffers;
  } finally {
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the embedded database keeps its buffers small', () => {
  it('runs with the shared buffers it is given (PGLITE_SHARED_BUFFERS), by default ' + EMBEDDED_SHARED_BUFFERS, async () => {
    expect(EMBEDDED_SHARED_BUFFERS).toBe('32MB');
    expect(await sharedBuffersOf('16MB')).toBe('16MB');
  }, 60_000);

  it('refuses a PGLITE_SHARED_BUFFERS that is not a size, naming the variable', () => {
    const base = { JWT_SECRET: 'a'.repeat(32), JWT_REFRESH_SECRET: 'b'.repeat(32), DATA_DIR: os.tmpdir() };
    expect(loadConfig({ ...base, PGLITE_SHARED_BUFFERS: '64MB' }).pgliteSharedBuffers).toBe('64MB');
    expect(loadConfig(base).pgliteSharedBuffers).toBeUndefined();
    for (const bad of ['64', '64 MB', '1TB', '32MB; drop table users', '-1MB']) {
      expect(() => loadConfig({ ...base, PGLITE_SHARED_BUFFERS: bad })).toThrow(/PGLITE_SHARED_BUFFERS/);
    }
  });
});
