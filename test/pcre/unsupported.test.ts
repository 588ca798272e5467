/**
 * Features without an exact JavaScript translation raise PcreError naming the feature,
 * while PHP itself accepts the pattern (checked with PHP's committed answers in
 * test/fixtures/php/pcre/unsupported.json, so these are not just invalid patterns we failed to parse).
 */
import { expect, test } from 'vitest';
import { phpGolden } from '../support/php-golden.js';
import { PcreError } from '../../src/php/pcre/pcre-error.js';
import { pregMatch } from '../../src/php/pcre/preg.js';
import { compilePattern } from '../../src/php/pcre/translate.js';

const UNSUPPORTED: [string, RegExp][] = [
  ['/a\\Kb/', /\\K/],
  ['/\\Ga/', /\\G/],
  ['/(a(?1)?b)/', /recursion/],
  ['/(?R)?a/', /recursion/],
  ['/(?P<n>a)(?P>n)/', /subroutine/],
  ['/(a)?(?(1)b|c)/', /conditional/],
  ['/(*SKIP)a/', /verbs/],
  ['/(?|(a)|(b))/', /branch reset/],
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
  const php = phpGolden('pcre/unsupported', UNSUPPORTED.map(([p]) => ({ fn: 'preg_match', args: [p, 'ab'] })));
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
  expect(() => pregMatch('/a\\Kb/', 'ab')).toThrow(PcreError);
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

test('invalid patterns are PHP warnings with false, not PcreError', () => {
  const warnings: string[] = [];
  expect(pregMatch('/(/', 'a', 0, 0, (m) => warnings.push(m)).result).toBe(false);
  expect(warnings).toEqual(['preg_match(): Compilation failed: missing closing parenthesis at offset 1']);
});
