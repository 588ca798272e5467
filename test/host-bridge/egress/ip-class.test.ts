/** Address classification, table-driven. */
import { describe, expect, it } from 'vitest';
import { isPublicAddress } from '../../../src/host-adapters/egress/index.js';
import { parseIPv6, sameAddress, unmapIPv4 } from '../../../src/host-adapters/egress/ip-class.js';

const PUBLIC = [
  '1.1.1.1',
  '8.8.8.8',
  '93.184.216.34',
  '100.63.255.255', // just below CGNAT
  '100.128.0.0', // just above CGNAT
  '172.15.255.255',
  '172.32.0.0',
  '169.253.255.255',
  '192.0.1.255',
  '192.0.3.0',
  '192.169.0.0',
  '198.17.255.255',
  '198.20.0.0',
  '223.255.255.255',
  '11.0.0.0',
  '126.255.255.255',
  '128.0.0.0',
  '2606:4700:4700::1111',
  '2001:4860:4860::8888',
  '2a00:1450:4001:80b::200e',
  '2001:200::1', // just past 2001::/23
  '64:ff9b::808:808', // NAT64 of 8.8.8.8
  '64:ff9b::8.8.8.8',
  '2002:808:808::1', // 6to4 of 8.8.8.8
  '3fef:ffff::1',
  '3ffe::1',
  '3fff:1000::1', // just past 3fff::/20
];

const BLOCKED = [
  '0.0.0.0',
  '0.255.255.255',
  '10.0.0.0',
  '10.255.255.255',
  '100.64.0.0',
  '100.127.255.255',
  '127.0.0.1',
  '127.255.255.255',
  '169.254.0.1',
  '169.254.169.254',
  '172.16.0.0',
  '172.31.255.255',
  '192.0.0.8',
  '192.0.0.170',
  '192.0.2.1',
  '192.88.99.1',
  '192.168.0.1',
  '198.18.0.0',
  '198.19.255.255',
  '198.51.100.1',
  '203.0.113.255',
  '224.0.0.1',
  '239.255.255.255',
  '240.0.0.1',
  '255.255.255.255',
  '::',
  '::1',
  '0:0:0:0:0:0:0:1',
  '::ffff:127.0.0.1',
  '::ffff:7f00:1',
  '::ffff:8.8.8.8', // IPv4-mapped is never used as a destination form
  '::127.0.0.1',
  '::8.8.8.8',
  '64:ff9b::7f00:1',
  '64:ff9b::127.0.0.1',
  '64:ff9b::a9fe:a9fe',
  '64:ff9b::10.0.0.1',
  '64:ff9b:1::808:808', // local-use NAT64, whatever it embeds
  '2002:7f00:1::',
  '2002:a9fe:a9fe::1',
  '2002:c0a8:101::1',
  '2002:0:0::1',
  '2001::1', // Teredo
  '2001:0:4136:e378:8000:63bf:3fff:fdd2',
  '2001:2::1', // benchmarking
  '2001:10::1', // ORCHID
  '2001:1ff:ffff::1',
  '2001:db8::1',
  '2001:db8:ffff::1',
  '3fff::1',
  '3fff:fff::1',
  '100::1',
  'fc00::1',
  'fd00::1',
  'fdff:ffff::1',
  'fe80::1',
  'fe80::1%eth0',
  'febf::1',
  'fec0::1',
  'ff02::1',
  'ff0e::1',
  '1::1',
  '4000::1',
  '::ffff:0:0',
];

const NOT_IPS = [
  '',
  'localhost',
  '127.1',
  '0x7f000001',
  '2130706433',
  '1.2.3',
  '1.2.3.4.5',
  '01.2.3.4',
  '[::1]',
  ' 8.8.8.8',
  '8.8.8.8 ',
  'public.test',
  '::ffff:127.1',
  '1:2:3:4:5:6:7:8:9',
];

describe('isPublicAddress', () => {
  it.each(PUBLIC)('public: %s', (ip) => expect(isPublicAddress(ip)).toBe(true));
  it.each(BLOCKED)('blocked: %s', (ip) => expect(isPublicAddress(ip)).toBe(false));
  it.each(NOT_IPS)('not an IP: %j', (s) => expect(isPublicAddress(s)).toBe(false));

  it('treatAsPublic lists exact strings only', () => {
    const policy = { treatAsPublic: ['127.0.0.2'] };
    expect(isPublicAddress('127.0.0.2', policy)).toBe(true);
    expect(isPublicAddress('127.0.0.3', policy)).toBe(false);
    expect(isPublicAddress('::ffff:127.0.0.2', policy)).toBe(false);
  });

  it('non-strings are not public', () => {
    expect(isPublicAddress(undefined as never)).toBe(false);
    expect(isPublicAddress(2130706433 as never)).toBe(false);
  });
});

describe('IPv6 helpers', () => {
  it('parses compressed, full and dotted forms', () => {
    expect(parseIPv6('::1')).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    expect(parseIPv6('1::')).toEqual([1, 0, 0, 0, 0, 0, 0, 0]);
    expect(parseIPv6('::ffff:1.2.3.4')).toEqual([0, 0, 0, 0, 0, 0xffff, 0x102, 0x304]);
    expect(parseIPv6('1:2:3:4:5:6:7.8.9.10')).toEqual([1, 2, 3, 4, 5, 6, 0x708, 0x90a]);
    expect(parseIPv6('2001:DB8::A')).toEqual([0x2001, 0xdb8, 0, 0, 0, 0, 0, 10]);
    expect(parseIPv6('fe80::1%eth0')).toBeNull();
    expect(parseIPv6('1.2.3.4')).toBeNull();
  });

  it('compares peers', () => {
    expect(unmapIPv4('::ffff:127.0.0.2')).toBe('127.0.0.2');
    expect(sameAddress('::ffff:127.0.0.2', '127.0.0.2')).toBe(true);
    expect(sameAddress('2001:db8::1', '2001:0db8:0:0:0:0:0:1')).toBe(true);
    expect(sameAddress('127.0.0.1', '127.0.0.2')).toBe(false);
  });
});
