import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createReadStream, type ReadStream } from 'node:fs';
import { mkdir, rm, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { MIME_BY_EXTENSION } from '../../storage/media-storage.js';

export interface OutboxFileLimits {
  /** Files kept per device; older ones are deleted. */
  maxFiles: number;
  /** Bytes kept per device (the newest file is always kept). */
  maxBytes: number;
}

export const DEFAULT_OUTBOX_FILE_LIMITS: OutboxFileLimits = { maxFiles: 200, maxBytes: 100 * 1024 * 1024 };

const SAFE_NAME = /^[0-9a-f-]{36}\.[a-z0-9]{1,8}$/;

function extensionOf(mimetype: string): string {
  const type = mimetype.split(';')[0]!.trim().toLowerCase();
  return Object.entries(MIME_BY_EXTENSION).find(([, mime]) => mime === type)?.[0] ?? 'bin';
}

/**
 * The files the simulated devices sent, on disk under DATA_DIR/simulator/<connection id>/ instead of in
 * memory, a bounded number per device. They are served to the /simulator page through signed URLs (an
 * <img> cannot send the bearer token), like stored media.
 */
export class SimulatorOutboxFiles {
  private readonly dir: string;
  /** Per device, the files kept, oldest first. */
  private readonly kept = new Map<number, { name: string; size: number }[]>();
  private readonly prepared = new Map<number, Promise<void>>();

  constructor(
    dataDir: string,
    private readonly secret: string,
    private readonly limits: OutboxFileLimits = DEFAULT_OUTBOX_FILE_LIMITS,
  ) {
    this.dir = path.join(dataDir, 'simulator');
  }

  /** Writes a sent file; answers its name and the names of the older files dropped to stay within the limits. */
  async save(whatsappId: number, data: Buffer, mimetype: string): Promise<{ name: string; dropped: string[] }> {
    await this.prepare(whatsappId);
    const folder = this.folder(whatsappId);
    const name = `${randomUUID()}.${extensionOf(mimetype)}`;
    await writeFile(path.join(folder, name), data);
    let files = this.kept.get(whatsappId);
    if (!files) {
      files = [];
      this.kept.set(whatsappId, files);
    }
    files.push({ name, size: data.length });
    const dropped: string[] = [];
    let bytes = files.reduce((sum, f) => sum + f.size, 0);
    while (files.length > 1 && (files.length > this.limits.maxFiles || bytes > this.limits.maxBytes)) {
      const oldest = files.shift()!;
      bytes -= oldest.size;
      dropped.push(oldest.name);
    }
    await Promise.all(dropped.map(async (old) => unlink(path.join(folder, old)).catch(() => undefined)));
    return { name, dropped };
  }

  /** The URL the /simulator page loads a sent file from. */
  url(whatsappId: number, name: string): string {
    return `/api/simulator/${whatsappId}/files/${name}?sig=${this.sign(whatsappId, name)}`;
  }

  verify(whatsappId: number, name: string, signature: string): boolean {
    if (!SAFE_NAME.test(name)) return false;
    const expected = Buffer.from(this.sign(whatsappId, name));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  async open(whatsappId: number, name: string): Promise<{ stream: ReadStream; size: number; mimetype: string } | null> {
    if (!SAFE_NAME.test(name)) return null;
    const file = path.join(this.folder(whatsappId), name);
    try {
      const info = await stat(file);
      const ext = name.split('.').pop() ?? '';
      return { stream: createReadStream(file), size: info.size, mimetype: MIME_BY_EXTENSION[ext] ?? 'application/octet-stream' };
    } catch {
      return null;
    }
  }

  /** Files currently kept for a device (tests, diagnostics). */
  count(whatsappId: number): number {
    return this.kept.get(whatsappId)?.length ?? 0;
  }

  /** Deletes a device's files (its connection was deleted). */
  async forget(whatsappId: number): Promise<void> {
    this.kept.delete(whatsappId);
    this.prepared.delete(whatsappId);
    await rm(this.folder(whatsappId), { recursive: true, force: true });
  }

  /** The device's folder, emptied the first time this process uses it: files of an earlier run belong to no outbox entry. */
  private prepare(whatsappId: number): Promise<void> {
    let ready = this.prepared.get(whatsappId);
    if (!ready) {
      const folder = this.folder(whatsappId);
      ready = rm(folder, { recursive: true, force: true }).then(async () => {
        await mkdir(folder, { recursive: true });
      });
      this.prepared.set(whatsappId, ready);
      ready.catch(() => this.prepared.delete(whatsappId));
    }
    return ready;
  }

  private folder(whatsappId: number): string {
    return path.join(this.dir, String(Math.trunc(whatsappId)));
  }

  private sign(whatsappId: number, name: string): string {
    return createHmac('sha256', this.secret).update(`simulator-outbox:${whatsappId}/${name}`).digest('base64url').slice(0, 32);
  }
}
