/** The strict address grammar (docs/security.md ML-02, ML-03): a corpus of good and bad addresses. */
import { describe, expect, it } from 'vitest';
import { parseAddress, parseAddressList } from '../../../src/host-adapters/mail/address.js';

/** [input, canonical form] */
const GOOD: [string, string][] = [
  ['user@example.com', 'user@example.com'],
  ['User@Example.COM', 'User@example.com'],
  ['first.last@example.com', 'first.last@example.com'],
  ['user+tag@example.com', 'user+tag@example.com'],
  ["o'brien@example.com", "o'brien@example.com"],
  ['a@b.co', 'a@b.co'],
  ['x@sub.domain.example.org', 'x@sub.domain.example.org'],
  ['under_score@example.com', 'under_score@example.com'],
  ['!#$%&*+/=?^_`{|}~@example.com', '!#$%&*+/=?^_`{|}~@example.com'],
  ['  spaced@example.com\t', 'spaced@example.com'],
  ['"user"@example.com', 'user@example.com'],
  ['"first.last"@example.com', 'first.last@example.com'],
  ['"john doe"@example.com', '"john doe"@example.com'],
  ['"a,b"@example.com', '"a,b"@example.com'],
  ['"a\\"b"@example.com', '"a\\"b"@example.com'],
  ['"a\\b"@example.com', 'ab@example.com'],
  ['"a..b"@example.com', '"a..b"@example.com'],
  ['user@xn--bcher-kva.example', 'user@xn--bcher-kva.example'],
  ['user@bücher.example', 'user@xn--bcher-kva.example'],
  ['user@日本.jp', 'user@xn--wgv71a.jp'],
  ['user@a-b.example', 'user@a-b.example'],
  ['user@123.example', 'user@123.example'],
  ['user@example.co.jp', 'user@example.co.jp'],
  [`${'a'.repeat(64)}@example.com`, `${'a'.repeat(64)}@example.com`],
  [`u@${'a'.repeat(63)}.example`, `u@${'a'.repeat(63)}.example`],
];

const BAD: string[] = [
  '',
  'plainaddress',
  '@example.com',
  'user@',
  'user@@example.com',
  'user@exa@mple.com',
  'user@localhost',
  'user@example',
  'user@1.2.3.4',
  'user@[127.0.0.1]',
  'user@[IPv6:::1]',
  'user@.example.com',
  'user@example.com.',
  'user@example..com',
  'user@-example.com',
  'user@example-.com',
  'user@exa_mple.com',
  'user@exa mple.com',
  '.user@example.com',
  'user.@example.com',
  'us..er@example.com',
  'us er@example.com',
  'Name <user@example.com>',
  '<user@example.com>',
  'user@example.com (comment)',
  '(comment)user@example.com',
  'user(comment)@example.com',
  '"user"@allowed.example(x)evil.example',
  '"user"evil@example.com',
  '"user"@',
  '"unterminated@example.com',
  '""@example.com',
  'user@example.com\r\nBcc: x@evil.example',
  'user@example.com\nBcc: x@evil.example',
  'user\u0000@example.com',
  'usér@example.com',
  '-OQueueDirectory=/tmp -X/var/www/x',
  '-oQ@example.com',
  '"-X/var/www/x"@example.com',
  'group: a@example.com;',
  '@route:user@example.com',
  `${'a'.repeat(65)}@example.com`,
  `u@${'a'.repeat(64)}.example`,
  `${'a'.repeat(60)}@${Array.from({ length: 4 }, () => 'b'.repeat(60)).join('.')}.example`,
  'user@exam\tple.com',
  'user@example.com,',
  'user@xn--.example',
  '"a\u0007b"@example.com',
];

describe('address grammar', () => {
  it('has a corpus of at least 40 good and bad forms', () => {
    expect(GOOD.length + BAD.length).toBeGreaterThanOrEqual(40);
    expect(BAD.length).toBeGreaterThanOrEqual(40);
  });

  for (const [input, canonical] of GOOD) {
    it(`accepts ${JSON.stringify(input)}`, () => {
      expect(parseAddress(input)).toEqual({ ok: true, address: canonical });
    });
  }

  for (const input of BAD) {
    it(`refuses ${JSON.stringify(input.slice(0, 80))}`, () => {
      const r = parseAddress(input);
      expect(r.ok, JSON.stringify(r)).toBe(false);
    });
  }

  it('canonical forms are fixed points', () => {
    for (const [, canonical] of GOOD) expect(parseAddress(canonical)).toEqual({ ok: true, address: canonical });
  });
});

describe('address lists', () => {
  it('splits on commas outside quotes and skips empty items', () => {
    expect(parseAddressList('a@example.com, "x,y"@example.com ,, b@example.com,', 10)).toEqual({
      ok: true,
      addresses: ['a@example.com', '"x,y"@example.com', 'b@example.com'],
    });
    expect(parseAddressList('', 10)).toEqual({ ok: true, addresses: [] });
  });

  it('refuses the whole list when one item is bad', () => {
    const r = parseAddressList('a@example.com, Bob <b@example.com>', 10);
    expect(r.ok).toBe(false);
  });

  it('stops counting at the cap (10 000 recipients)', () => {
    const addresses = (n: number) => Array.from({ length: n }, (_, i) => `u${i}@example.com`);
    const r = parseAddressList(addresses(10_000).join(','), 100);
    expect(r).toEqual({ ok: false, reason: 'more than 100 recipients' });
    // the unterminated quote after the 101st item is never reached: a scan that went on would report it
    expect(parseAddressList(addresses(101).join(',') + ',"unterminated', 100)).toEqual({
      ok: false,
      reason: 'more than 100 recipients',
    });
    expect(parseAddressList(addresses(100).join(','), 100).ok).toBe(true);
  });

  // the reasons show the length check refused them before the comment and quote parsers ran;
  // the test's timeout is the bound on a parser that would recurse or backtrack through them
  it('refuses 100 KB of comment nesting quickly', () => {
    const nested = `a@example.com${'('.repeat(50_000)}${')'.repeat(50_000)}`;
    expect(parseAddressList(nested, 100)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/: longer than 254 characters$/),
    });
    expect(parseAddress(nested)).toEqual({ ok: false, reason: 'longer than 254 characters' });
    const quotes = `${'"'.repeat(100_001)}@example.com`;
    expect(parseAddressList(quotes, 100)).toEqual({ ok: false, reason: 'unterminated quoted local part' });
  }, 5_000);
});
