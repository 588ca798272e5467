/** The IP-ranges table (src/host-adapters/geo/ip-ranges.ts) over the committed fixture and inline CSVs. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { IpRangeTable, IpRangesError, ipRangesGeo } from '../../../src/host-adapters/geo/ip-ranges.js';
import { GEO_FIXTURE } from '../../support/host/geo.js';

const table = IpRangeTable.fromCsv(readFileSync(GEO_FIXTURE, 'utf8'), 'ranges.csv');

describe('the fixture table', () => {
  it('keeps the known ranges and drops the unknown ones (ZZ, -)', () => {
    expect(table.size).toEqual({ v4: 5, v6: 3 });
  });

  it.each([
    ['192.0.2.0', 'JP'], // first address of a range
    ['192.0.2.127', 'JP'], // last address
    ['192.0.2.128', null], // gap between two ranges
    ['192.0.2.199', null],
    ['192.0.2.200', 'US'],
    ['192.0.2.255', 'US'],
    ['192.0.1.255', null], // before the range
    ['0.0.0.0', null],
    ['255.255.255.255', null],
    ['198.51.100.7', null], // ZZ row
    ['203.0.113.1', null], // "-" row
    ['5.10.0.0', 'JP'],
    ['5.10.255.255', 'JP'],
    ['5.11.0.0', null],
    ['31.200.1.0', null],
    ['31.200.2.9', 'FR'], // lower-case code in the file
  ])('IPv4 %s -> %s', (ip, cc) => expect(table.countryOf(ip)).toBe(cc));

  it.each([
    ['2001:db8::', 'SE'],
    ['2001:db8:0:ffff:ffff:ffff:ffff:ffff', 'SE'],
    ['2001:DB8::1', 'SE'],
    ['2001:db8:1::', 'NO'],
    ['2001:db8:1:0:0:0:0:0', 'NO'],
    ['2001:db8:1::ff', 'NO'],
    ['2001:db8:1::100', null],
    ['2001:db7:ffff:ffff:ffff:ffff:ffff:ffff', null],
    ['2a00:1000:ffff:ffff:ffff:ffff:ffff:ffff', 'GB'],
    ['2a00:1001::', null],
    ['::', null],
  ])('IPv6 %s -> %s', (ip, cc) => expect(table.countryOf(ip)).toBe(cc));

  it.each([
    ['::ffff:192.0.2.5', 'JP'],
    ['::ffff:c000:205', 'JP'],
    ['0:0:0:0:0:ffff:5.10.1.1', 'JP'],
    ['::192.0.2.5', null], // IPv4-compatible, not mapped
  ])('IPv4-mapped IPv6 %s -> %s', (ip, cc) => expect(table.countryOf(ip)).toBe(cc));

  it.each([
    '',
    ' 5.10.0.1',
    '5.10.0.1 ',
    '5.10.0',
    '5.10.0.1.2',
    '05.10.0.1',
    '5.10.0.256',
    'fe80::1%eth0',
    '2001:db8::g',
    '::ffff:5.10.0.256',
    'example.com',
    '5.10.0.1/32',
    '5'.repeat(100),
  ])('not an address: %j -> null', (ip) => expect(table.countryOf(ip)).toBeNull());

  it('answers through the GeoAdapter shape', async () => {
    expect(await ipRangesGeo(table).countryOf('5.10.3.4')).toBe('JP');
  });
});

describe('file layouts', () => {
  it('reads IP2Location LITE: quoted decimal numbers, a country name with a comma, IPv4 as mapped IPv6 numbers', () => {
    const csv = [
      '"0","281470681743359","-","-"', // a gap row spanning IPv4-compatible and part of IPv6: dropped
      '"281470698520576","281470698520831","AU","Australia"', // ::ffff:1.0.0.0 - ::ffff:1.0.0.255
      '"16777472","16777727","CN","China"', // 1.0.1.0 - 1.0.1.255 in the IPv4 file
      '"3758096384","3758096639","KR","Korea, Republic of"', // 224.0.0.0/24: the table does not judge
      '"58569071813452613185929873510317667328","58569071813452613185929873510317667583","JP","Japan"', // 2c0f:..
    ].join('\r\n');
    const t = IpRangeTable.fromCsv(csv);
    expect(t.size).toEqual({ v4: 3, v6: 1 });
    expect(t.countryOf('1.0.0.0')).toBe('AU');
    expect(t.countryOf('1.0.0.255')).toBe('AU');
    expect(t.countryOf('::ffff:1.0.0.9')).toBe('AU');
    expect(t.countryOf('1.0.1.128')).toBe('CN');
    expect(t.countryOf('224.0.0.1')).toBe('KR');
    const v6 = BigInt('58569071813452613185929873510317667328');
    const text = v6
      .toString(16)
      .padStart(32, '0')
      .replace(/(.{4})(?!$)/g, '$1:');
    expect(t.countryOf(text)).toBe('JP');
  });

  it('reads DB-IP Lite with a header line and mapped IPv6 text ranges', () => {
    const t = IpRangeTable.fromCsv(
      'start_ip,end_ip,country_code\n::ffff:10.0.0.0,::ffff:10.0.0.255,au\n\n2001:db8::,2001:db8::ff,NZ\n',
    );
    expect(t.countryOf('10.0.0.9')).toBe('AU');
    expect(t.countryOf('2001:db8::80')).toBe('NZ');
  });
});

describe('malformed files: an error that names the line', () => {
  const bad = (csv: string, line: number, why: RegExp) => {
    let err: unknown;
    try {
      IpRangeTable.fromCsv(csv, 'geo.csv');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(IpRangesError);
    expect((err as Error).message).toMatch(new RegExp(`^geo\\.csv line ${line}: `));
    expect((err as Error).message).toMatch(why);
  };
  const ok = '5.10.0.0,5.10.0.255,JP\n';

  it.each([
    ['x.y,5.10.1.255,JP', /the start is not an IP address/],
    ['5.10.1.0,5.10.1.256,JP', /the end is not an IP address/],
    ['05.10.1.0,5.10.1.255,JP', /the start is not an IP address/],
    ['fe80::1%eth0,fe80::2,JP', /the start is not an IP address/],
    ['5.10.1.0,5.10.1.255', /expected start_ip,end_ip,country_code/],
    ['5.10.1.0,5.10.1.255,JPN', /not a two-letter code/],
    ['5.10.1.0,5.10.1.255,J1', /not a two-letter code/],
    ['5.10.1.255,5.10.1.0,JP', /the start is after the end/],
    ['5.10.1.0,2001:db8::,JP', /different IP versions/],
    ['"5.10.1.0,5.10.1.255,JP', /malformed quoting/],
    ['"5.10.1.0"x,5.10.1.255,JP', /malformed quoting/],
    ['start_ip,end_ip,country_code', /the start is not an IP address/], // a header only on line 1
    ['99999999999999999999999999999999999999999,1,JP', /the start is not an IP address/],
  ])('line 2 %j', (line, why) => bad(ok + line + '\n' + ok.replace('5.10.0', '5.10.9'), 2, why));

  it('overlapping ranges name both lines', () => {
    bad('5.10.0.0,5.10.0.255,JP\n6.0.0.0,6.0.0.9,US\n5.10.0.255,5.10.1.0,DE\n', 3, /overlaps the one on line 1/);
    bad(
      '2001:db8::,2001:db8::ffff,SE\n2001:db8::1:0,2001:db8::2:0,NO\n2001:db8::10,2001:db8::20,DK\n',
      3,
      /overlaps the one on line 1/,
    );
  });

  it('the message quotes the start of the line only', () => {
    bad(`5.10.1.0,5.10.1.255,${'X'.repeat(500)}`, 1, /"5\.10\.1\.0,5\.10\.1\.255,X{60}"$/);
  });
});

describe('binary search equals a linear scan', () => {
  // Deterministic pseudo-random ranges with gaps, checked against the obvious O(n) answer.
  let seed = 12345;
  const rnd = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const codes = ['JP', 'US', 'DE', 'FR', 'GB'];
  const v4: [number, number, string][] = [];
  for (let at = rnd(1000); at < 2 ** 32 - 200000 && v4.length < 3000; at += rnd(1500000) + 1) {
    const end = at + rnd(100000);
    v4.push([at, end, codes[rnd(5)]!]);
    at = end;
  }
  const v6: [bigint, bigint, string][] = [];
  let a6 = 0x2000n << 112n;
  for (let i = 0; i < 2000; i++) {
    const start = a6 + BigInt(rnd(1 << 30)) * (1n << 70n) + BigInt(rnd(1000));
    const end = start + BigInt(rnd(1 << 30)) * (1n << 60n) + BigInt(rnd(1000));
    v6.push([start, end, codes[rnd(5)]!]);
    a6 = end + 1n;
  }
  const ip4 = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
  const ip6 = (n: bigint) =>
    n
      .toString(16)
      .padStart(32, '0')
      .replace(/(.{4})(?!$)/g, '$1:');
  // Shuffled lines: the table sorts them.
  const lines = [
    ...v4.map(([s, e, c]) => `${ip4(s)},${ip4(e)},${c}`),
    ...v6.map(([s, e, c]) => `${ip6(s)},${ip6(e)},${c}`),
  ].sort(() => rnd(3) - 1);
  const t = IpRangeTable.fromCsv(lines.join('\n'));

  it('IPv4: range edges, neighbours and random addresses', () => {
    const probes: number[] = [];
    for (const [s, e] of v4) probes.push(s, e, s - 1, e + 1);
    for (let i = 0; i < 5000; i++) probes.push(rnd(2 ** 31) * 2 + rnd(2));
    let found = 0;
    for (const p of probes.filter((n) => n >= 0 && n < 2 ** 32)) {
      const want = v4.find(([s, e]) => s <= p && p <= e)?.[2] ?? null;
      if (want) found++;
      expect(t.countryOf(ip4(p))).toBe(want);
    }
    expect(found).toBeGreaterThan(v4.length * 2);
  });

  it('IPv6: range edges, neighbours and random addresses', () => {
    const probes: bigint[] = [];
    for (const [s, e] of v6) probes.push(s, e, s - 1n, e + 1n, (s + e) / 2n);
    for (let i = 0; i < 2000; i++) probes.push(v6[rnd(v6.length)]![0] + BigInt(rnd(1 << 30)) * (1n << 62n));
    for (const p of probes) {
      const want = v6.find(([s, e]) => s <= p && p <= e)?.[2] ?? null;
      expect(t.countryOf(ip6(p))).toBe(want);
    }
  });
});
