/**
 * Features without an exact JavaScript translation raise PcreError naming the feature,
 * while PHP itself accepts the pattern (checked with PHP's committed answers in
 * test/fixtures/php/php/pcre/unsupported.json, so these are not just invalid patterns we failed to parse).
 */
import { expect, test } from 'vitest';
import { phpGolden } from '../../support/php-golden.js';
import { PcreError } from '../../../src/php/pcre/pcre-error.js';
import { pregMatch } from '../../../src/php/pcre/preg.js';
import { compilePattern } from '../../../src/php/pcre/translate.js';

const UNSUPPORTED: [string, RegExp][] = [
  ['/(?<=\\Ka)b/', /\\K inside a lookahead or lookbehind/],
  ['/(?=a\\K)a/', /\\K inside a lookahead or lookbehind/],
  ['/(?:a\\K|b)+/', /\\K in a repeated group that may skip it/],
  ['/(?:a\\K)*+b/', /possessive/],
  ['/(?<=\\G.)a(?<=\\Ga)/', /\\G both/],
  ['/(a(?1)?b)/', /recursion/],
  ['/(?R)?a/', /recursion/],
  ['/(?P<n>a)(?P>n)/', /subroutine/],
  ['/(a)?(?(1)b|c)/', /conditional/],
  ['/(*SKIP)a/', /verbs/],
  ['/(?|(a)|b)+/', /capture group that a repeated group may skip/],
  ['/(?|(a)|b)\\1/', /may be unset/],
  ['/(?|(a)|(b))?\\1/', /branch reset group that may be unset/],
  ['/\\X/u', /grapheme/],
  ['/\\C/', /\\C/],
  ['/(?:(a)|b)+/', /capture group that a repeated group may skip/],
  ['/(a|)+b/', /empty string/],
  ['/(a)?\\1b/', /may be unset/],
  ['/\\1(a)/', /not closed/],
  ['/(a)*+b/', /possessive/],
  ['/(?=a)*a/', /lookaround/],
  ['/(a)(?i)\\1/', /partly case-insensitive/],
  ['/(?i)é(?-i)a/u', /non-ASCII/],
  ['/\\p{Lu}/i', /case-insensitive/],
  ['/\\p{Alphabetic}/u', /property/],
  ['/a/J', /J modifier/],
  ['/(?<=\\1(a))b/', /lookbehind|not closed/],
];

test('unsupported features raise PcreError naming them, and PHP accepts each pattern', () => {
  const php = phpGolden(
    'php/pcre/unsupported',
    UNSUPPORTED.map(([p]) => ({ fn: 'preg_match', args: [p, 'ab'] })),
  );
  UNSUPPORTED.forEach(([pattern, message], i) => {
    expect(php[i].warnings ?? [], pattern).toEqual([]);
    let error: unknown = null;
    try {
      compilePattern(pattern);
    } catch (e) {
      error = e;
    }
    expect(error, pattern).toBeInstanceOf(PcreError);
    expect((error as PcreError).code).toBe('E_REGEX_UNSUPPORTED');
    expect((error as Error).message, pattern).toMatch(message);
  });
});

test('preg functions let PcreError through instead of answering differently', () => {
  expect(() => pregMatch('/(?<=\\Ka)b/', 'ab')).toThrow(PcreError);
});

test('huge patterns are refused as too large', () => {
  let error: unknown = null;
  try {
    compilePattern('/' + 'a'.repeat(70000) + '/');
  } catch (e) {
    error = e;
  }
  expect((error as PcreError).code).toBe('E_REGEX_TOO_LARGE');
});

test('patterns whose native compile would be long are refused: Unicode property classes, long translations', () => {
  const code = (pattern: string): string => {
    try {
      compilePattern(pattern);
      return 'ok';
    } catch (e) {
      return e instanceof PcreError ? e.code : String(e);
    }
  };
  // in UTF mode \b becomes 8 property classes; 32,000 of them compiled for 56 s
  expect(code('/' + '\\b'.repeat(32_000) + '/u')).toBe('E_REGEX_TOO_LARGE');
  expect(code('/' + '[\\p{L}\\p{N}]'.repeat(5000) + '/u')).toBe('E_REGEX_TOO_LARGE');
  expect(code('/' + '[\\w\\d]'.repeat(10_000) + '/iu')).toBe('E_REGEX_TOO_LARGE');
  // \R is cheap per character but 32,000 of them translate to 1.4 M characters
  expect(code('/' + '\\R'.repeat(32_000) + '/u')).toBe('E_REGEX_TOO_LARGE');
  // realistic UTF patterns stay well inside
  expect(code('/^[\\w.+-]+@[\\w-]+(?:\\.[\\w-]+)+$/u')).toBe('ok');
  expect(code('/\\b(?:' + Array.from({ length: 20 }, (_, i) => `word${i}`).join('|') + ')\\b/iu')).toBe('ok');
  expect(code('/' + '\\p{Han}'.repeat(200) + '/u')).toBe('ok');
}, 10_000); // a bound on the whole test: 32,000 \b compiled for 56 s before the refusal

test('invalid patterns are PHP warnings with false, not PcreError', () => {
  const warnings: string[] = [];
  expect(pregMatch('/(/', 'a', 0, 0, (m) => warnings.push(m)).result).toBe(false);
  expect(warnings).toEqual(['preg_match(): Compilation failed: missing closing parenthesis at offset 1']);
});
