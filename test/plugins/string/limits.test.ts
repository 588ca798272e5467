/** Size guards and type errors of the string modifiers. */
import { describe, expect, it } from 'vitest';
import { PhpArray } from '../../../src/value/value.js';
import { PhpTypeError } from '../../../src/value/convert.js';
import { LimitError } from '../../../src/value/limits.js';
import { runModifier } from './support.js';

describe('size guards', () => {
  it.each([
    ['str_pad', 'a', [1e9]],
    ['indent', 'a\nb', [1e8, 'xx']],
    ['spacify', 'x'.repeat(5000), ['y'.repeat(5000)]],
    ['wordwrap', 'a b c d e f g h', [1, 'x'.repeat(4_000_000)]],
    ['replace', 'a'.repeat(5000), ['a', 'b'.repeat(5000)]],
  ])('%s refuses to build a huge string', (mod, input, args) => {
    expect(() => runModifier(mod, input, args)).toThrow(LimitError);
  });
});

describe('arrays where PHP 8 wants a string', () => {
  const arr = PhpArray.fromList(['a']);
  it.each([
    'strlen',
    'trim',
    'ucfirst',
    'md5',
    'base64_encode',
    'urlencode',
    'mb_strlen',
    'wordwrap',
    'lower',
    'truncate',
    'count_words',
    'spacify',
    'nl2br',
  ])('%s throws PhpTypeError', (mod) => {
    expect(() => runModifier(mod, arr)).toThrow(PhpTypeError);
  });
  it.each(['escape', 'strtolower', 'strtoupper', 'substr', 'cat', 'escapeCSV'])(
    '%s gives an empty string (platform rule)',
    (mod) => {
      expect(runModifier(mod, arr, mod === 'substr' ? [0] : [])).toBe('');
    },
  );
});
