/**
 * The regex modifier and function plugins: regex_replace against Smarty 2.6.33's own
 * sanitising code run in PHP, preg_* modifiers and rcms_match(_all) against PHP, split's
 * literal/regex switch, and each plugin's examples where they do not need the engine.
 */
import { describe, expect, test } from 'vitest';
import { toTagged, type OracleCall } from '../../support/php-oracle.js';
import { phpGoldenLookup } from '../../support/php-golden.js';
import { toBytes } from '../../../src/value/bytes.js';
import { PhpArray, type Value } from '../../../src/value/value.js';
import regexReplace from '../../../src/plugins/regex/regex-replace.js';
import pregMatchModifier from '../../../src/plugins/regex/preg-match.js';
import pregReplaceModifier from '../../../src/plugins/regex/preg-replace.js';
import split from '../../../src/plugins/regex/split.js';
import { rcmsMatch } from '../../../src/plugins/regex/rcms-match.js';
import { rcmsMatchAll } from '../../../src/plugins/regex/rcms-match-all.js';
import { plugins } from '../../../src/plugins/regex/index.js';
import { testModifierContext } from '../../support/plugin-context.js';

const ctx = testModifierContext({ now: 0 });
const b64 = (s: string) => Buffer.from(toBytes(s)).toString('base64');
// PHP's answers, committed in test/fixtures/php/plugins/regex/regex-plugins.json.
const oracle = phpGoldenLookup('plugins/regex/regex-plugins', {
  note: 'regex_replace cases run the sanitising code of Smarty 2.6.33 modifier.regex_replace.php',
});
const askPhp = (calls: OracleCall[]) => calls.map(oracle);
const php = (code: string) => {
  const [r] = askPhp([{ fn: '__eval', args: [code] }]);
  if (!r.ok) throw new Error(r.error);
  return r.value;
};

// Smarty 2.6.33 libs/plugins/modifier.regex_replace.php, as closures.
const SMARTY_REGEX_REPLACE = `
$check = function ($search) {
  if (($pos = strpos($search, "\\0")) !== false) $search = substr($search, 0, $pos);
  if (preg_match('!([a-zA-Z\\s]+)$!s', $search, $match) && (strpos($match[1], 'e') !== false)) {
    $search = substr($search, 0, -strlen($match[1])) . preg_replace('![e\\s]+!', '', $match[1]);
  }
  return $search;
};
$rr = function ($string, $search, $replace) use ($check) {
  if (is_array($search)) { foreach ($search as $idx => $s) $search[$idx] = $check($s); }
  else $search = $check($search);
  return @preg_replace($search, $replace, $string);
};`;

describe('regex_replace', () => {
  const cases: [string, Value, string][] = [
    ['banana', '/a/e', 'o'],
    ['banana', '/A/ie', 'o'],
    ['banana', '/a/ e i', 'o'],
    ['banana', '/a/\0e', 'o'],
    ['banana', '/a\0/e', 'o'],
    ['too   many \t\n spaces', '/\\s+/', ' '],
    ['日本', '/./', 'x'],
    ['日本', '/./u', 'x'],
    ['06-2024', '/(\\d+)-(\\d+)/', '$2/$1'],
    ['abc', '/b/ex', '[$0]'],
    ['abc', '/(/', 'x'],
    ['abc', '/b/z', 'x'],
    ['abc', PhpArray.fromList(['/a/e', '/c/']), 'x'],
    ['1234567', '/\\d\\K(?=(?:\\d{3})+$)/', ','],
    ['aaba', '/\\Ga/', 'X'],
    ['12-34 ab/cd', '/(?|(\\d+)-(\\d+)|(\\w+)\\/(\\w+))/', '$2.$1'],
  ];
  for (const [s, search, repl] of cases) {
    test(`${JSON.stringify(s)} ${JSON.stringify(search instanceof PhpArray ? search.values() : search)}`, () => {
      const searchPhp =
        search instanceof PhpArray
          ? `[${search
              .values()
              .map((x) => `base64_decode('${b64(String(x))}')`)
              .join(',')}]`
          : `base64_decode('${b64(search as string)}')`;
      const expected = php(
        `${SMARTY_REGEX_REPLACE} return $rr(base64_decode('${b64(s)}'), ${searchPhp}, base64_decode('${b64(repl)}'));`,
      );
      expect(toTagged(regexReplace.run(s, [search, repl], ctx))).toEqual(expected);
    });
  }
});

describe('preg_* as modifiers', () => {
  test('preg_match and preg_replace take the pattern as input', () => {
    const calls = [
      { fn: 'preg_match', args: ['/^\\d+$/', '123'] },
      { fn: 'preg_match', args: ['/^\\d+$/', '12a'] },
      { fn: 'preg_match', args: ['/(/', '12a'] },
      { fn: 'preg_replace', args: ['/(\\d+)/', '[$1]', 'a12b34'] },
      { fn: 'preg_replace', args: ['/\\s+/', '-', 'a b c', 1] },
    ];
    const res = askPhp(calls);
    expect(toTagged(pregMatchModifier.run('/^\\d+$/', ['123'], ctx))).toEqual(res[0].value);
    expect(toTagged(pregMatchModifier.run('/^\\d+$/', ['12a'], ctx))).toEqual(res[1].value);
    expect(toTagged(pregMatchModifier.run('/(/', ['12a'], ctx))).toEqual(res[2].value);
    expect(toTagged(pregReplaceModifier.run('/(\\d+)/', ['[$1]', 'a12b34', -1], ctx))).toEqual(res[3].value);
    expect(toTagged(pregReplaceModifier.run('/\\s+/', ['-', 'a b c', 1], ctx))).toEqual(res[4].value);
  });
});

describe('split', () => {
  const run = (d: Value, s: Value) => toTagged(split.run(d, [s], ctx));
  test('a delimiter of 3+ bytes starting with / is a regex', () => {
    const [r1, r2] = askPhp([
      { fn: 'preg_split', args: ['/[\\s,]+/', 'a, b  c'] },
      { fn: 'preg_split', args: ['/,/u', '日本,語'] },
    ]);
    expect(run('/[\\s,]+/', 'a, b  c')).toEqual(r1.value);
    expect(run('/,/u', '日本,語')).toEqual(r2.value);
  });
  test('\\K, \\G and branch reset groups as preg_split takes them', () => {
    const subjects: [string, string][] = [
      ['/(?<=\\G.{3})/', 'abcdefghij'],
      ['/,\\K/', 'a,b,c'],
      ['/(?|(-)|(\\+))/', 'a-b+c'],
      ['/(?<=\\G..)/u', 'あいうえお'],
    ];
    const res = askPhp(subjects.map(([d, s]) => ({ fn: 'preg_split', args: [d, s] })));
    subjects.forEach(([d, s], i) => expect(run(d, s)).toEqual(res[i].value));
  });
  test('other delimiters are literal, like explode', () => {
    const [r1, r2, r3] = askPhp([
      { fn: 'explode', args: [',', 'a,b,,c'] },
      { fn: 'explode', args: ['/', 'a/b'] },
      { fn: 'explode', args: ['//', 'a//b'] },
    ]);
    expect(run(',', 'a,b,,c')).toEqual(r1.value);
    expect(run('/', 'a/b')).toEqual(r2.value);
    expect(run('//', 'a//b')).toEqual(r3.value);
    expect(run(1, '213')).toEqual(toTagged(PhpArray.fromList(['2', '3'])));
  });
  test('empty, non-scalar or invalid input gives []', () => {
    const empty = toTagged(PhpArray.empty());
    expect(run(',', '')).toEqual(empty);
    expect(run(',', PhpArray.fromList(['a']))).toEqual(empty);
    expect(run('', 'abc')).toEqual(empty);
    expect(run('/(/', 'abc')).toEqual(empty);
    expect(run(null, 'abc')).toEqual(empty);
  });
});

describe('rcms_match / rcms_match_all', () => {
  const cases: { pattern: string; subject: string; flags?: number; offset?: number }[] = [
    { pattern: '/(\\d+)-(\\d+)/', subject: 'tel 03-1234' },
    { pattern: '/(\\d+)-(\\d+)?/', subject: 'tel 03-', flags: 512 },
    { pattern: '/(?<a>\\d+)/', subject: '日本 42', flags: 256 },
    { pattern: '/x/', subject: 'abc' },
    { pattern: '/(/', subject: 'abc' },
    { pattern: '/\\d/', subject: 'a1b2', offset: 2 },
    { pattern: '|<[^>]+>(.*)</[^>]+>|U', subject: '<b>example: </b><div align=left>this is a test</div>', flags: 2 },
    { pattern: '/(\\w+)=\\K(\\w+)/', subject: 'a=1 bb=22', flags: 256 },
    { pattern: '/\\G(\\d)/', subject: '12a3', flags: 2 },
    { pattern: '/\\G(\\d)/', subject: 'a12', offset: 1 },
    { pattern: '/(?|(?<k>\\d+)|\\[(?<k>\\w+)\\])(x)?/', subject: '[ab] 12x', flags: 512 },
    { pattern: '/(?|"([^"]*)"|\'([^\']*)\')/', subject: 'say "hi" and \'yo\'', flags: 2 | 256 },
  ];
  test('the stored value is the matches, 0 or false as PHP decides', () => {
    const calls = cases.flatMap((c) => [
      {
        fn: '__eval',
        args: [
          `$r = @preg_match(base64_decode('${b64(c.pattern)}'), base64_decode('${b64(c.subject)}'), $m, ${(c.flags ?? 0) & 0x300}, ${c.offset ?? 0}); return $r === false ? false : ($r ? $m : 0);`,
        ],
      },
      {
        fn: '__eval',
        args: [
          `$r = @preg_match_all(base64_decode('${b64(c.pattern)}'), base64_decode('${b64(c.subject)}'), $m, ${c.flags ?? 0}, ${c.offset ?? 0}); return $r === false ? false : ($r ? $m : 0);`,
        ],
      },
    ]);
    const res = askPhp(calls);
    cases.forEach((c, i) => {
      const attrs = { var: 'm', ...c, flags: c.flags ?? 0, offset: c.offset ?? 0 };
      expect(toTagged(rcmsMatch({ ...attrs, flags: attrs.flags & 0x300 }))).toEqual(res[2 * i].value);
      expect(toTagged(rcmsMatchAll(attrs))).toEqual(res[2 * i + 1].value);
    });
  });
});

describe('plugin declarations', () => {
  test('every plugin has examples and a unique name', () => {
    const names = plugins.map((p) => p.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.sort()).toEqual([
      'preg_match',
      'preg_replace',
      'rcms_match',
      'rcms_match_all',
      'regex_replace',
      'split',
    ]);
    for (const p of plugins) expect(p.examples.length).toBeGreaterThan(0);
  });
});
