/**
 * Seeded random inputs through the byte-level helpers, compared with PHP: the places where a
 * transcription of PHP's C code can go subtly wrong (strip_tags' state machine, wordwrap,
 * the UTF-8 scanners of htmlspecialchars and mbstring, base64's lenient decoding, md5 padding).
 */
import { describe, expect, it } from 'vitest';
import type { Value } from '../../../src/value/value.js';
import { fromBytes } from '../../../src/value/bytes.js';
import { htmlentities, htmlspecialchars, htmlEntityDecode } from '../../../src/php/string/html.js';
import { stripTags } from '../../../src/php/string/strip-tags.js';
import { rawurlencode } from '../../../src/php/string/url.js';
import { strtrTable } from '../../../src/php/string/strtr.js';
import { PhpArray } from '../../../src/value/value.js';
import { callPhp } from '../../support/php-oracle.js';
import { outcome, phpCall, runModifier } from './support.js';
import { Prng } from '../../support/prng.js';

// A seeded generator, so that failures reproduce.
const prng = new Prng(20240229);
const rand = (n: number): number => prng.uint32() % n;

const PIECES = [
  '<',
  '>',
  '"',
  "'",
  '!',
  '-',
  '--',
  '?',
  'p',
  'b',
  'x',
  'm',
  'l',
  'a',
  ' ',
  '  ',
  '\n',
  '\t',
  '&',
  '#',
  ';',
  '&amp;',
  '&#39;',
  '&eacute;',
  '&#x41;',
  '<?xml',
  '<!--',
  '-->',
  '<!DOCTYPE',
  '<b>',
  '</b>',
  '<br/>',
  '<?php',
  '?>',
  '(',
  ')',
  '\\',
  '/',
  '=',
  '日',
  '本',
  'ｱ',
  'é',
  '😀',
  '\0',
  '%',
  '+',
  '%41',
  'Zm9v',
  '=',
  '\x80',
  '\xe6\x97',
  // Sequences mbstring's decoder breaks at the bad byte: a lead before a non-trail, a second
  // byte out of its lead's range (surrogates, past U+10FFFF).
  '\xc3',
  '\xfe',
  '\xed\xa0\x80',
  '\xf4\x90\x80\x80',
  '\xf0\x9f\x98',
];

function randomText(): string {
  const n = rand(14);
  let bytes = '';
  for (let i = 0; i < n; i++) bytes += PIECES[rand(PIECES.length)];
  // PIECES with \x.. escapes are raw bytes; the rest is UTF-8 text
  const enc = Buffer.concat(
    [...bytes].map((ch) =>
      ch.charCodeAt(0) >= 0x80 && ch.charCodeAt(0) <= 0xff && !'é'.includes(ch)
        ? Buffer.from([ch.charCodeAt(0)])
        : Buffer.from(ch, 'utf8'),
    ),
  );
  return fromBytes(new Uint8Array(enc));
}

interface Probe {
  label: string;
  php: [string, Value[]];
  ours: () => Value;
}

const probes: Probe[] = [];
for (let i = 0; i < 150; i++) {
  const s = randomText();
  const w = rand(12);
  probes.push(
    { label: 'strip_tags', php: ['strip_tags', [s]], ours: () => stripTags(s) },
    { label: 'strip_tags allowed', php: ['strip_tags', [s, '<b><br>']], ours: () => stripTags(s, '<b><br>') },
    { label: 'htmlspecialchars default', php: ['htmlspecialchars', [s]], ours: () => htmlspecialchars(s) },
    {
      label: 'htmlspecialchars no double',
      php: ['htmlspecialchars', [s, 3, 'UTF-8', false]],
      ours: () => htmlspecialchars(s, 3, 'utf-8', false),
    },
    { label: 'htmlentities ENT_QUOTES', php: ['htmlentities', [s, 3]], ours: () => htmlentities(s, 3) },
    {
      label: 'htmlentities latin1',
      php: ['htmlentities', [s, 3, 'ISO-8859-1']],
      ours: () => htmlentities(s, 3, 'iso-8859-1'),
    },
    {
      label: 'htmlentities ENT_NOQUOTES',
      php: ['htmlentities', [s + '"\'é', 0]],
      ours: () => htmlentities(s + '"\'é', 0),
    },
    {
      label: 'htmlentities ENT_COMPAT',
      php: ['htmlentities', [s + '"\'é', 2]],
      ours: () => htmlentities(s + '"\'é', 2),
    },
    { label: 'html_entity_decode', php: ['html_entity_decode', [s]], ours: () => htmlEntityDecode(s) },
    { label: 'rawurlencode', php: ['rawurlencode', [s]], ours: () => rawurlencode(s) },
    {
      label: 'rawurlencode with the characters encodeURIComponent keeps',
      php: ['rawurlencode', [s + "!'()*~ -_."]],
      ours: () => rawurlencode(s + "!'()*~ -_."),
    },
    {
      label: 'urlencode',
      php: ['urlencode', [s + "!'()*~ -_. +%20"]],
      ours: () => runModifier('urlencode', s + "!'()*~ -_. +%20"),
    },
    {
      label: 'wordwrap',
      php: ['wordwrap', [s, w, '\n', false]],
      ours: () => runModifier('wordwrap', s, [w, '\n', false]),
    },
    {
      label: 'wordwrap cut',
      php: ['wordwrap', [s, w + 1, '<br>', true]],
      ours: () => runModifier('wordwrap', s, [w + 1, '<br>', true]),
    },
    { label: 'base64_decode', php: ['base64_decode', [s]], ours: () => runModifier('base64_decode', s) },
    {
      label: 'base64_decode strict',
      php: ['base64_decode', [s, true]],
      ours: () => runModifier('base64_decode', s, [true]),
    },
    { label: 'md5', php: ['md5', [s.repeat(w + 1)]], ours: () => runModifier('md5', s.repeat(w + 1)) },
    {
      label: 'base64_encode',
      php: ['base64_encode', [s.repeat(w + 1)]],
      ours: () => runModifier('base64_encode', s.repeat(w + 1)),
    },
    { label: 'strtoupper', php: ['strtoupper', [s + 'abc XYZ']], ours: () => runModifier('strtoupper', s + 'abc XYZ') },
    { label: 'strtolower', php: ['strtolower', [s + 'abc XYZ']], ours: () => runModifier('strtolower', s + 'abc XYZ') },
    { label: 'mb_strlen', php: ['mb_strlen', [s]], ours: () => runModifier('mb_strlen', s) },
    { label: 'mb_substr', php: ['mb_substr', [s, w - 6, 3]], ours: () => runModifier('mb_substr', s, [w - 6, 3]) },
    { label: 'mb_strwidth', php: ['mb_strwidth', [s]], ours: () => runModifier('mb_strwidth', s) },
    {
      label: 'mb_strimwidth',
      php: ['mb_strimwidth', [s, 0, w, '…']],
      ours: () => runModifier('mb_strimwidth', s, [0, w, '…']),
    },
    {
      label: 'mb_strimwidth from a start',
      php: ['mb_strimwidth', [s + '日本語テキスト', w % 5, w % 9, '..']],
      ours: () => runModifier('mb_strimwidth', s + '日本語テキスト', [w % 5, w % 9, '..']),
    },
    {
      label: 'mb_strimwidth past the end',
      php: ['mb_strimwidth', [s, 20, 4]],
      ours: () => runModifier('mb_strimwidth', s, [20, 4]),
    },
    {
      label: 'mb_strimwidth from the end',
      php: ['mb_strimwidth', [s, -(w % 7), 4, '.']],
      ours: () => runModifier('mb_strimwidth', s, [-(w % 7), 4, '.']),
    },
    { label: 'trim range', php: ['trim', [s, '<..@\0']], ours: () => runModifier('trim', s, ['<..@\0']) },
    { label: 'ucwords', php: ['ucwords', [s]], ours: () => runModifier('ucwords', s) },
    {
      label: 'ucwords with delimiters',
      php: ['ucwords', [s + ' a-b<c', '-<']],
      ours: () => runModifier('ucwords', s + ' a-b<c', ['-<']),
    },
    {
      label: 'escape javascript',
      php: ['smarty_modifier_escape', [s + '</x>\'"', 'javascript']],
      ours: () => runModifier('escape', s + '</x>\'"', ['javascript']),
    },
    {
      label: 'truncate',
      php: ['smarty_modifier_truncate', [s, w + 3]],
      ours: () => runModifier('truncate', s, [w + 3]),
    },
    { label: 'capitalize', php: ['smarty_modifier_capitalize', [s]], ours: () => runModifier('capitalize', s) },
  );
}

/**
 * truncate's fast paths (src/php/string/truncate.ts: ASCII measured by slices, the last word
 * dropped by a backward scan when there is no newline) against Smarty's own truncate in PHP:
 * words joined by runs of every PCRE whitespace character, with and without a newline, and every
 * argument varied (a multibyte word now and then takes the byte path).
 */
const WORDS = ['a', 'to', 'word', 'longerword', 'x1', '-', '...', 'Tokyo,', '日本', '&amp;'];
const SPACES = [' ', '  ', '\t', ' \t ', '\v', '\f', '\r', '\n', ' \n', '\n\n'];
const ETCS = ['...', '', '…', ' [more]'];
function wordsText(): string {
  let t = rand(4) === 0 ? SPACES[rand(SPACES.length)] : '';
  const n = 1 + rand(12);
  for (let i = 0; i < n; i++)
    t += WORDS[rand(WORDS.length)] + (i < n - 1 || rand(3) === 0 ? SPACES[rand(SPACES.length)] : '');
  return t;
}
for (let i = 0; i < 400; i++) {
  const s = wordsText();
  const args: Value[] = [rand(40), ETCS[rand(ETCS.length)], rand(2) === 0, rand(5) === 0];
  probes.push({
    label: 'truncate all args',
    php: ['smarty_modifier_truncate', [s, ...args]],
    ours: () => runModifier('truncate', s, args),
  });
}

/**
 * htmlspecialchars' hot path finds each special character with its own search and replaces the
 * nearest next (src/php/string/html.ts): short and longer text with the special characters
 * anywhere, dense or nowhere, under each quote rule (a quote the flags leave alone
 * is not searched for).
 */
const FILLER = ['lorem', 'ipsum', ' ', '  ', '\n', 'dolor', 'x', 'sit-amet', '日本'];
const SPECIALS = ['&', '<', '>', '"', "'", '&amp;', '<b>'];
for (let i = 0; i < 60; i++) {
  const short = rand(3) === 0;
  const target = short ? rand(50) : 200 + rand(140);
  const specials = rand(4) === 0 ? 0 : 1 + rand(short ? 12 : 6);
  let t = '';
  while (t.length < target) t += FILLER[rand(FILLER.length)];
  for (let k = 0; k < specials; k++) {
    const at = rand(t.length + 1);
    t = t.slice(0, at) + SPECIALS[rand(SPECIALS.length)] + t.slice(at);
  }
  probes.push(
    { label: 'htmlspecialchars', php: ['htmlspecialchars', [t]], ours: () => htmlspecialchars(t) },
    { label: 'htmlspecialchars ENT_QUOTES', php: ['htmlspecialchars', [t, 3]], ours: () => htmlspecialchars(t, 3) },
    { label: 'htmlspecialchars ENT_COMPAT', php: ['htmlspecialchars', [t, 2]], ours: () => htmlspecialchars(t, 2) },
    { label: 'htmlspecialchars ENT_NOQUOTES', php: ['htmlspecialchars', [t, 0]], ours: () => htmlspecialchars(t, 0) },
  );
}

/**
 * wordwrap's two paths read by character code, with ASCII text and break kept as they are
 * (src/php/string/wordwrap.ts, D272): words longer than the width (cut or not), runs of spaces,
 * breaks already in the text (a break at the very end is not one), multibyte words and breaks,
 * and widths from 0.
 */
const WRAP_WORDS = ['a', 'to', 'word', 'averyveryverylongword', 'x', '日本語', 'ｱｲｳ', 'é', '<br>', '\n', '\r\n', '、'];
const WRAP_SPACES = [' ', ' ', '  ', '\n', '\t'];
const BREAKS = ['\n', '\n', '<br>\n', '<br />', '、', '\r\n', 'x'];
for (let i = 0; i < 300; i++) {
  let t = '';
  const n = rand(16);
  for (let k = 0; k < n; k++) t += WRAP_WORDS[rand(WRAP_WORDS.length)] + WRAP_SPACES[rand(WRAP_SPACES.length)];
  if (rand(3) === 0) t = t.trimEnd();
  const cut = rand(2) === 0;
  const width = rand(cut ? 12 : 14) + (cut ? 1 : 0) - (rand(8) === 0 && !cut ? 2 : 0);
  const br = BREAKS[rand(BREAKS.length)];
  probes.push({
    label: `wordwrap ${cut ? 'cut' : 'no cut'}`,
    php: ['wordwrap', [t, width, br, cut]],
    ours: () => runModifier('wordwrap', t, [width, br, cut]),
  });
}

// nl2br's scan by indexOf (src/php/string/nl2br.ts, D272): CRLF, LFCR and runs of mixed breaks
// where a pair and a single break meet, at the ends or nowhere, either tag.
const NL_PIECES = ['a', 'text', '日本', ' ', '\n', '\r', '\r\n', '\n\r', '\n\n', '\r\r', '<br />'];
for (let i = 0; i < 120; i++) {
  let t = '';
  const n = rand(12);
  for (let k = 0; k < n; k++) t += NL_PIECES[rand(NL_PIECES.length)];
  const xhtml = rand(3) !== 0;
  probes.push({ label: 'nl2br', php: ['nl2br', [t, xhtml]], ours: () => runModifier('nl2br', t, [xhtml]) });
}

// strtr with keys that overlap and share first characters: longest match first, no re-scan, and
// candidates of other keys inside a match skipped.
const STRTR_PAIRS: Record<string, string> = {
  ab: '[AB]',
  b: '[B]',
  bca: '[BCA]',
  a: '[A]',
  ca: '',
  cab: '<CAB>',
  日: '[N]',
};
const strtr = strtrTable(STRTR_PAIRS, 'strtr');
for (let i = 0; i < 80; i++) {
  let t = '';
  const n = rand(30);
  for (let k = 0; k < n; k++) t += 'abc日 '[rand(5)];
  probes.push({
    label: 'strtr with overlapping keys',
    php: ['strtr', [t, PhpArray.fromEntries(Object.entries(STRTR_PAIRS))]],
    ours: () => strtr(t),
  });
}

// base64_encode makes its string in chunks of 4,096 characters (fromCharCodes); 6,144 bytes of
// input make exactly two: texts at and across the chunk edges, ASCII and mixed.
for (const [n, unit] of [
  [6143, 'ab'],
  [6144, 'ab'],
  [6145, 'ab'],
  [12_289, 'a日'],
] as const) {
  const t = unit.repeat(n).slice(0, n);
  probes.push({
    label: `base64_encode of ${n} characters`,
    php: ['base64_encode', [t]],
    ours: () => runModifier('base64_encode', t),
  });
}

// The UTF-8 decoder behind the byte-level helpers (fromBytes) makes its string every 4,096
// code units: a surrogate pair, a cut character and stray bytes at and across that edge.
for (const lead of [4094, 4095, 4096]) {
  const t = `${'a'.repeat(lead)}😀é日${'x日😀'.repeat(1500)}`;
  for (const [start, len] of [
    [0, lead + 2],
    [0, lead + 5],
    [1, null],
    [lead + 1, 4100],
  ] as const) {
    const args = len === null ? [start] : [start, len];
    probes.push({
      label: `substr across the decoder's chunk edge (${lead}, ${start}, ${len})`,
      php: ['substr', [t, ...args]],
      ours: () => runModifier('substr', t, args),
    });
  }
}

describe('random inputs through the byte-level helpers match PHP', () => {
  const results = callPhp(probes.map((p) => phpCall(p.php[0], p.php[1])));
  probes.forEach((p, i) => {
    it(`${p.label} #${i}`, () => {
      const r = results[i];
      expect(outcome(p.ours), r.ok ? JSON.stringify(p.php[1]) : r.error).toEqual(r.ok ? r.value : 'error');
    });
  });
});
