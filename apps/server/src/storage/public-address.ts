import ipaddr from 'ipaddr.js';
import { isIP } from 'node:net';

/**
 * Which addresses a server-side fetch of a URL someone else gave (a `mediaUrl`, a bulk send's media) may reach:
 * an allow-list, not a block-list. An IPv4 address must be public unicast (ipaddr.js's `range()` is 'unicast':
 * not private, loopback, link-local, carrier-grade NAT, 192.0.0/24, TEST-NETs, benchmarking 198.18/15, 240/4,
 * broadcast, multicast, ...). An IPv6 address must be global unicast (2000::/3, and 'unicast' for ipaddr.js: not
 * documentation, ORCHID, benchmarking, ...), unless it is one of the forms that carry an IPv4 address, which are
 * judged by the IPv4 address they carry (every one of them, for Teredo).
 */
export function isPublicAddress(address: string): boolean {
  // node:net's parser first: ipaddr.js also reads "127.1", "0x7f.0.0.1" and other spellings no lookup returns.
  const family = isIP(address);
  if (family === 4) return ipaddr.IPv4.parse(address).range() === 'unicast';
  if (family !== 6) return false;
  const canonical = canonicalIPv6(address);
  if (!canonical) return false;
  const v6 = ipaddr.IPv6.parse(canonical);
  const embedded = embeddedIPv4(v6);
  if (embedded) return embedded.length > 0 && embedded.every((v4) => v4.range() === 'unicast');
  return v6.parts[0]! >> 13 === 0b001 && v6.range() === 'unicast';
}

/**
 * The hexadecimal spelling of an IPv6 address, as the WHATWG URL parser writes it. ipaddr.js reads any dotted
 * tail as IPv4-mapped ("::8.8.8.8" as ::ffff:808:808), which it is not: the system reads ::808:808. A zone id
 * ("fe80::1%eth0") makes the parse fail: such an address is never public.
 */
function canonicalIPv6(address: string): string | null {
  try {
    return new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return null;
  }
}

function ipv4Of(high: number, low: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

/**
 * The IPv4 addresses an IPv6 address stands for, when it is a form that carries one; undefined when it is not.
 * An empty list: a form that carries one where this server cannot tell which (refused).
 */
function embeddedIPv4(v6: ipaddr.IPv6): ipaddr.IPv4[] | undefined {
  const p = v6.parts;
  const last = ipv4Of(p[6]!, p[7]!);
  switch (v6.range() as string) {
    case 'ipv4Mapped': // ::ffff:a.b.c.d
    case 'rfc6145': // ::ffff:0:a.b.c.d (IPv4-translated)
      return [last];
    case 'rfc6052':
      // NAT64: the well-known prefix 64:ff9b::/96 carries the address in its last 32 bits. The local-use prefix
      // 64:ff9b:1::/48 may embed it at several places (RFC 6052 §2.2): only its /96 spelling is unambiguous.
      if (p[2] === 0) return [last];
      return p[3] === 0 && p[4] === 0 && p[5] === 0 ? [last] : [];
    case '6to4': // 2002:AABB:CCDD::/48
      return [ipv4Of(p[1]!, p[2]!)];
    case 'teredo': // 2001:0:server:server:flags:port:~client:~client
      return [ipv4Of(p[2]!, p[3]!), ipv4Of(p[6]! ^ 0xffff, p[7]! ^ 0xffff)];
    default:
      // IPv4-compatible ::a.b.c.d (deprecated, RFC 4291 §2.5.5.1): never a real destination, whatever it carries.
      if (p.slice(0, 6).every((part) => part === 0)) return [];
      return undefined;
  }
}
