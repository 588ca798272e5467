/**
 * 64-bit ints through whole templates, against php-cli (docs/decisions.md D69-D71): integer
 * literals, variables given as JSON text, arithmetic, {if} comparisons, {math}, {counter},
 * {add}/{subtract}, printing, and the modifiers that count, sort, format or encode. Each case
 * is a template and the PHP that Smarty 2 runs for it, on the same variables
 * (`extract(json_decode(VARS, true))`); the outputs must be equal byte for byte.
 *
 * The IDs are what integrations send: snowflake IDs, nanosecond timestamps, chat timestamps
 * ("1700000000.123456"), 2^53 +- 1, PHP_INT_MAX and PHP_INT_MIN. PHP's outputs are committed in
 * test/fixtures/php/conformance/int64-templates.json, re-checked against live PHP in CI.
 */
import { describe, expect, it } from 'vitest';
import { testEngine } from '../support/engine.js';
import { phpGolden } from '../support/php-golden.js';
import { taggedBytes, type OracleCall } from '../support/php-oracle.js';

interface Case {
  name: string;
  tpl: string;
  /** The variables, as JSON text (so that big ints reach both sides exactly). */
  vars: string;
  /** PHP that echoes what Smarty 2 prints for the template. */
  php: string;
}

const SNOWFLAKE = '1541815603606036480';
const NS = '1700000000123456789';
const cases: Case[] = [];
const add = (name: string, tpl: string, vars: object | string, php: string) =>
  cases.push({ name, tpl, vars: typeof vars === 'string' ? vars : JSON.stringify(vars), php });

// Integer literals in the template: exact past 2^53, a float past PHP_INT_MAX, and `-` is an
// operator on the literal after it (so -9223372036854775808 is a float, as in PHP).
for (const lit of [
  '9007199254740991',
  '9007199254740992',
  '9007199254740993',
  '9223372036854775807',
  '9223372036854775808',
  '-9007199254740993',
  '-9223372036854775807',
  '-9223372036854775808',
  '18446744073709551616',
]) {
  add(`literal ${lit}`, `{${lit}}`, {}, `echo ${lit};`);
}
add('literal assigned + 1', '{assign var=x value=9007199254740993}{$x+1}', {}, '$x = 9007199254740993; echo $x + 1;');
add(
  'literal past 2^63 assigned',
  '{assign var=x value=9223372036854775808}{$x}',
  {},
  '$x = 9223372036854775808; echo $x;',
);
add(
  'PHP_INT_MAX',
  '{$smarty.const.PHP_INT_MAX}|{$smarty.const.PHP_INT_MIN}',
  {},
  "echo PHP_INT_MAX, '|', PHP_INT_MIN;",
);
add('PHP_INT_MAX + 1', '{$smarty.const.PHP_INT_MAX+1}', {}, 'echo PHP_INT_MAX + 1;');
add('literal key', '{$a.9007199254740993}', `{"a":{"9007199254740993":"x"}}`, 'echo $a[9007199254740993];');
add(
  'literal in if',
  '{if $a > 9007199254740992}T{else}F{/if}',
  '{"a":9007199254740993}',
  "echo $a > 9007199254740992 ? 'T' : 'F';",
);

// Variables as JSON text keep their digits; arithmetic overflows to float at 2^63.
const J = (o: Record<string, string>) =>
  `{${Object.entries(o)
    .map(([k, v]) => `"${k}":${v}`)
    .join(',')}}`;
for (const a of [
  '9007199254740992',
  '9007199254740993',
  SNOWFLAKE,
  NS,
  '9223372036854775807',
  '-9223372036854775808',
  '9223372036854775808',
]) {
  add(`print ${a}`, '{$a}', J({ a: a }), 'echo $a;');
  add(`${a} + 1`, '{$a+1}', J({ a: a }), 'echo $a + 1;');
  add(`${a} - 1`, '{$a-1}', J({ a: a }), 'echo $a - 1;');
}
add('int * 3 fits', '{$a*3}', J({ a: '3074457345618258602' }), 'echo $a * 3;');
add('int * 3 overflows', '{$a*3}', J({ a: '3074457345618258603' }), 'echo $a * 3;');
add('exact int division', '{$a/2}', J({ a: '9007199254740994' }), 'echo $a / 2;');
add('inexact int division', '{$a/3}', J({ a: '9007199254740994' }), 'echo $a / 3;');
add('snowflake % 1000', '{$a%1000}', J({ a: SNOWFLAKE }), 'echo $a % 1000;');
add(
  'snowflake timestamp bits',
  '{math equation="(a >> 22) + 1420070400000" a=$a}',
  J({ a: SNOWFLAKE }),
  'echo ($a >> 22) + 1420070400000;',
);
add('unary minus of PHP_INT_MIN', '{math equation="-a" a=$a}', J({ a: '-9223372036854775808' }), 'echo -$a;');
add('int string + 0', '{$a+0}', J({ a: '"9223372036854775807"' }), 'echo $a + 0;');
add('overflowing int string + 0', '{$a+0}', J({ a: '"9223372036854775808"' }), 'echo $a + 0;');
add('chat timestamp + 0', '{$t+0}', J({ t: '"1700000000.123456"' }), 'echo $t + 0;');
add(
  'chat timestamp in microseconds',
  '{$t*1000000|intval}',
  J({ t: '"1700000000.123456"' }),
  'echo intval($t * 1000000);',
);
add('nested id', '{$m.user.id}', `{"m":{"user":{"id":${SNOWFLAKE}}}}`, "echo $m['user']['id'];");
add(
  'big int keys in order',
  '{foreach from=$a key=k item=v}{$k}={$v},{/foreach}',
  '{"a":{"b":1,"9007199254740993":2,"-9223372036854775808":3,"9223372036854775808":4}}',
  'foreach ($a as $k => $v) echo "$k=$v,";',
);
add(
  'section index + id',
  '{section name=i loop=3}{$a+$smarty.section.i.index},{/section}',
  J({ a: '9223372036854775806' }),
  'for ($i = 0; $i < 3; $i++) echo $a + $i, ",";',
);

// {if}: PHP 8 comparisons of ints, floats and numeric strings.
const IFS: [string, string, string][] = [
  ['"9223372036854775807"', '"9223372036854775808"', '=='],
  ['"9223372036854775808"', '"9223372036854775809"', '<'],
  ['"9223372036854775808"', '"9223372036854775808.0"', '=='],
  ['"9007199254740993"', '"9007199254740992"', '=='],
  ['9007199254740993', '9007199254740992.0', '=='],
  ['9007199254740993', '"9007199254740992"', '=='],
  ['9223372036854775807', '"9223372036854775808"', '=='],
  ['9223372036854775807', '9223372036854775808', '<'],
  [SNOWFLAKE, `"${SNOWFLAKE}"`, '==='],
  [SNOWFLAKE, `"${SNOWFLAKE}"`, '=='],
  ['"1700000000.123456"', '"1700000000.123457"', '<'],
  ['"99999999999999999999"', '"99999999999999999998"', '>'],
];
for (const [a, b, op] of IFS)
  add(`${a} ${op} ${b}`, `{if $a ${op} $b}T{else}F{/if}`, J({ a, b }), `echo $a ${op} $b ? 'T' : 'F';`);

// Modifiers that convert, format or print.
add('intval of an overflowing string', '{$a|intval}', J({ a: '"9223372036854775808"' }), 'echo intval($a);');
add('intval of -2^63 - 1', '{$a|intval}', J({ a: '"-9223372036854775809"' }), 'echo intval($a);');
add('intval with leading space', '{$a|intval}', J({ a: '" 9007199254740993"' }), 'echo intval($a);');
add('intval of a chat timestamp', '{$a|intval}', J({ a: '"1700000000.123456"' }), 'echo intval($a);');
add('intval of 1e19', '{$a|intval}', J({ a: '1e19' }), 'echo intval($a);');
add('intval base 16', '{$a|intval:16}', J({ a: '"7fffffffffffffff"' }), 'echo intval($a, 16);');
add('floatval', '{$a|floatval}', J({ a: '9007199254740993' }), 'echo floatval($a);');
add('abs of -PHP_INT_MAX', '{$a|abs}', J({ a: '-9223372036854775807' }), 'echo abs($a);');
add('abs of PHP_INT_MIN', '{$a|abs}', J({ a: '-9223372036854775808' }), 'echo abs($a);');
add('round', '{$a|round}', J({ a: '9007199254740993' }), 'echo round($a);');
add('round -2', '{$a|round:-2}', J({ a: SNOWFLAKE }), 'echo round($a, -2);');
add('number_format', '{$a|number_format}', J({ a: '9007199254740993' }), 'echo number_format($a);');
add('number_format 2', '{$a|number_format:2}', J({ a: SNOWFLAKE }), 'echo number_format($a, 2);');
add('string_format %d', '{$a|string_format:"%d"}', J({ a: '9223372036854775807' }), 'echo sprintf("%d", $a);');
add('string_format %020d', '{$a|string_format:"%020d"}', J({ a: '-9007199254740993' }), 'echo sprintf("%020d", $a);');
add('string_format %x', '{$a|string_format:"%x"}', J({ a: SNOWFLAKE }), 'echo sprintf("%x", $a);');
add('string_format %u', '{$a|string_format:"%u"}', J({ a: '-9007199254740993' }), 'echo sprintf("%u", $a);');
add('string_format %.0f', '{$a|string_format:"%.0f"}', J({ a: '9007199254740993' }), 'echo sprintf("%.0f", $a);');
add('sprintf of a string id', '{"%s/%d"|sprintf:$a:$a}', J({ a: `"${SNOWFLAKE}"` }), 'echo sprintf("%s/%d", $a, $a);');
add('strlen', '{$a|strlen}', J({ a: NS }), 'echo strlen($a);');
add('str_pad', '{$a|str_pad:25:"0":0}', J({ a: '9007199254740993' }), 'echo str_pad($a, 25, "0", STR_PAD_LEFT);');
add('substr', '{$a|substr:0:10}', J({ a: NS }), 'echo substr($a, 0, 10);');
add(
  'is_numeric',
  '{if $a|is_numeric}T{else}F{/if}',
  J({ a: '"9223372036854775808"' }),
  "echo is_numeric($a) ? 'T' : 'F';",
);
add('filter_var int', '{$a|filter_var:257}', J({ a: '"9223372036854775807"' }), 'echo filter_var($a, 257);');
add(
  'filter_var int overflow',
  '{if $a|filter_var:257 === false}F{/if}',
  J({ a: '"9223372036854775808"' }),
  "echo filter_var($a, 257) === false ? 'F' : '';",
);

// Arrays: sums, extremes, sorting, searching, keys, JSON.
add('array_sum exact', '{$l|@array_sum}', '{"l":[9007199254740993,1]}', 'echo array_sum($l);');
add('array_sum of strings', '{$l|@array_sum}', '{"l":["9007199254740993","1"]}', 'echo array_sum($l);');
add('array_sum overflows', '{$l|@array_sum}', '{"l":[9223372036854775807,1]}', 'echo array_sum($l);');
add('array_sum with a float', '{$l|@array_sum}', '{"l":[9007199254740993,0.5]}', 'echo array_sum($l);');
add('max of ids', '{$l|@max}', `{"l":[${SNOWFLAKE},1541815603606036481,1541815603606036479]}`, 'echo max($l);');
add('max int against equal float', '{$l|@max}', '{"l":[9007199254740992.0,9007199254740993]}', 'echo max($l);');
add('min of overflowing strings', '{$l|@min}', '{"l":["9223372036854775808","9223372036854775807"]}', 'echo min($l);');
add('min of chat timestamps', '{$l|@min}', '{"l":["1700000000.123457","1700000000.123456"]}', 'echo min($l);');
add(
  'sort mixed',
  '{$l|@sort}|{$l|@json_encode}',
  '{"l":[9007199254740993,"9007199254740992",9007199254740992.0,1]}',
  'echo sort($l), "|", json_encode($l);',
);
add(
  'rsort ids',
  '{$l|@rsort}|{$l|@json_encode}',
  `{"l":[1541815603606036479,${SNOWFLAKE},"1541815603606036481"]}`,
  'echo rsort($l), "|", json_encode($l);',
);
add(
  'sort numeric strings past 64 bits',
  '{$l|@sort}|{$l|@json_encode}',
  '{"l":["9223372036854775809","9223372036854775808","9223372036854775807"]}',
  'echo sort($l), "|", json_encode($l);',
);
add(
  'ksort big keys',
  '{$l|@ksort}|{$l|@json_encode}',
  '{"l":{"9223372036854775807":1,"b":2,"9007199254740993":3,"-1":4}}',
  'echo ksort($l), "|", json_encode($l);',
);
add(
  'in_array int string against float',
  '{if $a|in_array:$l}T{else}F{/if}',
  '{"a":"9007199254740993","l":[9007199254740992.0]}',
  "echo in_array($a, $l) ? 'T' : 'F';",
);
add(
  'in_array int string against int',
  '{if $a|in_array:$l}T{else}F{/if}',
  '{"a":"9007199254740993","l":[9007199254740992]}',
  "echo in_array($a, $l) ? 'T' : 'F';",
);
add(
  'array_search',
  '{$a|array_search:$l}',
  '{"a":"9007199254740993","l":[1,9007199254740993]}',
  'echo array_search($a, $l);',
);
add(
  'array_keys',
  '{$a|@array_keys|@json_encode}',
  '{"a":{"b":1,"9007199254740993":2}}',
  'echo json_encode(array_keys($a));',
);
add(
  'array_unique',
  '{$a|@array_unique|@json_encode}',
  '{"a":["9007199254740993",9007199254740993,"9007199254740992"]}',
  'echo json_encode(array_unique($a));',
);
add('count', '{$a|@count}', '{"a":{"9007199254740993":1,"9007199254740992":2}}', 'echo count($a);');
add(
  'range past 2^53',
  '{$a|range:$b|@json_encode}',
  '{"a":9007199254740990,"b":9007199254740994}',
  'echo json_encode(range($a, $b));',
);
add(
  'range to PHP_INT_MAX',
  '{$a|range:$b|@json_encode}',
  '{"a":9223372036854775805,"b":9223372036854775807}',
  'echo json_encode(range($a, $b));',
);
add(
  'json_encode',
  '{$l|@json_encode}',
  '{"l":[9007199254740993,9223372036854775807,-9223372036854775808,9223372036854775808]}',
  'echo json_encode($l);',
);
add('json_encode object keys', '{$a|@json_encode}', '{"a":{"9007199254740993":1,"x":2}}', 'echo json_encode($a);');
add(
  'json_decode exact',
  '{$s|@json_decode:true|@json_encode}',
  J({ s: JSON.stringify(`{"id":${SNOWFLAKE},"t":${NS},"max":9223372036854775807}`) }),
  'echo json_encode(json_decode($s, true));',
);
add(
  'json_decode past 2^63',
  '{$s|@json_decode:true|@json_encode}',
  J({ s: JSON.stringify('[9223372036854775808,-9223372036854775809]') }),
  'echo json_encode(json_decode($s, true));',
);
add(
  'json_decode of a big int alone',
  '{$s|json_decode}',
  J({ s: JSON.stringify('9007199254740993') }),
  'echo json_decode($s);',
);

// {math}, {counter}, {add} and {subtract}: PHP's + on the values Smarty 2 hands it.
add('math a+b fits', '{math equation="a+b" a=$a b=1}', J({ a: '9223372036854775806' }), 'echo $a + 1;');
add('math a+b overflows', '{math equation="a+b" a=$a b=2}', J({ a: '9223372036854775806' }), 'echo $a + 2;');
add('math a*b', '{math equation="a*b" a=$a b=2}', J({ a: '4611686018427387903' }), 'echo $a * 2;');
add('math with a string id', '{math equation="a-1" a=$a}', J({ a: '"9223372036854775807"' }), 'echo $a - 1;');
add('math literal', '{math equation="9007199254740993 + 0"}', {}, 'echo 9007199254740993 + 0;');
add('math 2**62', '{math equation="2**62"}', {}, 'echo 2**62;');
add('math 2**63', '{math equation="2**63"}', {}, 'echo 2**63;');
add('math 3**40', '{math equation="3**40"}', {}, 'echo 3**40;');
add('math hex literal', '{math equation="0x7FFFFFFFFFFFFFFF - 1"}', {}, 'echo 0x7FFFFFFFFFFFFFFF - 1;');
add(
  'math format %d',
  '{math equation="a+b" a=$a b=1 format="%d"}',
  J({ a: '9007199254740993' }),
  'printf("%d", $a + 1);',
);
add('math (int)', '{math equation="(int)a" a=$a}', J({ a: '"9223372036854775808"' }), 'echo (int)$a;');
// Smarty 2's {counter}: (int)start, then count += skip after each print.
add(
  'counter over PHP_INT_MAX',
  '{counter start=$a}{counter}{counter}',
  J({ a: '9223372036854775806' }),
  '$c = (int)$a; for ($i = 0; $i < 3; $i++) { echo $c; $c += 1; }',
);
add(
  'counter down past PHP_INT_MIN',
  '{counter start=$a direction=down}{counter}',
  J({ a: '-9223372036854775807' }),
  '$c = (int)$a; for ($i = 0; $i < 2; $i++) { echo $c; $c -= 1; }',
);
add('add', '{add var=x value=1}{$x}', J({ x: '9007199254740993' }), '$x = $x + 1; echo $x;');
add('add overflows', '{add var=x value=1}{$x}', J({ x: '9223372036854775807' }), '$x = $x + 1; echo $x;');
add('subtract', '{subtract var=x value=1}{$x}', J({ x: '-9223372036854775808' }), '$x = $x - 1; echo $x;');
add('add a string id', '{add var=x value=$y}{$x}', J({ x: `"${SNOWFLAKE}"`, y: '1' }), '$x = $x + $y; echo $x;');

function phpCall(c: Case): OracleCall {
  const vars = Buffer.from(c.vars, 'utf8').toString('base64');
  return {
    fn: '__eval',
    args: [`extract(json_decode(base64_decode('${vars}'), true)); ob_start(); ${c.php} return ob_get_clean();`],
  };
}

const results = phpGolden('conformance/int64-templates', cases.map(phpCall), { labels: cases.map((c) => c.name) });
const engine = testEngine();

describe('64-bit ints through templates against php', () => {
  it('has a large table', () => expect(cases.length).toBeGreaterThanOrEqual(80));
  it.each(cases.map((c, i) => [c.name, i] as const))('%s', async (_name, i) => {
    const c = cases[i];
    const r = results[i];
    expect(r.ok, r.error).toBe(true);
    const { output } = await engine.render(c.tpl, { name: 'int64.tpl', vars: c.vars });
    expect(output).toBe(taggedBytes(r.value!).toString('utf8'));
  });
});
