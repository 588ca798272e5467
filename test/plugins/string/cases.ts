/**
 * The inputs the modifiers are compared on: each case is one call, checked against PHP.
 * Texts mix ASCII, Japanese, emoji (with ZWJ sequences and skin tones), Latin-1 letters,
 * HTML, whitespace of every kind and a string holding a cut UTF-8 character.
 */
import { PhpArray, float, type Value } from '../../../src/value/value.js';
import { fromBytes, toBytes } from '../../../src/value/bytes.js';

export interface Case {
  mod: string;
  input: Value;
  args?: Value[];
  lang?: string;
}

const cut = fromBytes(toBytes('日本語').subarray(0, 4)); // '日' + one stray byte

/** A string of raw bytes, written as a binary string (`\x80` is the byte 0x80). */
const raw = (bin: string): string => fromBytes(Uint8Array.from(bin, (c) => c.charCodeAt(0)));

/**
 * Bytes that are not UTF-8, for the mb_ functions that decode: a lone continuation byte, 0xFE and
 * 0xFF, a truncated sequence, overlong forms, surrogates written in UTF-8, beside case pairs
 * (É é, the dotless ı, ɤ and the Ɤ of Unicode 15 that PHP 8.2 does not know).
 */
const BAD_UTF8: string[] = [
  'a\x80B\xffc?',
  '\xe6\x97xA?b',
  '\xc0\xafZ\xe0\x80\xafz',
  '\xed\xa0\x80\xed\xbf\xbfK',
  '\xfe\xffABC\xfe',
  '\xc3\x89t\xc3\xa9\xf0\x9f\x98',
  'x\xc4\xb1i\xc4\xb0I\xc9\xa4',
].map(raw);

const TEXTS: string[] = [
  '',
  'hello world',
  "hello wORLD foo-bar o'neil x2y 3d",
  '  pad me \n',
  'The quick brown fox jumped over the lazy dog',
  'Two Sisters Reunite after Eighteen Years at Checkout Counter.',
  '日本語のテキストです',
  '東京 tower と osaka、kyoto',
  '日本語の テキスト',
  'emoji 😀👍🏽 ok',
  '👨‍👩‍👧 family 🇯🇵',
  'café élan über Straße',
  'a\r\nb\n\nc\rd\n',
  'One. Two! Three? Four. e.g. this a.b.c',
  '<p title="a>b">Hi <b>you</b></p><!-- c -->x<?php echo 1; ?>y',
  "It's \\'done\\' \"ok\" </script> a@b.c ~{|}",
  'a\tb\x0bc\x0cd  e',
  'ｱｲｳｴｵabc',
  '全角　スペース　と\u00a0nbsp',
  '&amp; &lt; &#039; &eacute; &#26085;&#x672C; &bogus; &#xZZ; &#1114112;',
  cut,
  'x'.repeat(95) + ' tail',
];

const SCALARS: Value[] = [null, true, false, 0, 42, -7, 3.14159, float(2), float(1e20), 12345678901234, '0', ' '];

const list = (...v: Value[]) => PhpArray.fromList(v);

/** Every text through the modifier with each argument list. */
function over(mod: string, argSets: Value[][], inputs: Value[] = TEXTS): Case[] {
  return inputs.flatMap((input) => argSets.map((args) => ({ mod, input, args })));
}

export const CASES: Case[] = [
  // Smarty 2 modifiers
  ...over('capitalize', [[], [true]]),
  ...over('cat', [[], [' world'], [1.5], [null], [list('a')]], ['x', 1.5, null, true, list('a')]),
  ...over('count_characters', [[], [true]]),
  ...over('count_paragraphs', [[]]),
  ...over('count_sentences', [[]]),
  ...over('count_words', [[]]),
  ...over('default', [[], ['anon']], [null, '', 0, '0', false, ' ', 'set', list()]),
  ...over('escape', [
    [],
    ['htmlall'],
    ['url'],
    ['urlpathinfo'],
    ['quotes'],
    ['hex'],
    ['hexentity'],
    ['decentity'],
    ['javascript'],
    ['mail'],
    ['nonstd'],
    ['nosuch'],
  ]),
  ...over(
    'escape',
    [
      ['html', 'ISO-8859-1'],
      ['htmlall', 'ISO-8859-1'],
      ['htmlall', 'utf-8'],
    ],
    TEXTS.slice(6, 16),
  ),
  ...over('escape', [[], ['hex'], ['nosuch']], [null, 42, 3.5, true, list('a')]),
  ...over('indent', [[], [1, '>'], [3, '-'], [0], [2, '$0']]),
  ...over('lower', [[]]),
  ...over('upper', [[]]),
  ...over('nl2br', [[], [false]]),
  ...over('replace', [
    ['a', 'x'],
    ['', 'x'],
    ['日本', 'ニッポン'],
    [list('o', 'e'), list('0')],
    [list('a', 'b'), 'Z'],
  ]),
  ...over('spacify', [[], ['-'], ['日']]),
  ...over('strip', [[], ['&nbsp;'], ['$0$0']]),
  ...over('strip', [[]], [list(' a  b ', 'c\td')]),
  ...over('strip_tags', [[], [false]]),
  ...over('truncate', [
    [],
    [30],
    [10],
    [10, '', true],
    [30, '...', true, true],
    [20, ' [more]', false, true],
    [3, '...'],
    [0],
    ['12'],
    [9, '…'],
    [6, '...', false, true],
  ]),
  ...over(
    'truncate',
    [
      [4, ''],
      [3, ''],
    ],
    [3.14159, 123456, null, true],
  ),
  ...over('wordwrap', [[], [12], [12, '<br />\n'], [6, '\n', true], [5, '--', true], [1, '\n', false]]),
  ...over(
    'debug_print_var',
    [[], [0, 10], [1, 5]],
    [
      ...TEXTS.slice(0, 12),
      ...SCALARS,
      list(
        'a',
        list(1, true),
        PhpArray.fromEntries([
          ['k\n', null],
          ['x', 1.5],
        ]),
      ),
    ],
  ),
  // platform modifiers
  ...over('mb_truncate', [[], [8], [5, '…', false, true], [10, '', true], [12]]),
  // The prepared cut of text without surrogates in its head (truncateFixed): a space at and
  // around the cut, a cut at the text's length and one past it, an `etc` as long as the length.
  ...over(
    'mb_truncate',
    [
      [4, '…'],
      [7, '…'],
      [3, '…', true],
      [1, '…'],
      [2, '……'],
      [9, '..'],
      [10, '…'],
    ],
    [
      '日本語の テキスト',
      '日本語のテキストです',
      '東京 tower と osaka、kyoto',
      '全角　スペース　と\u00a0nbsp',
      'ab 日本 😀 語',
      '日本語 テキスト\nです',
      cut,
    ],
  ),
  ...over('mbtruncate', [[], [5], [8, '…']]),
  ...over('strtolower', [[]], [...TEXTS, ...SCALARS, list('A')]),
  ...over('strtoupper', [[]], [...TEXTS.slice(0, 12), list('a')]),
  ...over('substr', [[0, 3], [-3], [3, 6], [1, -1], [20], [0, 4]], [...TEXTS.slice(4, 12), 1234.5, null, list('a')]),
  ...over(
    'conv_bool',
    [[]],
    ['true', 'TRUE', ' yes ', 'On', '1', 'false', 'Off', 'no', '0', '', 'abc', 0, 1, 2, 0.0, null, list(), list(0)],
  ),
  ...over('empty', [[]], ['', '0', 'a', ' ', 0, 1, 0.0, float(0), null, false, true, list(), list(0)]),
  ...over(
    'escapeCSV',
    [[]],
    ['plain', 'a,b', 'say "hi"', 'line\nbreak', 'cr\rx', '日本,語', 12.5, null, true, list('x')],
  ),
  ...over(
    'usage_price_format',
    [[]],
    [0, 980, -980, 1234567, 1234567.5, 2.5, -2.5, 0.49999999999999994, '1500', ' 12 ', '1e3', '', null, 'abc', 1e15],
  ),
  ...over('rcms_strip_tags', [[], ['<b>'], ['<p><b>'], ['<BR>']]),
  // PHP functions
  ...over('strlen', [[]]),
  ...over('strlen', [[]], SCALARS),
  ...over('trim', [[], ['*-'], ['a..z'], ['z..a'], ['..'], [' 　']]),
  ...over('ltrim', [[], ['a..z']]),
  ...over('rtrim', [[], ['a..z'], ['\n ']]),
  ...over('ucfirst', [[]]),
  ...over('ucwords', [[], ['-'], ['、 ']]),
  ...over('str_pad', [[8, '*'], [40, '-', 2], [30, '日', 0], [5], [40, '', 1], [40, '*', 7], ['abc'], [2.5, 'x']]),
  ...over('substr_count', [['a'], ['日'], ['o', 3], ['o', 0, 5], [''], ['o', 100]]),
  ...over(
    'str_replace',
    [
      ['-', 'a-b-c'],
      ['日', '日本日本'],
      ['', 'abc'],
    ],
    ['-', '日', 'x'],
  ),
  ...over(
    'str_replace',
    [
      ['x', list('aa', 'ba')],
      [list('1', '2'), 'a1b2'],
    ],
    [list('a', 'b'), 'a'],
  ),
  ...over('strpos', [['o'], ['本'], ['o', 5], ['o', -3], ['z'], [''], ['o', 500]]),
  ...over('stripos', [['O'], ['É'], ['WORLD']]),
  ...over('strstr', [['o'], ['o', true], ['本'], ['zz']]),
  ...over('md5', [[]]),
  ...over('base64_encode', [[]]),
  ...over(
    'base64_decode',
    [[], [true]],
    ['5pel5pys', 'YWJj', 'YW Jj', 'YWJj!', 'YQ==', 'YQ=', 'YQ==YQ', 'Y', '', 'Zm9v\nYmFy', '日本'],
  ),
  ...over('urlencode', [[]]),
  ...over('rawurldecode', [[]], ['%E6%97%A5+x%20y', '%zz%4', '%2525', 'a%2Fb', '%E6%97']),
  ...over('html_entity_decode', [[], [2], [0], [3, 'ISO-8859-1']]),
  ...over('htmlspecialchars_decode', [[], [0]]),
  ...over('mb_strlen', [[]]),
  ...over('mb_substr', [[1, 3], [-3], [2], [0, -2], [5, 100], [-100, 2]]),
  ...over('mb_strimwidth', [
    [0, 10, '…'],
    [0, 8, '...'],
    [2, 5],
    [-3, 4],
    [0, 5, 'xxxxxx'],
    [0, -2],
    [0, 100],
  ]),
  ...over('mb_strwidth', [[]]),
  ...over('mb_strpos', [['o'], ['本'], ['テ', 2], ['😀'], ['o', -4], ['zz']]),
  ...over('mb_stripos', [['O'], ['É'], ['T'], ['ＡＢ']]),
  ...over(
    'mb_stripos',
    [
      ...['a', 'k', 'z', '?', 'i', 'I', '\x80', '\xff', '\xfe', '\xe6\x97', '\xc3\x89', '\xea\x9f\x8b', 'c?'].map(
        (n) => [raw(n)],
      ),
      ...[2, -1, -3, 6, 7, 100, -100].flatMap((offset) => [
        [raw('?'), offset],
        [raw('\x80'), offset],
        [raw('b'), offset],
        ['', offset],
      ]),
    ],
    BAD_UTF8,
  ),
  ...over('mb_convert_encoding', [['UTF-8'], ['ASCII'], ['UTF-8', 'UTF-8'], ['ASCII', 'UTF-8']]),
];
