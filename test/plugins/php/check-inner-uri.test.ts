/**
 * check_inner_uri is a platform helper (no PHP reference): the documented rules are tested
 * as tables, and the security property is checked against an independent oracle, the
 * WHATWG URL parser browsers use: whatever we accept must resolve, from a page of the
 * site, to the site's own host and port. Open-redirect payloads and seeded fuzz feed it.
 */
import { describe, expect, it } from 'vitest';
import { PhpArray } from '../../../src/value/value.js';
import { testModifierContext } from '../../support/plugin-context.js';
import { runModifier, randomString, seeded } from './support.js';

const ROOT = 'https://example.com';
const check = (url: unknown, rootUrl = ROOT) =>
  runModifier('check_inner_uri', url as never, [], testModifierContext({ rootUrl }));

const inner = [
  '/',
  '/news/',
  '/news/?id=1',
  '/?q=1',
  '/#top',
  '/a/../b',
  '/%2F/evil.test',
  '/@evil.test',
  '/:80',
  '/http://evil.test',
  'https://example.com',
  'https://example.com/',
  'http://example.com/news',
  'HTTPS://example.com/x',
  'https://example.com?x=1',
  'https://example.com#f',
  'https://example.com:443/',
  'http://example.com:80/',
  '//example.com/path',
  '//example.com',
];

const outer = [
  // other hosts and look-alikes
  'https://evil.test/',
  '//evil.test',
  '///evil.test',
  '////evil.test',
  'https://example.com.evil.test/',
  'https://evil.test/example.com',
  'https://example.co',
  'https://sub.example.com/',
  'https://example.comevil.test',
  'https://xexample.com',
  // user info tricks
  'https://example.com@evil.test',
  'https://example.com:443@evil.test/',
  'https://user@example.com/',
  'https://evil.test@example.com/',
  'https://example.com%40evil.test',
  'https://example.com%2F@evil.test',
  // backslashes, whitespace and control characters
  '/\\evil.test',
  '\\\\evil.test',
  '/\\/evil.test',
  'https:\\\\evil.test',
  'https://example.com\\@evil.test',
  ' //evil.test',
  '/\t/evil.test',
  '/\n/evil.test',
  '\t//evil.test',
  '/ /evil.test',
  '/%09/evil.test x',
  'https://example.com/\x00',
  // other schemes and scheme tricks
  'javascript:alert(1)',
  'JavaScript:alert(1)',
  'java\tscript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'vbscript:msgbox(1)',
  'mailto:a@example.com',
  'ftp://example.com/',
  'https:example.com',
  'https:/example.com',
  'https:///example.com',
  'http:evil.test',
  'file:///etc/passwd',
  // host spelling
  'https://EXAMPLE.com/',
  'https://Example.Com/',
  'https://example.com./',
  'https://exa%6Dple.com/',
  'https://ｅｘａｍｐｌｅ.com/',
  'https://例え.jp/',
  'https://xn--r8jz45g.jp/',
  'https://[::1]/',
  'https://127.0.0.1/',
  'https://0x7f.1/',
  // ports
  'https://example.com:8443/',
  'http://example.com:443/',
  'https://example.com:/',
  'https://example.com:80/',
  '//example.com:443/',
  // not absolute, not single-slash
  '',
  'news/1',
  './x',
  '../x',
  '?q=1',
  '#top',
  'example.com',
  'evil.test/path',
];

describe('check_inner_uri rules', () => {
  for (const url of inner) it(`accepts ${JSON.stringify(url)}`, () => expect(check(url)).toBe(true));
  for (const url of outer) it(`refuses ${JSON.stringify(url)}`, () => expect(check(url)).toBe(false));

  it('is false for non-strings', () => {
    for (const v of [null, true, 1, 1.5, PhpArray.fromList(['/x'])]) expect(check(v)).toBe(false);
  });

  it('compares with ROOT_URL: its port, its case-folded host, and nothing without it', () => {
    expect(check('https://example.com:8443/x', 'https://example.com:8443')).toBe(true);
    expect(check('https://example.com/x', 'https://example.com:8443')).toBe(false);
    expect(check('https://example.com/x', 'https://Example.COM/base/')).toBe(true);
    expect(check('https://example.com/x', '')).toBe(false);
    expect(check('/x', '')).toBe(true);
    expect(check('https://example.com/x', 'ftp://example.com')).toBe(false);
  });
});

describe('check_inner_uri never accepts a URL that leaves the site (WHATWG URL as oracle)', () => {
  const base = new URL('/some/page?x=1', ROOT);
  const stays = (url: string) => {
    try {
      const u = new URL(url, base);
      return (
        (u.protocol === 'https:' || u.protocol === 'http:') &&
        u.hostname === 'example.com' &&
        (u.port === '' || (u.protocol === 'https:' && u.port === '443') || (u.protocol === 'http:' && u.port === '80'))
      );
    } catch {
      return false;
    }
  };

  it('holds for every hand case', () => {
    for (const url of [...inner, ...outer]) if (check(url)) expect(stays(url), url).toBe(true);
  });

  it('holds for 3000 seeded fuzz strings built from redirect-payload pieces', () => {
    const rnd = seeded(99);
    const pieces = [
      '/',
      '//',
      '\\',
      '@',
      ':',
      '.',
      'example.com',
      'evil.test',
      'https:',
      'http:',
      'javascript:',
      '%2f',
      '%40',
      '?',
      '#',
      ' ',
      '\t',
      '\n',
      '443',
      '80',
      'EXAMPLE.COM',
      '..',
      'x',
      '[',
      ']',
      '\x00',
      'ｅ',
      '%00',
    ];
    let accepted = 0;
    for (let i = 0; i < 3000; i++) {
      const url = randomString(rnd, pieces, 6);
      if (check(url)) {
        accepted++;
        expect(stays(url), JSON.stringify(url)).toBe(true);
      }
    }
    expect(accepted).toBeGreaterThan(50); // the fuzz does reach the accepting paths
  });
});
