/**
 * Natives a template can size, bounded before they run (HH-08): a global replace or a split of a
 * 16M-character string, an array of its pieces, a packed buffer. Each helper must give what the
 * native call gives, and refuse what would pass the size limits with E_SIZE_LIMIT.
 */
import { describe, expect, it, vi } from 'vitest';
import { NATIVE_REPLACE_MAX, encodeUriComponentEach, replaceEach } from '../../src/value/replace-each.js';
import { countMatches } from '../../src/value/count-matches.js';
import { LimitError, MAX_ARRAY_LENGTH, MAX_STRING_LENGTH, checkSplitLength } from '../../src/value/limits.js';
import { AssignError, assignVar, newScope } from '../../src/value/assign.js';
import { PhpArray } from '../../src/value/value.js';
import {
  MAX_REQUEST_CHARS,
  MAX_REQUEST_VALUES,
  TransferError,
  checkTransferSize,
  encodeValue,
} from '../../src/protocol/transfer.js';
import { explode } from '../../src/php/array/join.js';
import { strReplaceOne } from '../../src/php/string/search.js';
import { parseEquation } from '../../src/php/math/expression.js';
import { mbConvertEncoding } from '../../src/php/string/convert-encoding.js';
import { plugins as arrayPlugins } from '../../src/plugins/array/index.js';
import { plugins as corePlugins } from '../../src/plugins/core/index.js';
import { plugins as jsonPlugins } from '../../src/plugins/json/index.js';
import { plugins as regexPlugins } from '../../src/plugins/regex/index.js';
import type { FunctionPlugin, ModifierPlugin } from '../../src/plugins/types.js';
import { testModifierContext, testPluginContext } from '../support/plugin-context.js';

/** How often JSON.stringify ran during `run`: over a 16M-character value one call is seconds of native work. */
function stringifyCallsDuring(run: () => void): number {
  const stringify = vi.spyOn(JSON, 'stringify');
  try {
    run();
    return stringify.mock.calls.length;
  } finally {
    stringify.mockRestore();
  }
}

const LONG = NATIVE_REPLACE_MAX * 3 + 7;

const fn = (name: string): FunctionPlugin =>
  [...arrayPlugins, ...corePlugins].find((p): p is FunctionPlugin => p.kind === 'function' && p.name === name)!;
const mod = (name: string): ModifierPlugin =>
  [...jsonPlugins, ...regexPlugins].find((p): p is ModifierPlugin => p.kind === 'modifier' && p.name === name)!;

describe('replaceEach: the native replace, one match at a time past NATIVE_REPLACE_MAX', () => {
  const cases: [string, RegExp, (m: string, ...g: string[]) => string][] = [
    ['ab'.repeat(LONG / 2), /b/g, () => '[b]'],
    // matches across every 64K boundary
    ['xy'.repeat(LONG), /yx/g, (m) => m.toUpperCase()],
    ['a\r\nb\rc\n'.repeat(LONG / 7), /\r\n?/g, () => '\n'],
    // unset groups are passed as undefined
    [
      '&amp;&#65;'.repeat(LONG / 10),
      /&(#)?([a-z0-9]+);/g,
      (whole, hash, body) => `${hash === undefined ? 'u' : 'h'}:${body}`,
    ],
    // empty matches step a code unit, or a code point with u
    ['a😀b'.repeat(LONG / 4), /(?:)/g, () => '|'],
    ['a😀b'.repeat(LONG / 4), /(?:)/gu, () => '|'],
    ['no match here '.repeat(LONG / 14), /[0-9]/g, () => 'digit'],
  ];
  it.each(cases.map((c, i) => [i, ...c] as const))('case %i agrees with String.prototype.replace', (_i, s, re, f) => {
    expect(s.length).toBeGreaterThan(NATIVE_REPLACE_MAX);
    expect(replaceEach(s, re, f, 'test')).toBe(s.replace(re, f));
  });
  it('refuses a result past the string limit as it grows', () => {
    expect(() => replaceEach('\n'.repeat(3_000_000), /\n/g, () => '<br />\n', 'nl2br')).toThrow(LimitError);
  });
  it('encodeUriComponentEach never splits a surrogate pair', () => {
    const s = 'a' + '😀'.repeat(LONG);
    expect(encodeUriComponentEach(s, 'test')).toBe(encodeURIComponent(s));
  });
});

describe('counts without arrays', () => {
  it('countMatches counts what match() would, empty matches included', () => {
    const s = 'a.b. c.\n\n\nd'.repeat(50_000);
    for (const re of [/\./g, /\n+/g, /[^ ]\.(?![a-z])/g, /(?:)/g])
      expect(countMatches(s, re)).toBe(s.match(re)!.length);
  });
});

describe('splits checked before the array exists', () => {
  const many = ','.repeat(MAX_ARRAY_LENGTH + 5);
  it('checkSplitLength: limit on the pieces, counted only when the text is long enough', () => {
    expect(() => checkSplitLength(many, ',', 'test')).toThrow(LimitError);
    expect(() => checkSplitLength(','.repeat(MAX_ARRAY_LENGTH - 1), ',', 'test')).not.toThrow();
    expect(() => checkSplitLength('x'.repeat(MAX_ARRAY_LENGTH + 1), '', 'test')).toThrow(LimitError);
    expect(() => checkSplitLength('ab'.repeat(MAX_ARRAY_LENGTH), 'ab', 'test')).toThrow(LimitError);
  });
  it('explode, split, assign_array keys, cycle values, rcms_json_encode and mb_convert_encoding refuse more than MAX_ARRAY_LENGTH pieces', () => {
    expect(() => explode(',', many)).toThrow(LimitError);
    expect(explode(',', ','.repeat(999)).size).toBe(1000);
    const split = mod('split');
    expect(() => split.run!(',', [many], testModifierContext())).toThrow(LimitError);
    const ctx = testPluginContext();
    expect(() => fn('assign_array').run!({ var: 'x', values: 'a', delimiter: ',', keys: many }, ctx)).toThrow(
      LimitError,
    );
    expect(() =>
      fn('cycle').run!({ name: 'c', values: many, delimiter: ',', print: true, advance: true }, ctx),
    ).toThrow(LimitError);
    const boundary = '__RCMS_CONTENT_BOUNDARY__';
    expect(() =>
      mod('rcms_json_encode').run!(boundary.repeat(MAX_ARRAY_LENGTH + 1), [], testModifierContext()),
    ).toThrow(LimitError);
    expect(() => mbConvertEncoding('x', 'UTF-8', many)).toThrow(LimitError);
  });
  it('str_replace past MAX_ARRAY_LENGTH occurrences joins a batch at a time, with the same result', () => {
    const s = 'ab'.repeat(MAX_ARRAY_LENGTH + 100);
    expect(strReplaceOne(s, 'a', 'x')).toBe(s.split('a').join('x'));
    expect(strReplaceOne(s, 'ab', '')).toBe('');
    expect(() => strReplaceOne(s, 'a', 'y'.repeat(20))).toThrow(LimitError);
  });
  it('math: at most MAX_ARRAY_LENGTH tokens', () => {
    expect(() => parseEquation('1+'.repeat(MAX_ARRAY_LENGTH) + '1')).toThrow(LimitError);
  });
  it('a variable name of millions of dots is refused without splitting it', () => {
    expect(() => assignVar(newScope(), 'a' + '.b'.repeat(MAX_ARRAY_LENGTH * 4), 1)).toThrow(AssignError);
    const scope = newScope();
    assignVar(scope, 'a.b.c.d.', 1);
    expect((scope.a as PhpArray).get('b')).toBeInstanceOf(PhpArray);
  });
  it('host call values past MAX_REQUEST_CHARS are refused before JSON.stringify builds their text', () => {
    const big = 'x'.repeat(MAX_STRING_LENGTH);
    const forty = PhpArray.fromList(Array.from({ length: 40 }, () => big));
    const check = () => checkTransferSize([encodeValue(forty)], '{write_file}');
    // JSON.stringify of these 640M characters took 4.7 s only to fail
    expect(stringifyCallsDuring(() => expect(check).toThrow(TransferError))).toBe(0);
    expect(() => checkTransferSize([encodeValue('x'.repeat(MAX_REQUEST_CHARS - 2))], 'x')).not.toThrow();
    expect(() =>
      checkTransferSize(
        [encodeValue(PhpArray.fromList(['x'.repeat(MAX_REQUEST_CHARS / 2), 'y'.repeat(MAX_REQUEST_CHARS / 2)]))],
        'x',
      ),
    ).toThrow(TransferError);
  });
  it('host call values past a count are refused, keys not counted, scalars and arrays at any depth counted', () => {
    const list = (n: number) => PhpArray.fromList(Array.from({ length: n }, () => 'a'));
    expect(() => checkTransferSize([encodeValue(list(9))], 'x', 10)).not.toThrow();
    expect(() => checkTransferSize([encodeValue(list(10))], 'x', 10)).toThrow(/too many .* \(over 10 values\)/);
    expect(() => checkTransferSize([encodeValue(PhpArray.fromList([list(3), list(4)]))], 'x', 10)).not.toThrow();
    expect(() => checkTransferSize([encodeValue(PhpArray.fromList([list(4), list(4)]))], 'x', 10)).toThrow(
      TransferError,
    );
    // Without a count, as for an embedder plugin's answer, only the characters bound it.
    expect(() => checkTransferSize([encodeValue(list(MAX_REQUEST_VALUES * 2))], 'x')).not.toThrow();
  });
  it('cycle compares a new list element by element, not through one JSON text of it', () => {
    const big = 'x'.repeat(MAX_STRING_LENGTH);
    const ctx = testPluginContext();
    const list = PhpArray.fromList([big, ...Array.from({ length: 40 }, () => 'y' + big)]);
    const calls = stringifyCallsDuring(() => {
      fn('cycle').run!({ name: 'c', values: list, assign: 'v' }, ctx);
      fn('cycle').run!({ name: 'c', values: list, assign: 'v' }, ctx);
    });
    expect(calls).toBe(0);
    // the second call found the same list: it advanced instead of starting over
    expect(ctx.scope.v).toBe('y' + big);
  });
});
