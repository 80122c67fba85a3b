import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPublicAddress } from './public-address.js';
import { fetchRemoteMedia, RemoteMediaError } from './remote-media.js';
import { UploadSpool, UPLOAD_LIMITS } from './upload-spool.js';

/** Addresses a fetch of a stranger's URL may reach. */
const PUBLIC: [string, string][] = [
  ['8.8.8.8', 'public IPv4'],
  ['1.1.1.1', 'public IPv4'],
  ['172.32.0.1', 'just past 172.16/12'],
  ['192.169.0.1', 'just past 192.168/16'],
  ['100.128.0.1', 'just past 100.64/10'],
  ['198.20.0.1', 'just past 198.18/15'],
  ['223.255.255.254', 'last public /8 before multicast'],
  ['2001:4860:4860::8888', 'public IPv6'],
  ['2606:4700:4700::1111', 'public IPv6'],
  ['2a00:1450:4001:80b::200e', 'public IPv6'],
  ['::ffff:8.8.8.8', 'IPv4-mapped public address'],
  ['::ffff:808:808', 'IPv4-mapped public address, hex spelling'],
  ['64:ff9b::808:808', 'NAT64 (well-known prefix) of a public address, as DNS64 answers on IPv6-only hosts'],
  ['64:ff9b::1.1.1.1', 'NAT64 of a public address, dotted spelling'],
  ['64:ff9b:1::808:808', 'local-use NAT64, /96 spelling, of a public address'],
  ['2002:808:808::1', '6to4 of a public address'],
  ['2001:0:808:808:0:0:fefe:fefe', 'Teredo between public addresses (client 1.1.1.1, obfuscated)'],
];

/** Addresses it must not reach, each one passed as public before the allow-list. */
const REFUSED: [string, string][] = [
  // IPv4
  ['127.0.0.1', 'loopback'],
  ['10.1.2.3', 'private 10/8'],
  ['172.16.0.1', 'private 172.16/12'],
  ['192.168.1.1', 'private 192.168/16'],
  ['169.254.169.254', 'link-local, cloud metadata'],
  ['0.0.0.0', '"this host"'],
  ['100.64.0.1', 'carrier-grade NAT 100.64/10'],
  ['192.0.0.8', 'IETF protocol assignments 192.0.0/24'],
  ['192.0.2.10', 'TEST-NET-1'],
  ['198.51.100.7', 'TEST-NET-2'],
  ['203.0.113.9', 'TEST-NET-3'],
  ['198.18.0.1', 'benchmarking 198.18/15'],
  ['198.19.255.254', 'benchmarking 198.18/15, its end'],
  ['192.88.99.1', '6to4 relay anycast'],
  ['224.0.0.1', 'multicast'],
  ['240.0.0.1', 'reserved 240/4'],
  ['255.255.255.255', 'broadcast'],
  // IPv6 without an IPv4 address
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['fc00::1', 'unique local fc00::/7'],
  ['fd12:3456::1', 'unique local fd00::/8'],
  ['fe80::1', 'link-local fe80::/10'],
  ['fec0::1', 'deprecated site-local'],
  ['ff02::1', 'multicast ff00::/8'],
  ['2001:db8::1', 'documentation 2001:db8::/32'],
  ['3fff::1', 'documentation 3fff::/20'],
  ['100::1', 'discard-only 100::/64'],
  ['2001:2::1', 'benchmarking 2001:2::/48'],
  ['2001:10::1', 'ORCHID'],
  ['::1:2:3:4', 'outside global unicast 2000::/3'],
  // IPv6 that carries an IPv4 address
  ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
  ['::ffff:7f00:1', 'IPv4-mapped loopback, hex spelling'],
  ['::ffff:10.0.0.1', 'IPv4-mapped private'],
  ['::ffff:169.254.169.254', 'IPv4-mapped cloud metadata'],
  ['::ffff:0:127.0.0.1', 'IPv4-translated loopback'],
  ['::127.0.0.1', 'IPv4-compatible loopback'],
  ['::7f00:1', 'IPv4-compatible loopback, hex spelling'],
  ['::8.8.8.8', 'IPv4-compatible (deprecated) whatever it carries (ipaddr.js alone reads it as mapped)'],
  ['fe80::1%eth0', 'link-local with a zone id'],
  ['64:ff9b::7f00:1', 'NAT64 of 127.0.0.1'],
  ['64:ff9b::a9fe:a9fe', 'NAT64 of 169.254.169.254'],
  ['64:ff9b::10.0.0.1', 'NAT64 of a private address'],
  ['64:ff9b:1::7f00:1', 'local-use NAT64 of 127.0.0.1'],
  ['64:ff9b:1:808:8:800::', 'local-use NAT64 whose embedding cannot be told'],
  ['2002:7f00:1::1', '6to4 of 127.0.0.1'],
  ['2002:a9fe:a9fe::1', '6to4 of 169.254.169.254'],
  ['2002:c0a8:101::1', '6to4 of 192.168.1.1'],
  ['2001:0:808:808:0:0:80ff:fffe', 'Teredo whose client is 127.0.0.1'],
  ['2001:0:a00:1:0:0:f7f7:f7f7', 'Teredo whose server is 10.0.0.1'],
  // Not an address at all
  ['not-an-ip', 'a name'],
  ['127.1', 'a short IPv4 spelling no lookup returns'],
];

describe('isPublicAddress: an allow-list of public unicast addresses', () => {
  it('has a table of at least 40 addresses', () => {
    expect(PUBLIC.length + REFUSED.length).toBeGreaterThanOrEqual(40);
  });

  it.each(PUBLIC)('allows %s (%s)', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it.each(REFUSED)('refuses %s (%s)', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });
});

describe('fetchRemoteMedia uses it', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'public-address-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it.each(['64:ff9b::7f00:1', '64:ff9b::a9fe:a9fe', '2002:7f00:1::1', '::127.0.0.1', '198.18.0.1', '100.64.0.1', '192.0.0.8'])(
    'refuses a mediaUrl on %s before connecting',
    async (address) => {
      const host = address.includes(':') ? `[${address}]` : address;
      const err = await fetchRemoteMedia(`http://${host}/x.ogg`, new UploadSpool(dir, UPLOAD_LIMITS), { timeoutMs: 2000 }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(RemoteMediaError);
      expect((err as RemoteMediaError).reason).toBe('refused');
    },
  );
});
