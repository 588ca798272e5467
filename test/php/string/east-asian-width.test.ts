/**
 * isWide's shortcuts (below the table, kana, the unified ideographs) answer as the table's search
 * does, for every code point of the BMP and the planes the table reaches.
 */
import { describe, expect, it } from 'vitest';
import { isWide } from '../../../src/php/string/mb.js';
import { WIDE_RANGES } from '../../../src/php/string/east-asian-width.js';

const LAST = 0x3ffff;
/** The table marked out code point by code point. */
const wide = new Uint8Array(LAST + 1);
for (let i = 0; i < WIDE_RANGES.length; i += 2)
  for (let cp = WIDE_RANGES[i]!; cp <= Math.min(WIDE_RANGES[i + 1]!, LAST); cp++) wide[cp] = 1;

describe('isWide', () => {
  it('agrees with the table on every code point up to U+3FFFF', () => {
    const differ: string[] = [];
    for (let cp = 0; cp <= LAST; cp++) if (isWide(cp) !== (wide[cp] === 1)) differ.push(cp.toString(16));
    expect(differ).toEqual([]);
  });
});
