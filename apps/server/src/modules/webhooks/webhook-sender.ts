import { createHmac } from 'node:crypto';
import type { lookup as dnsLookup, LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { parseMediaUrl, RemoteMediaError, resolveChecked } from '../../storage/remote-media.js';

/** `sha256=<hex HMAC-SHA256 of "timestamp.body">`: what X-Desk-Signature carries. */
export function webhookSignature(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

export interface WebhookPostOptions {
  /** Any address, not only public unicast ones (MEDIA_FETCH_PRIVATE=allow). */
  allowPrivate: boolean;
  timeoutMs: number;
}

/** What one attempt came to: the receiver's status (2xx is delivered), or why there was none. */
export type WebhookPostResult = { status: number } | { status: null; error: string };

/**
 * Checks a webhook's URL as a `mediaUrl` is checked (http(s), no credentials, a host that resolves to public
 * addresses only unless `allowPrivate`); throws RemoteMediaError.
 */
export async function checkWebhookUrl(raw: string, allowPrivate: boolean): Promise<LookupAddress> {
  const url = parseMediaUrl(raw);
  return resolveChecked(url.hostname, allowPrivate);
}

/**
 * One POST of a signed body. The host is resolved and checked at each send and the connection goes to the address
 * checked (a second lookup cannot swap in a private one: DNS rebinding); redirects are not followed (a 3xx is a
 * failed attempt); the answer's body is read and dropped, at most 64 KB.
 */
export async function postWebhook(rawUrl: string, body: string, headers: Record<string, string>, options: WebhookPostOptions): Promise<WebhookPostResult> {
  let url: URL;
  let target: LookupAddress;
  try {
    url = parseMediaUrl(rawUrl);
    target = await resolveChecked(url.hostname, options.allowPrivate);
  } catch (err) {
    const message = err instanceof RemoteMediaError ? err.message.replace(/^mediaUrl: /, '') : (err as Error).message;
    return { status: null, error: message };
  }
  const pinnedLookup = ((_host: string, opts: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (opts?.all) callback(null, [target]);
    else callback(null, target.address, target.family);
  }) as unknown as typeof dnsLookup;
  const client = url.protocol === 'https:' ? https : http;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  try {
    return await new Promise<WebhookPostResult>((resolve) => {
      const req = client.request(
        url,
        {
          method: 'POST',
          agent: false,
          lookup: pinnedLookup,
          signal: controller.signal,
          headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'wadesk-webhooks', ...headers },
        },
        (response) => {
          let read = 0;
          response.on('data', (chunk: Buffer) => {
            read += chunk.length;
            if (read > 64 * 1024) response.destroy();
          });
          const done = () => resolve({ status: response.statusCode ?? 0 });
          response.on('end', done);
          response.on('close', done);
          response.on('error', done);
        },
      );
      req.on('error', (err) => {
        resolve({ status: null, error: controller.signal.aborted ? `no answer within ${options.timeoutMs / 1000} s` : err.message });
      });
      req.end(body);
    });
  } finally {
    clearTimeout(timer);
  }
}
