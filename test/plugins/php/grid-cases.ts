/**
 * The edge grid of the PHP functions templates may call as modifiers (src/plugins/catalog.ts,
 * docs/decisions.md D10, and the modifiers named after PHP functions that the dialect does not
 * document as different), each call written as its arguments in JSON text, as a template's
 * variables carry them (`1.0` is a float, `9223372036854775807` an int, `{"1":..}` an int key).
 * The values are the inputs that decide PHP 8.2's answers: numeric strings with spaces, hex,
 * exponents and underscores, ints near 2^53 and 2^63, -0.0 and floats that print in exponent
 * form, true/false/null, empty strings and arrays, integer-like string keys, multibyte text
 * (Japanese, emoji with a modifier, combining marks), offsets and lengths negative and past the
 * end, and each function's flags. Calls PHP refuses (TypeError, ValueError) stay in the grid: the
 * dialect's documented answer for them is null with a warning (D14), which the test checks.
 *
 * The by-reference family (sort, array_pop...) is here for its return value; the variable's
 * update is tested in test/plugins/array. Left out: functions whose answer is random or salted
 * (mt_rand, shuffle, password_hash), the platform's own names (escapeCSV, getCountryFromIP,
 * check_inner_uri, defined, unset, filter_var, mb_convert_kana: their own tests), `date` with a
 * null timestamp (the current time: the engine's clock, not PHP's), and what the dialect
 * documents as narrower than PHP: mb_convert_encoding between UTF-8 and ASCII only, hash with
 * rcms_hash's algorithms only.
 */

/** One call: the function and its arguments as JSON texts. */
export interface GridCase {
  fn: string;
  args: string[];
}

const j = (v: unknown): string => JSON.stringify(v);

/** Strings PHP reads as numbers, or nearly. */
const NUMERIC_STRINGS = [
  ' 1',
  '1 ',
  '1e3',
  '0x1A',
  '.5',
  '-0',
  '1_000',
  '12abc',
  'abc',
  '',
  '0',
  '1.5e3',
  '-1.5',
  ' 0x1A',
  '\t\n 42',
  '9007199254740993',
  '9223372036854775807',
  '9223372036854775808',
  '0.1',
  '1e-7',
].map(j);

const INTS = [
  '0',
  '1',
  '-1',
  '3',
  '255',
  '2147483648',
  '9007199254740993',
  '9223372036854775807',
  '-9223372036854775808',
];

const FLOATS = [
  '-0.0',
  '0.5',
  '1.5',
  '2.5',
  '-2.5',
  '1.0e+15',
  '1.0e-7',
  '0.30000000000000004',
  '123456.789',
  '1.0e+20',
  '9.2233720368547758e+18',
  '-1234.5678',
  '0.285',
  '1.955',
];

const CONSTS = ['true', 'false', 'null'];

const TEXTS = [
  'Hello World',
  '日本語テキスト',
  '😀👍🏽x',
  'e\u0301a\u0308',
  'ｶﾞｷﾞｸﾞ',
  'ÀÉÎõü',
  '  padded\t',
  'a&amp;b &lt;br&gt; &quot;q&quot; &#039;s&#039; &hearts; &#x1F600;',
  '<a href="x">T&C</a>',
  "hello world-foo o'neil\tx_y",
].map(j);

/** Entities whose decoding depends on the document type and quote flags. */
const ENTITY_TEXTS = [
  '&apos;&#039;&#39;&quot;&#34;&#x22;',
  '&amp;&lt;&gt;&AMP;&hearts;&nbsp;&euro;',
  '&#13;&#x0C;&#9;&#1;&#x7F;&#x80;&#x9F;',
  '&#xFFFE;&#xFFFF;&#xFDD0;&#x1FFFE;&#xD800;&#x110000;&#0;',
  '&#x1F600;&#128512;&#x00041;&#0065;&#x;&#;&#xZ;',
  '&NewLine;&Tab;&QUOT;&nbsp;&NotEqualTilde;&fjlig;&bne;&ThickSpace;&AMP;&amp',
  '&Aacute;&aacute;&Eacute;&euro;&hellip;&mdash;&lsquo;&rsquo;&ldquo;&rdquo;&trade;&copy;&reg;',
  '&lang;&rang;&loz;&image;&weierp;&real;&alefsym;&empty;&notin;&Dagger;&oline;&frasl;',
].map(j);

const SCALARS = [...NUMERIC_STRINGS, ...INTS, ...FLOATS, ...CONSTS, ...TEXTS];

const ARRAYS = [
  '[]',
  '[1,"1",2,"x"]',
  '{"1":"a","01":"b","-1":"c"}',
  '{"a":1,"b":null,"c":"3"}',
  '[3,"10",2.5,"abc",true,null,"1e1"]',
  '["日本","😀",""," 1"]',
  '{"x":{"id":1,"n":"a"},"y":{"id":2,"n":"b"},"z":{"n":"c"}}',
  '[0,"0","",null,false,[],"a",0.0]',
];

/** Every combination: `first` × the rest sets. */
function grid(fn: string, first: string[], ...rest: string[][]): GridCase[] {
  let tuples: string[][] = first.map((a) => [a]);
  for (const set of rest) tuples = tuples.flatMap((t) => set.map((a) => [...t, a]));
  return tuples.map((args) => ({ fn, args }));
}

function calls(fn: string, tuples: string[][]): GridCase[] {
  return tuples.map((args) => ({ fn, args }));
}

const STRING_ONE_ARG = [
  'strlen',
  'mb_strlen',
  'mb_strwidth',
  'md5',
  'base64_encode',
  'trim',
  'ltrim',
  'rtrim',
  'ucfirst',
  'ucwords',
  'strval',
  'urlencode',
  'rawurldecode',
  'html_entity_decode',
  'htmlspecialchars_decode',
];

const NUMBER_ONE_ARG = [
  'is_numeric',
  'intval',
  'floatval',
  'boolval',
  'abs',
  'floor',
  'ceil',
  'round',
  'number_format',
];

const HAYSTACKS = [
  '"Hello World"',
  '"日本語テキスト日本"',
  '"😀👍🏽x😀"',
  '"aAbBaA"',
  '""',
  '"1e3 1"',
  '123',
  '1.5',
  'true',
  'null',
];
const NEEDLES = ['"o"', '"O"', '"本"', '"😀"', '"aA"', '""', '"1"', '1', 'true'];
const OFFSETS = ['0', '2', '-1', '-3', '5', '100', '-100', 'null'];

export const GRID: GridCase[] = [
  ...STRING_ONE_ARG.flatMap((fn) => grid(fn, [...SCALARS, '[]'])),
  ...NUMBER_ONE_ARG.flatMap((fn) => grid(fn, [...SCALARS, '[]', '[1,2]'])),
  ...grid('is_array', ['[]', '{"a":1}', '""', 'null', '0']),
  ...grid('base64_decode', [
    ...['SGVsbG8=', 'SGVsbG8', '5pel5pys6Kqe', 'S G V s', '!!!', '', '====', 'YQ==YQ=='].map(j),
    '123',
    'null',
  ]),
  ...grid('base64_decode', ['"SGVsbG8"', '"S G V s"', '"!!!"', '"YQ==YQ=="'], ['true', 'false']),
  ...grid(
    'intval',
    [
      '"0x1A"',
      '"012"',
      '"0b11"',
      '" 1"',
      '"1e3"',
      '"z"',
      '"-0x1A"',
      '"0o17"',
      '"  +7f"',
      '42',
      '1.9',
      '"9223372036854775808"',
    ],
    ['0', '8', '16', '36', '2'],
  ),
  ...grid('round', FLOATS.concat(['1234', '"2.5"', '"1e3"', '-1']), ['0', '1', '2', '-1', '-3', '20']),
  ...grid('number_format', [...FLOATS, '1234567', '-1234567.891', '"1234.5"', '"1e3"', '0', '-0.4'], ['0', '2', '-2']),
  ...grid(
    'number_format',
    ['1234567.891', '-0.5', '1.0e+15', '"1234.5"', '0.5'],
    ['2'],
    ['","', '""', '"・"', 'null'],
    ['"."', '" "', '""', '"、"', 'null'],
  ),
  ...grid('trim', TEXTS.concat(['"xxhixx"', '"0012300"', '"ab"']), [
    '" "',
    '"a..z"',
    '"x"',
    '"0"',
    '"\u3000"',
    '"日"',
    '""',
  ]),
  ...grid('ltrim', ['"0012300"', '"xxhixx"', '"  a  "', '"日本日"'], ['"0"', '"x"', '" "', '"a..z"', '"日"']),
  ...grid('rtrim', ['"0012300"', '"xxhixx"', '"  a  "', '"1.500"'], ['"0"', '"x"', '" "', '"0."', '".."']),
  ...grid(
    'ucwords',
    ['"hello world-foo o\'neil\\tx_y"', '"élan vital"', '"a-b c_d"', '""'],
    ['"-"', '" -_"', '""', '"\'"'],
  ),
  ...grid(
    'html_entity_decode',
    TEXTS.slice(6),
    ['0', '2', '3', '8', '16', '48', '59'],
    ['"UTF-8"', '"ISO-8859-1"', 'null'],
  ),
  ...grid('htmlspecialchars_decode', TEXTS.slice(6), ['0', '2', '3', '8', '16', '48', '59']),
  ...grid(
    'str_pad',
    ['"abc"', '"日本"', '""', '"😀"', '5', '-1.5', 'null'],
    ['-1', '0', '3', '7', '10'],
    ['" "', '"ab"', '"日"'],
  ),
  ...grid('str_pad', ['"abc"', '"日本"', '12'], ['8'], ['"*-"', '"本"'], ['0', '1', '2']),
  ...grid(
    'mb_substr',
    TEXTS.slice(0, 6).concat(['""', '12345', '1.5', 'true']),
    ['0', '1', '-1', '-3', '100', '-100'],
    ['null', '0', '2', '-1', '-100', '100'],
  ),
  ...grid(
    'mb_strimwidth',
    TEXTS.slice(0, 6).concat(['""', '"ａｂｃｄｅｆ"']),
    ['0', '1', '-2'],
    ['0', '3', '5', '10'],
    ['""', '"…"', '"..."'],
  ),
  ...grid('mb_strwidth', ['"ａｂｃ"', '"ｱｲｳ"', '"─━"', '"①②"', '"\u200b"', '"한국어"', '"Ελληνικά"', '"\u3000"']),
  ...['strpos', 'stripos', 'mb_strpos', 'mb_stripos'].flatMap((fn) =>
    grid(fn, HAYSTACKS, NEEDLES, OFFSETS.slice(0, 5)),
  ),
  ...['strpos', 'mb_strpos'].flatMap((fn) =>
    grid(fn, ['"abc"', '"日本語"'], ['"c"', '"語"'], ['3', '4', '-4', '100', 'null', '"1"', '1.9']),
  ),
  ...grid('strstr', HAYSTACKS, NEEDLES, ['false', 'true']),
  ...grid(
    'substr_count',
    ['"hello hello hello"', '"日本日本日"', '"aaa"', '""', '"😀😀"', '111'],
    ['"l"', '"ll"', '"日本"', '"aa"', '"😀"', '"1"'],
  ),
  ...grid(
    'substr_count',
    ['"hello hello hello"', '"日本日本日"'],
    ['"l"', '"本"'],
    ['0', '3', '-4', '17', '20', 'null'],
    ['null', '3', '-1', '100'],
  ),
  ...grid(
    'str_replace',
    ['"a"', '"日"', '""', '["a","b"]', '["a","ab"]', '1'],
    ['"x"', '"本"', '["1"]', '["1","2","3"]', '""', 'null'],
    ['"aabb日本"', '["ab","ba"]', '{"k":"a","1":"b"}', '12', 'null'],
  ),
  ...grid('ucfirst', ['"ééé"', '"ǆa"', '"ß"', '"i̇"']),
  ...grid(
    'sprintf',
    [
      '%d',
      '%s',
      '%05.2f',
      "%'*10s",
      '%-10s|',
      '%u',
      '%x',
      '%X',
      '%o',
      '%b',
      '%e',
      '%.3e',
      '%c',
      '%5.1f',
      '%+d',
      '%10.4F',
      '%G',
      '%g',
      '%.1g',
      '%05d',
      '%-05d|',
      '%.2s',
      '%1$s-%1$s',
      '%%%d%%',
      '%.15f',
      '%.0f',
    ].map(j),
    [
      '0',
      '-1',
      '3.14159',
      '-0.0',
      '"12abc"',
      '" 1"',
      '"1e3"',
      '"日本語"',
      'true',
      'null',
      '1.0e+15',
      '1.0e-7',
      '9223372036854775807',
      '-9223372036854775808',
      '0.30000000000000004',
      '255',
    ],
  ),
  ...grid(
    'sprintf',
    ['"%s|%s"', '"%2$s %1$s"', '"%-8s|%8s"', '"%\'08.3f|%+.1e"'],
    ['"日本"', '1.5', '""'],
    ['"x"', '-2', 'false'],
  ),
  ...grid(
    'date',
    [
      'Y-m-d H:i:s',
      'D, d M Y',
      'N jS z t L',
      'o-\\WW',
      'U u v',
      'e T P O p',
      'g G h H a A',
      'c',
      'r',
      'B',
      'I',
      '\\Y\\m\\d',
      'l F',
      'y n',
      'S',
    ].map(j),
    [
      '0',
      '-1',
      '1700000000',
      '2147483648',
      '253402300799',
      '-62135596800',
      '1709164800',
      '"1700000000"',
      '1.7e9',
      'true',
    ],
  ),
  ...grid(
    'strtotime',
    [
      'now',
      '+1 day',
      'tomorrow',
      'yesterday noon',
      '2024-02-29',
      '2023-02-29',
      '2023-13-01',
      'last day of next month',
      'first monday of january 2025',
      '@1700000000',
      '@-1',
      '1 week ago',
      'next monday',
      'noon',
      '2024-01-01 00:00:00 UTC',
      '2024-01-01T10:00:00+09:00',
      '',
      'abc',
      '10 September 2000',
      '+1 month',
      '-1 year 2 days',
      'midnight',
      '2038-01-19 03:14:08',
      '1970-01-01',
      '24:00',
      '2024/03/10 25:00',
      'Sat',
      'third friday of next month',
      '+1 week 2 days 4 hours 2 seconds',
      'last monday',
    ].map(j),
    ['1700000000', '0', '1709164800'],
  ),
  ...grid(
    'preg_match',
    [
      '/(\\d+)/',
      '/^\\s*$/',
      '/(?<y>\\d{4})-(\\d\\d)/',
      '/日本/u',
      '/./u',
      '/[[:alpha:]]+/',
      '/a|b/i',
      '/\\bword\\b/',
      '/^$/m',
      '/x*/',
    ].map(j),
    ['"abc 123 2024-05"', '""', '"日本語 word"', '"Word\\nA"', '123', 'null', 'true', '"😀"'],
  ),
  ...grid(
    'preg_replace',
    ['/\\d+/', '/(\\w+) (\\w+)/', '/日/u', '/\\s+/', '/^/m', '/x*/', '/[aeiou]/i'].map(j),
    ['"#"', '"$2 $1"', '"${1}0"', '"\\\\0"', '""'],
    ['"abc 123 def 45"', '"日本 日曜\\n two"', '""', '99'],
  ),
  ...grid('preg_replace', ['"/a/"', '"/\\\\w/u"'], ['"b"'], ['"aaaa"', '"日a本a"'], ['-1', '0', '1', '2']),
  ...grid(
    'json_encode',
    [
      ...SCALARS.filter((s) => !s.startsWith('9.22')),
      ...ARRAYS,
      '{"0":"a","1":"b"}',
      '{"1":"a","2":"b"}',
      '"/path/<tag>&\'\\""',
      '[1.0,-0.0,0.1]',
    ],
    ['0', '320', '1024', '16', '15', '128', '2048', '4'],
  ),
  ...grid(
    'http_build_query',
    [
      '{"a":1,"b":"x y","c":null,"d":true,"e":false,"f":1.5}',
      '["x","y"]',
      '{"k":["1","2"],"m":{"n":"日本"}}',
      '{"a b":"&=?","1":"-0.0"}',
      '[]',
      '{"e":[]}',
      '{"f":-0.0,"g":1.0e+20}',
    ],
    ['""', '"p_"'],
    ['null', '"&amp;"', '";"'],
    ['1', '2'],
  ),
  ...grid(
    'parse_url',
    [
      'https://user:pw@例え.jp:8080/パス/a.php?q=日本&x[]=1#frag',
      '//example.com/path',
      '/just/a/path?x',
      'mailto:a@b.c',
      'http://[::1]:80/',
      'http://a:65536',
      'x:1',
      '?q',
      '#f',
      'http:///x',
      'file:///etc/passwd',
      'host:8080',
      'http://a.b/c d',
      '',
    ].map(j),
    ['-1', '0', '1', '2', '3', '4', '5', '6', '7'],
  ),
  ...grid(
    'pathinfo',
    [
      '/a/b/c.tar.gz',
      'c',
      '/a/b/',
      '.htaccess',
      'a/ファイル.テキスト',
      '/',
      '',
      'a.b/c',
      'dir/file.',
      '..',
      'C:\\x\\y.txt',
    ].map(j),
    ['15', '1', '2', '4', '8'],
  ),
  ...grid(
    'array_column',
    [
      '[{"id":1,"n":"a"},{"id":2,"n":"b"},{"n":"c"}]',
      '{"x":{"id":"1","n":"a"},"y":{"id":"01","n":"b"},"z":{"id":1.5,"n":"c"}}',
      '[[1,2],[3,4,5],[]]',
      '[]',
      '[{"id":true,"n":"t"},{"id":null,"n":"u"}]',
    ],
    ['"n"', '"id"', '0', '2', 'null', '"zz"'],
    ['null', '"id"', '"n"', '1'],
  ),
  ...grid('array_diff', ARRAYS, ['[]', '["1"]', '[1,"x",""]', '{"q":"a","r":"3"}', '[0.0]']),
  ...grid('array_filter', ARRAYS),
  ...grid('array_keys', ARRAYS),
  ...grid('array_keys', ARRAYS.slice(1, 6), ['1', '"1"', 'null', '"a"', '0'], ['false', 'true']),
  ...grid('array_merge', ARRAYS, ['[]', '{"1":"z","a":"y"}', '["q"]']),
  ...grid('array_reverse', ARRAYS, ['false', 'true']),
  ...grid('array_search', ['1', '"1"', '"01"', '0', '""', 'null', 'true', '"a"', '1.0', '"1e0"'], ARRAYS.slice(1, 6), [
    'false',
    'true',
  ]),
  ...grid(
    'array_slice',
    ARRAYS.slice(1, 5),
    ['0', '1', '-2', '10', '-10'],
    ['null', '1', '-1', '0', '10'],
    ['false', 'true'],
  ),
  ...grid('array_unique', ARRAYS.concat(['[4,"4","3",4,3,"3","a","A","04"]', '["10","1e1",10.0,"010"]']), [
    '0',
    '1',
    '2',
    '5',
  ]),
  ...grid('array_values', ARRAYS),
  ...grid(
    'array_sum',
    ARRAYS.concat(['[1,"2",3.5]', '["1e3"," 1","0x1A"]', '[9223372036854775807,1]', '[1.5,-1.5,-0.0]']),
  ),
  ...grid('key', ARRAYS.concat(['{"-5":1}'])),
  ...grid('max', ARRAYS.slice(1).concat(['[1,"1",1.0]', '["10","9","1e1"]', '["abc",0]', '[[1,2],[1,3]]', '[-0.0,0]'])),
  ...grid('min', ARRAYS.slice(1).concat(['[1,"1",1.0]', '["10","9","1e1"]', '["abc",0]', '[[1,2],[1,3]]', '[0,-0.0]'])),
  ...grid('max', ['1', '"10"', '"abc"', '1.5', 'null', 'true', '"日"'], ['"9"', '2', '0', '"abc"', 'false', '[]']),
  ...grid('min', ['1', '"10"', '"abc"', '1.5', 'null', 'true', '"日"'], ['"9"', '2', '0', '"abc"', 'false', '[]']),
  ...grid('range', ['0', '1', '"a"', '"A"', '"1"', '1.5', '5', '"5"', '"aa"'], ['3', '"e"', '0', '"1"', '2.5', '-1']),
  ...grid('range', ['0', '10', '"a"', '1'], ['10', '0', '"z"', '2'], ['2', '3', '-2', '0.5', '"2"', '1.0']),
  ...calls('mb_convert_encoding', [
    ['"abc"', '"ASCII"', '"UTF-8"'],
    ['"日本"', '"ASCII"', '"UTF-8"'],
    ['"café"', '"ASCII"', 'null'],
    ['"日本"', '"UTF-8"', '"UTF-8"'],
    ['"abc"', '"UTF-8"', 'null'],
    ['"😀x"', '"us-ascii"', '"utf8"'],
    ['12', '"ASCII"', '"UTF-8"'],
  ]),
  ...grid('html_entity_decode', ENTITY_TEXTS, ['0', '2', '3', '8', '16', '19', '32', '35', '48', '51']),
  ...grid('htmlspecialchars_decode', ENTITY_TEXTS, ['0', '3', '16', '19', '32', '35', '48', '51']),
  ...grid(
    'wordwrap',
    [
      '"The quick brown fox sat over the lazy dog"',
      '"A very long woooooooooooord."',
      '"日本語 テキスト です"',
      '""',
      '"a  b   c"',
      '"line\\nbreak here"',
      '12345',
    ],
    ['0', '1', '5', '8', '15', '100'],
    ['"\\n"', '"<br />\\n"', '"-"'],
    ['false', 'true'],
  ),
  ...grid(
    'sprintf',
    [
      "%'010d",
      '%-010d|',
      '%5.5s|',
      '%-5.1s|',
      '%E',
      '%.0e',
      '%.20f',
      '%.60f',
      '%5c',
      '%+.2f',
      '%+s',
      '%x',
      '%o',
      '%.3F',
      '%10.2e',
      '% d',
    ].map(j),
    [
      '1.005',
      '-0.5',
      '0.5',
      '1.5',
      '2.5',
      '"日本語"',
      '-255',
      '1.0e+100',
      '5.0e-324',
      '1.7976931348623157e+308',
      '-9223372036854775808',
    ],
  ),
  ...grid(
    'number_format',
    [
      '1.005',
      '1.015',
      '2.675',
      '1.45',
      '-1.45',
      '0.125',
      '1.0e+100',
      '1.0e-10',
      '123456789012345678',
      '-0.001',
      '5.0e-324',
    ],
    ['0', '1', '2', '3', '15', '-1', '-20'],
  ),
  ...grid(
    'round',
    [
      '1.005',
      '1.015',
      '2.675',
      '1.45',
      '-1.45',
      '0.125',
      '5.055',
      '5.045',
      '1.0e+100',
      '1.0e-10',
      '123456789012345678',
      '-0.001',
      '0.49999999999999994',
    ],
    ['0', '1', '2', '3', '15', '-1', '-20'],
  ),
  ...grid('array_pop', ARRAYS),
  ...grid('array_shift', ARRAYS),
  ...grid('array_push', ARRAYS, ['1', '"x"', 'null', '[]']),
  ...['sort', 'rsort', 'asort', 'arsort', 'ksort', 'krsort'].flatMap((fn) =>
    grid(fn, ARRAYS.slice(0, 6), ['0', '1', '2', '10']),
  ),
  ...grid(
    'in_array',
    ['1', '"1"', '"01"', '0', '""', 'null', 'true', '"a"', '1.0', '"1e0"', '"abc"'],
    ARRAYS.slice(1, 6),
    ['false', 'true'],
  ),
  ...grid(
    'array_key_exists',
    ['1', '"1"', '"01"', '-1', '"-1"', '""', 'null', '"a"', '1.5', 'true'],
    ARRAYS.slice(1, 5).concat(['{"":1}']),
  ),
  ...grid('nl2br', ['"a\\nb"', '"a\\r\\nb\\n\\rc\\rd"', '""', '"日本\\n語"', '12', 'null', 'true'], ['true', 'false']),
  ...grid('strtoupper', [...SCALARS]),
];

/**
 * The PHP functions the golden corpus names that templates cannot call (dialect_modifier
 * false), and preg_match's flags and offset: the plugins are built on them, and
 * test/plugins/php/grid.test.ts calls the helpers they use (rcms_hash, rcms_* regex plugins,
 * escape, assign_array_intersect, rcms_match).
 */
export const HELPER_GRID: GridCase[] = [
  ...grid(
    'hash',
    // The algorithms rcms_hash documents; PHP's others (sha3, xxh, fnv...) are refused there.
    ['md5', 'sha1', 'sha224', 'sha256', 'sha384', 'sha512/224', 'sha512/256', 'sha512', 'crc32b', 'SHA256'].map(j),
    ['""', '"日本語"', '"😀"', '"a\\u0000b"', '" 1"'],
  ),
  ...grid(
    'hash_hmac',
    ['md5', 'sha1', 'sha256', 'sha384', 'sha512', 'SHA256'].map(j),
    ['""', '"message"', '"日本語"'],
    ['""', '"secret"', '"鍵"'],
  ),
  ...grid(
    'preg_split',
    ['/[\\s,]+/', '//', '//u', '/(-)/', '/\\d/', '/x*/', '/(?<n>,)/'].map(j),
    ['"a, b  c,d"', '""', '"日本語"', '"1-2-3"', '"a,b,"', '",a"'],
    ['-1', '0', '1', '2'],
    ['0', '1', '2', '3', '4', '7'],
  ),
  ...grid(
    'htmlspecialchars',
    ['"<a href=\'x\'>T&C \\"q\\"</a>"', '"&amp; &#039; &foo; &#xZZ;"', '"日本<b>"', '""'],
    ['0', '2', '3', '11', '16', '19', '35', '51'],
    ['"UTF-8"'],
    ['true', 'false'],
  ),
  // flags and offset: a template's third argument would be preg_match's $matches; rcms_match passes them.
  ...grid(
    'preg_match',
    ['/(a)(x)?(b)/', '/(?<w>\\w+)/u', '/(\\d)|(z)/', '/本(.)/u'].map(j),
    ['"zzab ab"', '"日本語 1"', '"x1"'],
    ['0', '256', '512', '768'],
    ['0', '2', '-3', '100'],
  ),
  ...calls('array_intersect', [
    ['{"k1":"v","k2":"w"}', '{"z":"w"}'],
    ['[1,"1",2,"x"]', '["1"]'],
    ['[1,"1",1.0,"01"]', '["1.0"]'],
    ['[1,"1",1.0,"01"]', '[1]'],
    ['["a","b","c"]', '["c","a"]', '["a"]'],
    ['[]', '[1]'],
    ['[null,false,""]', '[""]'],
    ['[true,"1"]', '["1"]'],
    ['[-0.0,0]', '["0"]'],
    ['[" 1","1 ","1e0"]', '["1"]'],
  ]),
];
