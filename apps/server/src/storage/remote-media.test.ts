import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchRemoteMedia, fileNameOf, isPrivateAddress, RemoteMediaError } from './remote-media.js';
import { UploadSpool, UPLOAD_LIMITS } from './upload-spool.js';

describe('isPrivateAddress', () => {
  it.each([
    '127.0.0.1', '127.255.0.9', '10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '0.0.0.0',
    '::1', '::', 'fc00::1', 'fd12:3456::1', 'fe80::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '::ffff:7f00:1', 'not-an-ip',
  ])('refuses %s', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each(['8.8.8.8', '172.32.0.1', '192.169.0.1', '1.1.1.1', '2001:4860:4860::8888', '::ffff:8.8.8.8'])('allows %s', (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });
});

describe('fileNameOf', () => {
  it('takes the decoded last segment of the path, without separators or control characters', () => {
    expect(fileNameOf(new URL('https://x.test/a/b/foto%20loja.png?x=1'))).toBe('foto loja.png');
    expect(fileNameOf(new URL('https://x.test/a/..%2F..%2Fetc%2Fpasswd'))).toBe('....etcpasswd');
    expect(fileNameOf(new URL('https://x.test/'))).toBeUndefined();
  });
});

describe('fetchRemoteMedia', () => {
  let server: Server;
  let base: string;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'remote-media-'));
    server = createServer((req, res) => {
      if (req.url === '/big') {
        // No Content-Length: the cap must hold while streaming.
        res.writeHead(200, { 'content-type': 'application/pdf' });
        res.write(Buffer.alloc(600));
        res.end(Buffer.alloc(600));
      } else if (req.url === '/slow') {
        res.writeHead(200, { 'content-type': 'image/png' });
        res.write('x'); // and never ends
      } else if (req.url === '/to-ftp') {
        res.writeHead(302, { location: 'ftp://example.test/x' });
        res.end();
      } else {
        res.writeHead(200, { 'content-type': 'audio/ogg; codecs=opus' });
        res.end('OggS');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  const spool = () => new UploadSpool(dir, UPLOAD_LIMITS);
  const reason = async (p: Promise<unknown>) => {
    const err = await p.then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(RemoteMediaError);
    return (err as RemoteMediaError).reason;
  };

  it('streams the file to the spool with its type and name', async () => {
    const media = await fetchRemoteMedia(`${base}/voice/nota.ogg`, spool(), { allowPrivate: true });
    expect(media).toMatchObject({ mimetype: 'audio/ogg', filename: 'nota.ogg', size: 4 });
    expect(await readFile(media.path, 'utf8')).toBe('OggS');
  });

  it('refuses loopback without allowPrivate, before connecting', async () => {
    expect(await reason(fetchRemoteMedia(`${base}/x.ogg`, spool()))).toBe('refused');
    expect(await reason(fetchRemoteMedia(`http://localhost:1/x.ogg`, spool()))).toBe('refused');
  });

  it('caps the size while streaming', async () => {
    expect(await reason(fetchRemoteMedia(`${base}/big`, spool(), { allowPrivate: true, maxBytes: 1000 }))).toBe('failed');
  });

  it('gives up after the timeout', async () => {
    const started = Date.now();
    expect(await reason(fetchRemoteMedia(`${base}/slow`, spool(), { allowPrivate: true, timeoutMs: 300 }))).toBe('failed');
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('refuses a redirect to something that is not http(s)', async () => {
    expect(await reason(fetchRemoteMedia(`${base}/to-ftp`, spool(), { allowPrivate: true }))).toBe('failed');
  });

  it('refuses what is not an http(s) URL as invalid-url', async () => {
    expect(await reason(fetchRemoteMedia('gopher://x.test/', spool()))).toBe('invalid-url');
    expect(await reason(fetchRemoteMedia('::', spool()))).toBe('invalid-url');
  });
});
