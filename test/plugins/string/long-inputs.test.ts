/**
 * Subjects longer than NATIVE_REPLACE_MAX take the paths the CPU timeout can stop (a replace one
 * match at a time, counts without arrays, splits in chunks: HH-08); the answers must stay PHP's.
 * Live PHP: the inputs are generated, not committed.
 */
import { describe, expect, it } from 'vitest';
import type { Value } from '../../../src/value/value.js';
import { NATIVE_REPLACE_MAX } from '../../../src/value/replace-each.js';
import { callPhp, type Tagged } from '../../support/php-oracle.js';
import { Prng } from '../../support/prng.js';
import { ctxFor, modifiers, outcome, phpCall, runModifier } from './support.js';

/** Text with every character the changed modifiers look at, long enough for the long paths. */
function longText(seed: number): string {
  const r = new Prng(seed);
  const bits = [
    'abc',
    'XYZ',
    ' ',
    '  ',
    '\t',
    '\r\n',
    '\n',
    '\r',
    '\n\r',
    '日本語',
    'é',
    '😀',
    '"',
    "'",
    "\\'",
    '@',
    '.',
    'a.',
    '<b>',
    '</p>',
    '<',
    '>',
    '&amp;',
    '&#x41;',
    '&#65;',
    '&bogus;',
    '%41',
    '%2F',
    '%zz',
    '+',
    '/',
    '!',
    '(',
    ')',
    '*',
    '~',
    ',',
    'ü',
  ];
  let s = '';
  while (s.length < NATIVE_REPLACE_MAX + 20_000) s += r.pick(bits);
  return s;
}

const CASES: [string, Value[]][] = [
  ['escape', ['url']],
  ['escape', ['urlpathinfo']],
  ['escape', ['quotes']],
  ['escape', ['mail']],
  ['escape', ['hex']],
  ['escape', ['hexentity']],
  ['escape', ['decentity']],
  ['escape', ['nonstd']],
  ['escape', ['html']],
  ['nl2br', []],
  ['strip', []],
  ['strip', ['&nbsp;']],
  ['strip_tags', []],
  ['count_characters', []],
  ['count_characters', [true]],
  ['count_words', []],
  ['count_paragraphs', []],
  ['count_sentences', []],
  ['indent', [2, '>']],
  ['escapeCSV', []],
  ['spacify', ['-']],
  ['strtolower', []],
  ['strtoupper', []],
  ['replace', ['a', '[A]']],
  ['replace', ['日本', 'x']],
  ['urlencode', []],
  ['rawurldecode', []],
  ['html_entity_decode', []],
];

describe('long subjects', () => {
  it('the modifiers that replace, count or split agree with php past NATIVE_REPLACE_MAX characters', () => {
    const text = longText(17);
    const cases = CASES.filter(([mod]) => modifiers.has(mod));
    // every listed modifier is a string or html modifier (a renamed one would drop out silently)
    expect(cases.length).toBe(CASES.length);
    const calls = cases.map(([mod, args]) =>
      phpCall(modifiers.get(mod)!.origin === 'php' ? mod : `smarty_modifier_${mod}`, [text, ...args]),
    );
    const results = callPhp(calls);
    const bad: string[] = [];
    cases.forEach(([mod, args], i) => {
      const r = results[i];
      const expected: Tagged | 'error' = r.ok ? r.value! : 'error';
      const ours = outcome(() => runModifier(mod, text, args, ctxFor()));
      if (JSON.stringify(ours) !== JSON.stringify(expected)) bad.push(`${mod} ${JSON.stringify(args)}`);
    });
    expect(bad).toEqual([]);
  });
});
