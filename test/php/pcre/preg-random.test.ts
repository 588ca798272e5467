/**
 * Seeded randomized differential test: patterns built from a pool of supported fragments,
 * random modifiers and random subjects (ASCII, Japanese, newlines), run through
 * preg_match / preg_match_all / preg_replace / preg_split here and in PHP 8.2.
 * Patterns we refuse (PcreError) are counted, never compared; all others must agree.
 */
import { expect, test } from 'vitest';
import { PcreError } from '../../../src/php/pcre/pcre-error.js';
import { compilePattern } from '../../../src/php/pcre/translate.js';
import { differences, type PregCall } from './differential.js';
import { mulberry32 } from '../../support/prng.js';

const ATOMS = [
  'a',
  'b',
  'c',
  'ab',
  'x',
  '.',
  '\\d',
  '\\w',
  '\\s',
  '\\W',
  '\\S',
  '\\D',
  '\\h',
  '[a-c]',
  '[^b]',
  '[[:alpha:]]',
  '[[:digit:]x]',
  '[\\d_]',
  '日',
  '本',
  '[日本]',
  '\\bx',
  '\\B',
  '^',
  '$',
  '\\A',
  '\\z',
  '\\Z',
  '(a|b)',
  '(?:ab|c)',
  '(\\w+)',
  '(?<n>b)',
  '(?P<k>[a-c]+)',
  '(a)?',
  '(?=[ab])',
  '(?!b)',
  '(?<=a)',
  '(?<!b)',
  '(?i:a)',
  '(?>b|bc)',
  'A',
  '\\.',
  '(x|)',
  '\\n',
  '(?:日|本)',
  '(b)c',
  '\\p{Han}',
  '[^\\s]',
  '\\N',
];
const QUANTS = ['', '', '', '*', '+', '?', '*?', '+?', '??', '{2}', '{1,2}', '{0,3}', '++', '*+'];
const MODS = ['', '', 'i', 'm', 's', 'u', 'x', 'U', 'D', 'iu', 'mu', 'su', 'im', 'A', 'ms', 'Uu'];
const CHARS = ['a', 'b', 'c', 'x', 'A', 'B', ' ', '\n', '1', '2', '_', '.', '日', '本', 'é', '\r', '\t'];
const REPLACEMENTS = ['-', '[$0]', '<$1>', '\\1\\1', '${1}x', '', '$2', '日'];

function build(rand: () => number): PregCall {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
  const n = 1 + Math.floor(rand() * 4);
  let body = '';
  for (let i = 0; i < n; i++) {
    const atom = pick(ATOMS);
    // Quantifiers only on atoms that PCRE lets repeat.
    const repeatable =
      !['^', '$', '\\A', '\\z', '\\Z', '\\B', '\\bx'].includes(atom) &&
      !atom.startsWith('(?=') &&
      !atom.startsWith('(?!') &&
      !atom.startsWith('(?<');
    body += atom + (repeatable && atom.length <= 2 ? pick(QUANTS) : repeatable && rand() < 0.3 ? pick(QUANTS) : '');
  }
  if (rand() < 0.15) body += '|' + pick(ATOMS);
  const pattern = '/' + body + '/' + pick(MODS);
  let subject = '';
  const len = Math.floor(rand() * 12);
  for (let i = 0; i < len; i++) subject += pick(CHARS);
  const which = rand();
  if (which < 0.35)
    return { fn: 'preg_match', args: [pattern, subject, pick([0, 256, 512, 768]), pick([0, 0, 0, 1, 3, -2])] };
  if (which < 0.55)
    return { fn: 'preg_match_all', args: [pattern, subject, pick([1, 2, 256 | 1, 256 | 2, 512 | 2]), 0] };
  if (which < 0.8) return { fn: 'preg_replace', args: [pattern, pick(REPLACEMENTS), subject, pick([-1, -1, 1, 2])] };
  return { fn: 'preg_split', args: [pattern, subject, pick([-1, -1, 0, 2, 3]), pick([0, 1, 2, 3, 4, 6, 7])] };
}

test('random preg_* calls agree with PHP 8.2', () => {
  const rand = mulberry32(Number(process.env.PCRE_SEED ?? 20240630));
  const calls: PregCall[] = [];
  let refused = 0;
  while (calls.length < 600) {
    const call = build(rand);
    try {
      compilePattern(String(call.args[0]));
    } catch (e) {
      if (e instanceof PcreError) {
        refused++;
        continue;
      }
    }
    calls.push(call);
  }
  expect(differences(calls)).toEqual([]);
  // Most generated patterns must be translatable, or the comparison says little.
  expect(refused).toBeLessThan(calls.length / 3);
});
