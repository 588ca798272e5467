/**
 * Address classification: is an IP global unicast, i.e. may the host connect to it on a
 * template's behalf? Everything else is denied. The rule is an allow-list for IPv6 (2000::/3
 * minus special blocks, plus NAT64 of a public IPv4) and a deny-list of the IANA
 * special-purpose blocks for IPv4. Input must be a plain IP string as `net.isIP` accepts it;
 * anything else (names, URL forms, zone ids) is not public.
 */
import { isIP } from 'node:net';
import type { EgressPolicy } from './policy.js';

type V4Range = readonly [base: number, prefix: number];

function v4(text: string): number {
  const p = text.split('.').map(Number);
  return (((p[0]! << 24) >>> 0) + (p[1]! << 16) + (p[2]! << 8) + p[3]!) >>> 0;
}

/** IPv4 blocks that are not global unicast (RFC 6890 and the IANA special-purpose registry). */
const V4_DENY: readonly V4Range[] = [
  [v4('0.0.0.0'), 8], // "this network", incl. 0.0.0.0
  [v4('10.0.0.0'), 8], // private
  [v4('100.64.0.0'), 10], // shared address space (CGNAT)
  [v4('127.0.0.0'), 8], // loopback
  [v4('169.254.0.0'), 16], // link-local, cloud metadata
  [v4('172.16.0.0'), 12], // private
  [v4('192.0.0.0'), 24], // IETF protocol assignments (DS-Lite, NAT64 discovery...)
  [v4('192.0.2.0'), 24], // TEST-NET-1
  [v4('192.88.99.0'), 24], // 6to4 relay anycast (deprecated)
  [v4('192.168.0.0'), 16], // private
  [v4('198.18.0.0'), 15], // benchmarking
  [v4('198.51.100.0'), 24], // TEST-NET-2
  [v4('203.0.113.0'), 24], // TEST-NET-3
  [v4('224.0.0.0'), 4], // multicast
  [v4('240.0.0.0'), 4], // reserved, incl. 255.255.255.255 broadcast
];

function inV4(addr: number, [base, prefix]: V4Range): boolean {
  const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
  return (addr & mask) >>> 0 === (base & mask) >>> 0;
}

export function isPublicV4(addr: number): boolean {
  return !V4_DENY.some((r) => inV4(addr, r));
}

/** Parses strict dotted-quad IPv4 (as `net.isIP` accepts it) to an unsigned 32-bit number. */
export function parseIPv4(text: string): number | null {
  if (isIP(text) !== 4) return null;
  return v4(text);
}

/** Parses an IPv6 address (no zone id) to eight 16-bit words. */
export function parseIPv6(text: string): number[] | null {
  if (text.includes('%') || isIP(text) !== 6) return null;
  let s = text.toLowerCase();
  const lastColon = s.lastIndexOf(':');
  const last = s.slice(lastColon + 1);
  if (last.includes('.')) {
    // Embedded dotted IPv4 tail: rewrite it as two hex groups.
    const n = parseIPv4(last);
    if (n === null) return null;
    s = `${s.slice(0, lastColon + 1)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const parseGroups = (part: string): number[] => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  let words: number[];
  const dbl = s.indexOf('::');
  if (dbl >= 0) {
    const head = parseGroups(s.slice(0, dbl));
    const rest = parseGroups(s.slice(dbl + 2));
    const fill = 8 - head.length - rest.length;
    if (fill < 0) return null;
    words = [...head, ...new Array<number>(fill).fill(0), ...rest];
  } else {
    words = parseGroups(s);
  }
  if (words.length !== 8 || words.some((w) => !Number.isInteger(w) || w < 0 || w > 0xffff)) return null;
  return words;
}

function v4FromWords(hi: number, lo: number): number {
  return ((hi << 16) >>> 0) + lo;
}

export function isPublicV6(w: readonly number[]): boolean {
  // NAT64 well-known prefix 64:ff9b::/96: public exactly when the embedded IPv4 is.
  if (w[0] === 0x64 && w[1] === 0xff9b && w[2] === 0 && w[3] === 0 && w[4] === 0 && w[5] === 0) {
    return isPublicV4(v4FromWords(w[6]!, w[7]!));
  }
  // Only global unicast 2000::/3. This excludes ::, ::1, IPv4-mapped ::ffff:0:0/96,
  // IPv4-compatible ::/96, 64:ff9b:1::/48 (local-use NAT64), discard 100::/64, ULA fc00::/7,
  // link-local fe80::/10, site-local fec0::/10 and multicast ff00::/8.
  if ((w[0]! & 0xe000) !== 0x2000) return false;
  // 2001::/23 IETF protocol assignments: Teredo 2001::/32, benchmarking 2001:2::/48, ORCHID...
  if (w[0] === 0x2001 && w[1]! < 0x200) return false;
  // Documentation 2001:db8::/32 and 3fff::/20.
  if (w[0] === 0x2001 && w[1] === 0x0db8) return false;
  if (w[0] === 0x3fff && (w[1]! & 0xf000) === 0) return false;
  // 6to4 2002::/16: public exactly when the embedded IPv4 is.
  if (w[0] === 0x2002) return isPublicV4(v4FromWords(w[1]!, w[2]!));
  return true;
}

/**
 * Global unicast only. `policy.treatAsPublic` (test-only) lists exact IP strings that count
 * as public.
 */
export function isPublicAddress(ip: string, policy?: Pick<EgressPolicy, 'treatAsPublic'>): boolean {
  if (typeof ip !== 'string') return false;
  if (policy?.treatAsPublic?.includes(ip)) return true;
  const n = parseIPv4(ip);
  if (n !== null) return isPublicV4(n);
  const w = parseIPv6(ip);
  if (w !== null) return isPublicV6(w);
  return false;
}

/**
 * The IPv4 inside an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`), as dotted quad, or the
 * input unchanged. For comparing a socket's peer with the address it was told to reach.
 */
export function unmapIPv4(ip: string): string {
  const w = parseIPv6(ip);
  if (w && w[0] === 0 && w[1] === 0 && w[2] === 0 && w[3] === 0 && w[4] === 0 && w[5] === 0xffff) {
    const n = v4FromWords(w[6]!, w[7]!);
    return `${n >>> 24}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;
  }
  return ip;
}

/** Same address? Compares IPv6 by value, IPv4-mapped as IPv4. */
export function sameAddress(a: string, b: string): boolean {
  const ua = unmapIPv4(a);
  const ub = unmapIPv4(b);
  if (ua === ub) return true;
  const wa = parseIPv6(ua);
  const wb = parseIPv6(ub);
  return !!wa && !!wb && wa.every((x, i) => x === wb[i]);
}
