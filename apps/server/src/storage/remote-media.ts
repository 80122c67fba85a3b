import { promises as dns, type lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import path from 'node:path';
import { Readable } from 'node:stream';
import { MIME_BY_EXTENSION } from './media-storage.js';
import { isPublicAddress } from './public-address.js';
import { UploadTooLargeError, type UploadSpool } from './upload-spool.js';

/**
 * Fetching a file named by a URL (a `mediaUrl` of POST /api/messages, the bulk sends' media), safely:
 * http(s) only, public unicast addresses only after DNS resolution (isPublicAddress; the connection goes to the
 * address that was checked, so a second lookup cannot swap it), a size cap, a timeout, and the body streamed to a
 * temporary file, never held in memory.
 */
export interface RemoteMediaOptions {
  /** Allow any address, not only public unicast ones (MEDIA_FETCH_PRIVATE=allow: tests, development). */
  allowPrivate: boolean;
  /** Largest body accepted. */
  maxBytes: number;
  /** The whole fetch, from the first lookup to the last byte. */
  timeoutMs: number;
  maxRedirects: number;
}

export const REMOTE_MEDIA_DEFAULTS: RemoteMediaOptions = {
  allowPrivate: false,
  maxBytes: 64 * 1024 * 1024,
  timeoutMs: 15_000,
  maxRedirects: 3,
};

/** A fetched file: a temporary file of the spool, its type and a name from the URL's path. */
export interface RemoteMedia {
  path: string;
  size: number;
  mimetype: string;
  filename?: string;
}

/**
 * Why a fetch failed: `invalid-url` is the caller's mistake in the URL itself (not http(s), unparsable);
 * `refused` a host that resolves to a forbidden address; `failed` anything on the way (DNS, connection,
 * status, timeout, size).
 */
export class RemoteMediaError extends Error {
  constructor(
    readonly reason: 'invalid-url' | 'refused' | 'failed',
    message: string,
  ) {
    super(message);
    this.name = 'RemoteMediaError';
  }
}

/** True for every address a server-side fetch must not reach: anything but public unicast (see isPublicAddress). */
export function isPrivateAddress(address: string): boolean {
  return !isPublicAddress(address);
}

/** Parses a media URL: http(s) only, with a host; RemoteMediaError('invalid-url') otherwise. */
export function parseMediaUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new RemoteMediaError('invalid-url', 'mediaUrl: not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new RemoteMediaError('invalid-url', 'mediaUrl: only http and https URLs');
  if (!url.hostname) throw new RemoteMediaError('invalid-url', 'mediaUrl: no host');
  if (url.username || url.password) throw new RemoteMediaError('invalid-url', 'mediaUrl: credentials in the URL are not accepted');
  return url;
}

/** The file name a URL's path ends with (decoded, without control characters), or undefined. */
export function fileNameOf(url: URL): string | undefined {
  const last = url.pathname.split('/').pop() ?? '';
  let name: string;
  try {
    name = decodeURIComponent(last);
  } catch {
    name = last;
  }
  // eslint-disable-next-line no-control-regex
  name = path.basename(name.replace(/[\u0000-\u001f\u007f/\\]/g, '')).trim().slice(0, 255);
  return name && name !== '.' && name !== '..' ? name : undefined;
}

/** The media type of a response: its Content-Type, or from the file name when the server says nothing useful. */
function mimetypeOf(response: IncomingMessage, filename: string | undefined): string {
  const header = (response.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (header && header !== 'application/octet-stream' && /^[a-z0-9.+-]+\/[a-z0-9.+-]+$/.test(header)) return header;
  const ext = filename?.includes('.') ? filename.split('.').pop()!.toLowerCase() : '';
  return MIME_BY_EXTENSION[ext] ?? (header || 'application/octet-stream');
}

/**
 * Resolves a host and checks every address; the first allowed one is where the connection goes (an outgoing
 * webhook's POST uses it too, at save time and at each send).
 */
export async function resolveChecked(hostname: string, allowPrivate: boolean): Promise<LookupAddress> {
  const host = hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: LookupAddress[];
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    try {
      addresses = await dns.lookup(host, { all: true, verbatim: true });
    } catch (err) {
      throw new RemoteMediaError('failed', `mediaUrl: the host ${host} was not found (${(err as NodeJS.ErrnoException).code ?? 'DNS error'})`);
    }
  }
  if (addresses.length === 0) throw new RemoteMediaError('failed', `mediaUrl: the host ${host} has no address`);
  // One forbidden address is enough to refuse: a host that also points inside is not to be trusted.
  if (!allowPrivate && addresses.some((a) => isPrivateAddress(a.address))) {
    throw new RemoteMediaError('refused', 'mediaUrl: the host resolves to a private or loopback address (or another one that is not public), which is not allowed');
  }
  return addresses[0]!;
}

/**
 * The checks a fetch of `raw` would make before connecting (http(s), a host that resolves, to public addresses
 * unless `allowPrivate`): a bulk send checks its URL with them before it is created (issue 33 item 14).
 */
export async function checkMediaUrl(raw: string, allowPrivate: boolean): Promise<void> {
  const url = parseMediaUrl(raw);
  await resolveChecked(url.hostname, allowPrivate);
}

/** One GET to the checked address; resolves with the response (not yet read). */
function request(url: URL, target: LookupAddress, signal: AbortSignal): Promise<IncomingMessage> {
  const pinnedLookup = ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [target]);
    else callback(null, target.address, target.family);
  }) as unknown as typeof dnsLookup;
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(url, { method: 'GET', agent: false, lookup: pinnedLookup, signal, headers: { 'user-agent': 'wadesk-media-fetch', accept: '*/*' } }, resolve);
    req.on('error', reject);
    req.end();
  });
}

/** The bytes of a response, failing once they pass `maxBytes` (whatever Content-Length said). */
async function* capped(source: IncomingMessage, maxBytes: number): AsyncGenerator<Buffer> {
  let total = 0;
  for await (const chunk of source as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > maxBytes) throw new UploadTooLargeError(maxBytes);
    yield chunk;
  }
}

function isDiskError(err: unknown): boolean {
  const syscall = (err as NodeJS.ErrnoException | null)?.syscall;
  return !!syscall && ['open', 'write', 'close', 'mkdir', 'rename', 'fsync'].includes(syscall);
}

/**
 * Fetches `rawUrl` into a temporary file of `spool` (counted against its limits). Follows up to
 * `maxRedirects` redirects, each checked like the first URL. Throws RemoteMediaError.
 */
export async function fetchRemoteMedia(rawUrl: string, spool: UploadSpool, options: Partial<RemoteMediaOptions> = {}): Promise<RemoteMedia> {
  const opts = { ...REMOTE_MEDIA_DEFAULTS, ...options };
  let url = parseMediaUrl(rawUrl);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), opts.timeoutMs);
  try {
    for (let hop = 0; ; hop += 1) {
      const target = await resolveChecked(url.hostname, opts.allowPrivate);
      let response: IncomingMessage;
      try {
        response = await request(url, target, controller.signal);
      } catch (err) {
        throw new RemoteMediaError('failed', controller.signal.aborted ? `mediaUrl: no answer within ${opts.timeoutMs / 1000} s` : `mediaUrl: ${(err as Error).message}`);
      }
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400 && response.headers.location) {
        response.resume();
        if (hop >= opts.maxRedirects) throw new RemoteMediaError('failed', 'mediaUrl: too many redirects');
        try {
          url = parseMediaUrl(new URL(response.headers.location, url).toString());
        } catch {
          throw new RemoteMediaError('failed', 'mediaUrl: redirected to a URL that is not http(s)');
        }
        continue;
      }
      if (status < 200 || status >= 300) {
        response.resume();
        throw new RemoteMediaError('failed', `mediaUrl: the server answered ${status}`);
      }
      const declared = Number(response.headers['content-length']);
      if (Number.isFinite(declared) && declared > opts.maxBytes) {
        response.destroy();
        throw new RemoteMediaError('failed', `mediaUrl: the file passes ${Math.round(opts.maxBytes / (1024 * 1024))} MB`);
      }
      const filename = fileNameOf(url);
      const mimetype = mimetypeOf(response, filename);
      try {
        const written = await spool.write(Readable.from(capped(response, opts.maxBytes)));
        return { path: written.path, size: written.size, mimetype, filename };
      } catch (err) {
        response.destroy();
        if (err instanceof UploadTooLargeError) {
          throw new RemoteMediaError('failed', `mediaUrl: the file passes ${Math.round(err.limitBytes / (1024 * 1024))} MB`);
        }
        if (controller.signal.aborted) throw new RemoteMediaError('failed', `mediaUrl: not downloaded within ${opts.timeoutMs / 1000} s`);
        // A failing disk is the server's problem, not the URL's.
        if (isDiskError(err)) throw err;
        throw new RemoteMediaError('failed', `mediaUrl: the download broke off (${(err as Error).message})`);
      }
    }
  } finally {
    clearTimeout(timer);
  }
}
