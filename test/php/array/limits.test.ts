/** Size guards of the array modifiers that build strings. */
import { describe, expect, it } from 'vitest';
import { PhpArray } from '../../../src/value/value.js';
import { LimitError, MAX_STRING_LENGTH } from '../../../src/value/limits.js';
import { implode } from '../../../src/php/array/join.js';

describe('implode and join refuse to build a string past the limit', () => {
  const quarter = 'x'.repeat(MAX_STRING_LENGTH / 4 - 1);
  it('up to the limit: four quarters and three one-character separators', () => {
    expect(implode(',', PhpArray.fromList([quarter, quarter, quarter, quarter])).length).toBe(MAX_STRING_LENGTH - 1);
    expect(implode(',', PhpArray.fromList([quarter, quarter, quarter, quarter + 'y'])).length).toBe(MAX_STRING_LENGTH);
  });
  it('one character more, in a value or in a separator', () => {
    expect(() => implode(',', PhpArray.fromList([quarter, quarter, quarter, quarter + 'yz']))).toThrow(LimitError);
    expect(() => implode(',;', PhpArray.fromList([quarter, quarter, quarter, quarter]))).toThrow(LimitError);
  });
  it('a huge separator between many small values', () => {
    const values = PhpArray.fromList(Array.from({ length: 100 }, () => 'a'));
    expect(() => implode('s'.repeat(200_000), values)).toThrow(/implode would build a string/);
  });
});
