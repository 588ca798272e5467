/**
 * 2,000 seeded random URL strings from a hostile alphabet through `check`: it throws nothing
 * but EgressError, and whatever it accepts names no blocked address. The oracle below is an
 * independent implementation (node:net BlockList, its own IPv6 expander), not ip-class.ts.
 */
import { BlockList, isIP } from 'node:net';
import { describe, expect, it } from 'vitest';
import { EgressError, EgressGuard } from '../../../src/host-adapters/egress/index.js';
import { mulberry32 } from '../../support/prng.js';

const SEED = 0x5eed_ca9e;
const COUNT = 2000;

const SCHEMES = [
  'http://',
  'https://',
  'HTTP://',
  'hTtPs://',
  'http:/',
  'http:',
  'http:\\\\',
  'http:\\/',
  '//',
  '',
  'file://',
  'gopher://',
  'ftp://',
  'ws://',
  'data:',
  'javascript:',
  'blob:http://',
];
const HOSTS = [
  '127.0.0.1',
  '127.1',
  '127.0.1',
  '0x7f000001',
  '2130706433',
  '0177.0.0.1',
  '017700000001',
  '0',
  '0.0.0.0',
  '0x0',
  '169.254.169.254',
  '0xa9fea9fe',
  '10.0.0.1',
  '172.16.0.1',
  '192.168.0.1',
  '100.64.0.1',
  '224.0.0.1',
  '255.255.255.255',
  '[::1]',
  '[::]',
  '[::ffff:127.0.0.1]',
  '[::ffff:7f00:1]',
  '[::127.0.0.1]',
  '[64:ff9b::a9fe:a9fe]',
  '[64:ff9b::7f00:1]',
  '[2002:7f00:1::]',
  '[2002:a9fe:a9fe::]',
  '[fe80::1%25eth0]',
  '[fe80::1]',
  '[fd00::1]',
  '[fc00::]',
  '[2001::1]',
  '[2001:db8::1]',
  '[ff02::1]',
  '\uff11\uff12\uff17.\uff10.\uff10.\uff11',
  '127\u30020\u30020\u30021',
  '%31%32%37.0.0.1',
  '0x7f.1',
  'localhost',
  'LocalHost.',
  'a.localhost',
  // public ones, so that acceptance is exercised too
  '8.8.8.8',
  '1.1.1.1',
  '93.184.216.34',
  '[2606:4700::1111]',
  '[64:ff9b::8.8.8.8]',
  '[2002:808:808::1]',
  'public.test',
  'example.com',
  'xn--nxasmq6b.test',
];
const BITS = [
  '.',
  '..',
  ':',
  '@',
  '#',
  '?',
  '/',
  '\\',
  '\t',
  '\n',
  '\r',
  ' ',
  '%00',
  '%2e',
  '%25',
  '%40',
  '%2f',
  '%5c',
  '[',
  ']',
  '0',
  '1',
  '7f',
  'x',
  'ff',
  '::',
  'ffff',
  ':80',
  ':443',
  ':8080',
  ':0',
  ':65536',
  ':6379',
  'user:pass@',
  'user@',
  '@',
  '127',
  '0x',
  '\u0000',
  '\uff0e',
  '\u3002',
  '\u00a0',
  '\u00df',
  '\uff21\uff22',
  '\u200b',
  '%',
  '%zz',
  '\ud800',
  'xn--',
  '-',
  '_',
  '*',
  '!',
  '$',
  "'",
  '(',
  ')',
  ',',
  ';',
  '=',
  '~',
];
const PORTS = ['', '', '', ':80', ':443', ':8080', ':0', ':22', ':00080', ':443.', ':-1', ':1e3'];
const PATHS = ['', '/', '/x', '/a?b=c', '/#frag', '?q', '#@evil', '/..%2f..', '/\\x', '/%0d%0aHost:x'];

function generate(rnd: () => number): string {
  const pick = <T>(a: readonly T[]): T => a[Math.floor(rnd() * a.length)]!;
  if (rnd() < 0.2) {
    // Near-valid: a well-formed http(s) URL, sometimes with one hostile insertion.
    let s = pick(['http://', 'https://']) + pick(HOSTS) + pick(['', '', ':80', ':443', ':8080']) + pick(PATHS);
    if (rnd() < 0.3) {
      const at = Math.floor(rnd() * (s.length + 1));
      s = s.slice(0, at) + pick(BITS) + s.slice(at);
    }
    return s;
  }
  let host = pick(HOSTS);
  if (rnd() < 0.3) host = pick(BITS) + host;
  if (rnd() < 0.3) host = host + pick(BITS);
  if (rnd() < 0.15) host = pick(HOSTS) + pick(BITS) + host;
  let s =
    pick(SCHEMES) +
    (rnd() < 0.1 ? pick(['user:pass@', '@', 'a@', 'public.test@']) : '') +
    host +
    pick(PORTS) +
    pick(PATHS);
  // Random insertions anywhere.
  const n = rnd() < 0.5 ? 0 : Math.floor(rnd() * 3) + 1;
  for (let i = 0; i < n; i++) {
    const at = Math.floor(rnd() * (s.length + 1));
    s = s.slice(0, at) + pick(BITS) + s.slice(at);
  }
  return s;
}

// --- independent oracle -------------------------------------------------------------------
const V4_BLOCK = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  V4_BLOCK.addSubnet(net, prefix, 'ipv4');

const V6_GLOBAL = new BlockList();
V6_GLOBAL.addSubnet('2000::', 3, 'ipv6');
const V6_BLOCK = new BlockList();
for (const [net, prefix] of [
  ['2001::', 23],
  ['2001:db8::', 32],
  ['3fff::', 20],
] as const)
  V6_BLOCK.addSubnet(net, prefix, 'ipv6');

function expand(v6: string): number[] {
  const [head, tail] = v6.includes('::') ? v6.split('::') : [v6, undefined];
  const h = head ? head.split(':') : [];
  const t = tail !== undefined && tail !== '' ? tail.split(':') : [];
  const groups = tail === undefined ? h : [...h, ...new Array<string>(8 - h.length - t.length).fill('0'), ...t];
  return groups.map((g) => parseInt(g, 16));
}
const v4of = (hi: number, lo: number): string => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

function oraclePublic(host: string): boolean {
  if (isIP(host) === 4) return !V4_BLOCK.check(host, 'ipv4');
  const v6 = host.slice(1, -1);
  const w = expand(v6); // WHATWG serializes IPv6 in lower-case hex groups, no dotted tail
  if (w.length !== 8) throw new Error(`oracle cannot expand ${host}`);
  if (w[0] === 0x64 && w[1] === 0xff9b && w.slice(2, 6).every((x) => x === 0))
    return !V4_BLOCK.check(v4of(w[6]!, w[7]!), 'ipv4');
  if (!V6_GLOBAL.check(v6, 'ipv6')) return false;
  if (V6_BLOCK.check(v6, 'ipv6')) return false;
  if (w[0] === 0x2002) return !V4_BLOCK.check(v4of(w[1]!, w[2]!), 'ipv4');
  return true;
}

describe(`fuzz: ${COUNT} seeded URLs through check()`, () => {
  it('throws only EgressError and never accepts a blocked address', () => {
    const guard = new EgressGuard({ allowedPorts: [80, 443, 8080] });
    const rnd = mulberry32(SEED);
    const tally = { accepted: 0, acceptedLiteral: 0, E_SSRF_DENIED: 0, E_BAD_URL: 0 };
    const problems: string[] = [];
    for (let i = 0; i < COUNT; i++) {
      const s = generate(rnd);
      let u: URL;
      try {
        u = guard.check(s);
      } catch (e) {
        if (!(e instanceof EgressError) || (e.code !== 'E_SSRF_DENIED' && e.code !== 'E_BAD_URL')) {
          problems.push(`threw ${String(e)} for ${JSON.stringify(s)}`);
        } else {
          tally[e.code]++;
          if (/[\r\n]/.test(e.message)) problems.push(`raw newline in message for ${JSON.stringify(s)}`);
        }
        continue;
      }
      tally.accepted++;
      const why: string[] = [];
      if (u.protocol !== 'http:' && u.protocol !== 'https:') why.push('scheme');
      if (u.username || u.password) why.push('userinfo');
      const port = u.port === '' ? (u.protocol === 'https:' ? 443 : 80) : Number(u.port);
      if (![80, 443, 8080].includes(port)) why.push('port');
      if (/[\t\n\r\\\u0000]/.test(s)) why.push('raw control/backslash');
      if (new URL(s).hostname !== u.hostname) why.push('second parse disagrees');
      const h = u.hostname;
      if (isIP(h) === 4 || h.startsWith('[')) {
        tally.acceptedLiteral++;
        if (!oraclePublic(h)) why.push(`blocked literal ${h}`);
      } else {
        if (!/^[a-z0-9._-]+$/.test(h)) why.push(`odd host ${h}`);
        if (/(^|\.)localhost\.?$/.test(h)) why.push('localhost');
        if (/(^|\.)([0-9]+|0x[0-9a-f]*)\.?$/.test(h)) why.push(`numeric-looking name ${h}`);
      }
      if (why.length) problems.push(`accepted ${JSON.stringify(s)} -> ${u.href}: ${why.join(', ')}`);
    }
    expect(problems).toEqual([]);
    expect(tally.accepted + tally.E_SSRF_DENIED + tally.E_BAD_URL).toBe(COUNT);
    // The generator must exercise all three outcomes, accepted literals included.
    expect(tally.accepted).toBeGreaterThan(50);
    expect(tally.acceptedLiteral).toBeGreaterThan(20);
    expect(tally.E_SSRF_DENIED).toBeGreaterThan(200);
    expect(tally.E_BAD_URL).toBeGreaterThan(200);
    void guard.close();
  });

  it('the oracle agrees with itself on known cases', () => {
    expect(oraclePublic('8.8.8.8')).toBe(true);
    expect(oraclePublic('127.0.0.1')).toBe(false);
    expect(oraclePublic('[64:ff9b::808:808]')).toBe(true);
    expect(oraclePublic('[64:ff9b::7f00:1]')).toBe(false);
    expect(oraclePublic('[2002:7f00:1::]')).toBe(false);
    expect(oraclePublic('[2606:4700::1111]')).toBe(true);
    expect(oraclePublic('[::ffff:808:808]')).toBe(false);
  });
});
