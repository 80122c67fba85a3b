import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { copyFile, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { sweepStaleUploads, UploadSpool, UPLOAD_LIMITS, type UploadLimits } from './upload-spool.js';

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'audio/ogg': 'ogg',
  'audio/mpeg': 'mp3',
  'audio/mp4': 'm4a',
  'audio/webm': 'webm',
  'audio/wav': 'wav',
  'video/mp4': 'mp4',
  'video/webm': 'webm',
  'application/pdf': 'pdf',
  'text/vcard': 'vcf',
};

const SAFE_NAME = /^[0-9a-f-]{36}(\.[a-z0-9]{1,8})?$/;

function extensionFor(mimetype: string, filename?: string): string {
  const fromName = filename?.split('.').pop()?.toLowerCase();
  if (fromName && /^[a-z0-9]{1,8}$/.test(fromName) && filename?.includes('.')) return fromName;
  return EXTENSIONS[mimetype.split(';')[0]!.trim()] ?? 'bin';
}

/**
 * Media files under DATA_DIR/media. Files get random names; they are served by a route that checks an
 * HMAC signature in the URL, so an <img> or <audio> tag can load them without a bearer header.
 */
export class MediaStorage {
  /** Where stored media live (DATA_DIR/media). */
  readonly dir: string;
  /** Temporary files of uploads in progress (DATA_DIR/tmp/uploads). */
  readonly uploadDir: string;
  private swept = false;
  /** Original file names of files just stored, until `url` writes them into the file's URL (`originalName`). */
  private readonly justStored = new Map<string, string>();

  constructor(
    dataDir: string,
    private readonly secret: string,
  ) {
    this.dir = path.join(dataDir, 'media');
    this.uploadDir = path.join(dataDir, 'tmp', 'uploads');
  }

  /** A spool for one request's uploads: files stream to disk, never whole into memory. */
  async uploadSpool(limits: UploadLimits = UPLOAD_LIMITS): Promise<UploadSpool> {
    if (!this.swept) {
      this.swept = true;
      await sweepStaleUploads(this.uploadDir);
    }
    return new UploadSpool(this.uploadDir, limits);
  }

  /** Moves a finished upload (a file of an upload spool) into media storage; returns its stored name. */
  async adopt(file: string, mimetype: string, filename?: string): Promise<string> {
    await mkdir(this.dir, { recursive: true });
    const name = this.named(mimetype, filename);
    const target = path.join(this.dir, name);
    try {
      await rename(file, target);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
      await copyFile(file, target);
      await rm(file, { force: true });
    }
    return name;
  }

  async save(data: Buffer, mimetype: string, filename?: string): Promise<string> {
    await mkdir(this.dir, { recursive: true });
    const name = this.named(mimetype, filename);
    await writeFile(path.join(this.dir, name), data);
    return name;
  }

  /** Removes a stored file (a media message that could not be sent). */
  async remove(name: string): Promise<void> {
    if (SAFE_NAME.test(name)) await rm(path.join(this.dir, name), { force: true });
  }

  /** A new stored name; the original file name is kept for `url`. */
  private named(mimetype: string, filename?: string): string {
    const name = `${randomUUID()}.${extensionFor(mimetype, filename)}`;
    const original = filename?.split(/[\\/]/).pop()?.trim().slice(0, 200);
    if (original) {
      if (this.justStored.size > 1000) this.justStored.clear(); // a stored file whose URL was never asked for
      this.justStored.set(name, original);
    }
    return name;
  }

  /**
   * The URL the web uses for a stored file. A file stored with its original name (`save`, `adopt`) carries it in the
   * URL's `name` parameter (outside the signature: a name to show and to attach the file as, never a path), so the
   * messages keep it without a column of their own (`originalName`).
   */
  url(name: string): string {
    const original = this.justStored.get(name);
    this.justStored.delete(name);
    return `/api/media/${name}?sig=${this.sign(name)}${original ? `&name=${encodeURIComponent(original)}` : ''}`;
  }

  /** The original file name in a URL made by `url`, or null (a file stored without one, or before names were kept). */
  originalName(url: string): string | null {
    const at = url.indexOf('?');
    return at < 0 ? null : new URLSearchParams(url.slice(at + 1)).get('name') || null;
  }

  /** The stored name behind a URL made by `url`, or null. */
  nameOf(url: string): string | null {
    const match = /^\/api\/media\/([^?]+)/.exec(url);
    return match && SAFE_NAME.test(match[1]!) ? match[1]! : null;
  }

  verify(name: string, signature: string): boolean {
    if (!SAFE_NAME.test(name)) return false;
    const expected = Buffer.from(this.sign(name));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  async read(name: string): Promise<Buffer | null> {
    if (!SAFE_NAME.test(name)) return null;
    try {
      return await readFile(path.join(this.dir, name));
    } catch {
      return null;
    }
  }

  private sign(name: string): string {
    return createHmac('sha256', this.secret).update(`media:${name}`).digest('base64url').slice(0, 32);
  }
}

export function mediaTypeOf(mimetype: string): 'image' | 'audio' | 'video' | 'document' {
  if (mimetype.startsWith('image/')) return 'image';
  if (mimetype.startsWith('audio/')) return 'audio';
  if (mimetype.startsWith('video/')) return 'video';
  return 'document';
}

export const MIME_BY_EXTENSION: Record<string, string> = Object.fromEntries(
  Object.entries(EXTENSIONS).map(([mime, ext]) => [ext, mime]),
);
