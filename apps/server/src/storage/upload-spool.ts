import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** Bounds of one multipart upload: every file goes to disk, so memory stays flat whatever the size. */
export interface UploadLimits {
  fileBytes: number;
  files: number;
  requestBytes: number;
}

export const UPLOAD_LIMITS: UploadLimits = {
  fileBytes: 64 * 1024 * 1024,
  files: 10,
  requestBytes: 200 * 1024 * 1024,
};

/** Thrown when the files of one request together pass `requestBytes`. */
export class UploadTooLargeError extends Error {
  constructor(readonly limitBytes: number) {
    super(`the upload passes ${Math.round(limitBytes / (1024 * 1024))} MB`);
    this.name = 'UploadTooLargeError';
  }
}

/** Files left behind by a crash are removed once they are this old. */
const STALE_UPLOAD_MS = 24 * 60 * 60 * 1000;

/**
 * Temporary files of uploads in progress, under DATA_DIR/tmp/uploads (the same disk as the media folder, so a
 * finished upload moves into media storage by a rename). One spool per request counts the bytes of all its
 * files; `discard()` removes whatever was not moved away.
 */
export class UploadSpool {
  private total = 0;
  private readonly paths: string[] = [];

  constructor(
    readonly dir: string,
    readonly limits: UploadLimits,
  ) {}

  /** Writes a stream to a new temporary file, counting its bytes against the request's limit. */
  async write(stream: Readable): Promise<{ path: string; size: number }> {
    await mkdir(this.dir, { recursive: true });
    const file = path.join(this.dir, `${randomUUID()}.part`);
    this.paths.push(file);
    let size = 0;
    const limits = this.limits;
    const counter = new Transform({
      transform: (chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) => {
        size += chunk.length;
        this.total += chunk.length;
        if (this.total > limits.requestBytes) done(new UploadTooLargeError(limits.requestBytes));
        else done(null, chunk);
      },
    });
    const out = createWriteStream(file, { flags: 'wx' });
    try {
      await pipeline(stream, counter, out);
    } catch (err) {
      // A pipeline fails as soon as the upload does, possibly while the file is still being opened: wait for
      // the file to be closed, or the caller's `discard()` could run before it exists and leave it behind.
      if (!out.closed) await new Promise((resolve) => out.once('close', resolve));
      throw err;
    }
    return { path: file, size };
  }

  /** Removes the temporary files still here (those not moved into media storage). */
  async discard(): Promise<void> {
    await Promise.all(this.paths.splice(0).map((file) => rm(file, { force: true })));
  }
}

/** Removes temporary upload files older than a day (left by a crash mid-upload). */
export async function sweepStaleUploads(dir: string, now = Date.now()): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const file = path.join(dir, name);
    const info = await stat(file).catch(() => null);
    if (info?.isFile() && now - info.mtimeMs > STALE_UPLOAD_MS) await rm(file, { force: true });
  }
}
