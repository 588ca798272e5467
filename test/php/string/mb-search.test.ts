/**
 * mb_strpos and mb_stripos on text that is not valid UTF-8 (stray bytes, kept as bytes.ts says),
 * against PHP 8.2: truncated sequences, lone continuation bytes, overlongs, encoded surrogates and
 * code points past U+10FFFF, in the haystack, the needle or both, at offsets of both signs.
 * PHP 8.2's mb_strpos searches the bytes as they are; mb_stripos folds both strings first, each
 * invalid sequence one `?`.
 */
import { describe, it } from 'vitest';
import { mbStripos, mbStrpos } from '../../../src/php/string/mb.js';
import { fromBytes } from '../../../src/value/bytes.js';
import { type Case, compareWithPhp, expectAgreement } from '../../support/oracle-args.js';

const b = (...bytes: number[]) => fromBytes(new Uint8Array(bytes));
const PIECES: string[] = [
  'a',
  'A',
  b(0xff),
  b(0x80),
  b(0xc3),
  b(0xc3, 0xa9), // é
  b(0xc3, 0x89), // É
  b(0xe6, 0x97),
  b(0xf0, 0x9f, 0x98),
  b(0xf0, 0x9f, 0x98, 0x80), // 😀
  b(0xc0, 0xaf),
  b(0xed, 0xa0, 0x80),
  b(0xf4, 0x90, 0x80, 0x80),
];

/** `x`, two pieces and `y`: the `y` keeps a truncated sequence's table step inside the string. */
function grid(fn: 'mb_strpos' | 'mb_stripos'): Case[] {
  const ours = fn === 'mb_strpos' ? mbStrpos : mbStripos;
  const cases: Case[] = [];
  for (const p of PIECES)
    for (const q of PIECES) {
      const hay = `x${p}${q}y`;
      if (hay.isWellFormed()) continue;
      for (const needle of [p, `${p}${q}`, `${q}y`])
        for (const offset of [0, 2, 3, -1, -3])
          cases.push({ fn, args: [hay, needle, offset], ours: () => ours(hay, needle, offset) });
    }
  // An empty needle (the position of the offset itself), a needle of continuation bytes inside a
  // character, a needle longer than the haystack, offsets out of range.
  const more: [string, string, number][] = [
    [`a${b(0x80)}b`, '', 2],
    [`a${b(0x80)}b`, '', -1],
    [`a${b(0xc0, 0xaf)}b`, '', 2],
    [`a${b(0xe6, 0x97)}b`, '', 2],
    [`a${b(0xe6, 0x97)}b`, '', -2],
    [`日${b(0xff)}`, b(0x97, 0xa5), 0],
    [`x${b(0xe6, 0x97)}日`, b(0xa5), 0],
    [`a${b(0xff)}`, `a${b(0xff)}b`, 0],
    [`a${b(0xff)}`, 'a', 3],
    [`a${b(0x80)}`, 'a', -2],
    [`a${b(0x80)}`, 'a', -3],
    [b(0x80, 0x80, 0x80), b(0x80), -1],
  ];
  for (const [hay, needle, offset] of more)
    cases.push({ fn, args: [hay, needle, offset], ours: () => ours(hay, needle, offset) });
  return cases;
}

describe('mb_strpos and mb_stripos on invalid UTF-8', () => {
  it('mb_strpos', () => {
    expectAgreement(compareWithPhp(grid('mb_strpos'), 'php/string/mb-strpos-bytes'));
  });
  it('mb_stripos', () => {
    expectAgreement(compareWithPhp(grid('mb_stripos'), 'php/string/mb-stripos-bytes'));
  });
});
