#!/usr/bin/env node
// Differential fuzzing of the dialect's Smarty 2 core against real Smarty 2.6.33 on PHP 8.2: makes
// random but plausible templates and variables from a seed, renders each with the oracle
// (smarty2-record.php, as record-smarty2.mjs drives it) and with the built engine (dist/, the
// real path: compiled, then run in a sandbox worker), and prints how many differ, by bucket.
//
//   npm run build
//   SMARTY2_DIR=/tmp/smarty2 node scripts/oracle/fuzz-smarty2.mjs [--seed N] [--count N]
//       [--out FILE]   write every divergent case (template, vars, both outputs) as JSON lines
//       [--only WORD]  generate only fragments of one kind (output, if, foreach, section, ...);
//                      `real` makes the page fragments real sites write (menus, paginations,
//                      grids, forms, captures, includes) over database-like rows
//
// A tool, never a test: CI does not run it, and nothing it writes is committed. A divergence it
// finds becomes a hand-written case in test/conformance/smarty2/fuzz-found.cases.jsonl, recorded
// with record-smarty2.mjs. The generator leaves out what the dialect departs from on purpose
// (test/conformance/smarty2/README.md, docs/dialect.md "Departures"): objects, `count` and
// `explode` of non-arrays, `escape:htmlall` without a charset on non-ASCII text, `escape` as hex,
// hexentity or decentity (Smarty 2 indexes a number itself), `cat`, `escape`, `strtolower` and
// `substr` given a whole array with `@` (the dialect gives ''), `date_format` without a format
// (the platform's `Y-m-d`) or of what is not a date (Smarty 2 takes the clock), a quoted `|` in
// modifier arguments, a number with modifiers in `{if}`, integers past 2^53, `{counter}`,
// `{cycle}` and `$smarty.now`. What it still meets of the documented departures (PHP
// 8's TypeErrors and ValueErrors, which the dialect turns into null; a key on a string, D313;
// `escape` of bytes a cut left that are not UTF-8, where the dialect's char_set is UTF-8 and
// Smarty's ISO-8859-1: the case is rendered again by Smarty with UTF-8 to tell) is counted as
// "deliberate"; a template that keeps PHP busy past 20 s is skipped.
// SMARTY2_DIR is an unpacked Smarty 2.6.33 release; it is never part of the project.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : dflt;
};
const SEED = Number(opt('seed', '1'));
const COUNT = Number(opt('count', '200'));
const OUT = opt('out', '');
const ONLY = opt('only', '');

if (!process.env.SMARTY2_DIR) {
  console.error('fuzz-smarty2: set SMARTY2_DIR to an unpacked Smarty 2.6.33 (see the header of this script)');
  process.exit(2);
}
// isolated-vm needs Node started without its snapshot; restart once with the flag.
if (!process.execArgv.includes('--no-node-snapshot')) {
  const r = spawnSync(process.execPath, ['--no-node-snapshot', fileURLToPath(import.meta.url), ...args], {
    stdio: 'inherit',
  });
  process.exit(r.status ?? 1);
}

/** mulberry32: small, seeded, reproducible. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rnd = prng(SEED);
const int = (n) => Math.floor(rnd() * n);
const pick = (xs) => xs[int(xs.length)];
const chance = (p) => rnd() < p;

// ---------------------------------------------------------------------------------------------
// Values

const WORDS = [
  'alpha',
  'Beta',
  'gamma delta',
  'hello world',
  'x',
  'Äpfel',
  '日本語テキスト',
  'café',
  "O'Reilly",
  'a&b',
  '<b>bold</b>',
  'tab\there',
  'line\nbreak',
  'two\n\nparas',
  'crlf\r\nline',
  '  padded  ',
  'UPPER case',
  'snake_case-word',
  'über straße',
  'émoji 😀 ok',
  'Mr. Smith. Dr. Who! Yes?',
  '"quoted"',
  'back\\slash',
  '100%',
  '$5.00',
  'x y z w v u t s r q p o n m l k j i h g f e d c b a',
];
const NUMS = [
  0, 1, 2, 3, 7, 10, 12, 42, 99, 100, 255, 1000, 65536, 123456789, -1, -7, -42, 1.5, 0.1, 2.25, -3.75, 3.14159, 1e15,
  1.0e-7, 0.30000000000000004, 12345.678, 2147483648,
];
const NUMSTR = [
  '0',
  '1',
  '01',
  '42',
  '-5',
  '3.50',
  '1e3',
  ' 7',
  '7 ',
  '0x1A',
  '1,000',
  '12abc',
  '',
  '0.0',
  '-0',
  '9007199254740991',
];

function scalar() {
  switch (int(6)) {
    case 0:
    case 1:
      return pick(WORDS);
    case 2:
    case 3:
      return pick(NUMS);
    case 4:
      return pick(NUMSTR);
    default:
      return pick([null, true, false, '', 0, '0']);
  }
}
function list(depth) {
  const n = int(5);
  return Array.from({ length: n }, () => (depth > 0 && chance(0.3) ? map(depth - 1) : scalar()));
}
function map(depth) {
  const keys = ['a', 'b', 'name', 'id', 'title', 'x', 'n', '0', '1', '10', 'k-1'];
  const out = {};
  for (let i = int(5); i > 0; i--) out[pick(keys)] = depth > 0 && chance(0.3) ? pick([list, map])(depth - 1) : scalar();
  return out;
}
function makeVars() {
  return {
    s: pick(WORDS),
    t: pick(WORDS),
    n: pick(NUMS.filter((x) => Number.isInteger(x) && Math.abs(x) < 1e6)),
    m: pick(NUMS),
    f: pick(NUMS.filter((x) => !Number.isInteger(x))),
    ns: pick(NUMSTR),
    e: pick([null, '', 0, '0', false, [], true]),
    b: chance(0.5),
    l: list(1),
    w: Array.from({ length: 1 + int(4) }, () => pick(WORDS)),
    k: map(1),
    rows: Array.from({ length: int(4) }, () => ({ id: int(100), name: pick(WORDS), tags: list(0), price: pick(NUMS) })),
    ts: pick([86400, 1700000000, 1234567890, 951782400, '2024-02-29', '2001-09-09 01:46:40', '20240101123456']),
  };
}

// ---------------------------------------------------------------------------------------------
// Template pieces

const SCALARS = [
  '$s',
  '$t',
  '$n',
  '$m',
  '$f',
  '$ns',
  '$e',
  '$b',
  '$l[0]',
  '$l[1]',
  '$l.2',
  '$w[0]',
  '$k.a',
  '$k.name',
  '$k.0',
  '$k.1',
  '$rows[0].name',
  '$rows[0].id',
  '$rows[1].price',
  '$k.x.a',
  '$missing',
];
const NUMBERS = ['$n', '$m', '$f', '$ns', '$rows[0].price', '$l[0]'];
const ARRAYS = ['$l', '$w', '$k', '$rows', '$rows[0].tags', '$e'];

function qstr() {
  const bits = [];
  for (let i = int(3) + 1; i > 0; i--)
    bits.push(
      pick([
        'text',
        ' ',
        'a b',
        '$s',
        '$n',
        '`$k.name`',
        '`$l[0]`',
        '`$n+1`',
        '\\"',
        '\\n',
        '\\t',
        '日本',
        '$n px',
        '[$n]',
        '$w[0]',
        '%s',
      ]),
    );
  return `"${bits.join('')}"`;
}
function sqstr() {
  return `'${pick(['plain', "it\\'s", '$s', '\\n', 'a|b', ' ', '', '日本', 'x%sy'])}'`;
}
function literal() {
  return pick([() => String(pick([0, 1, 2, 3, 10, -1, 42, 1.5, -2.5, 100])), qstr, sqstr])();
}
function mathExpr() {
  const a = pick(NUMBERS);
  const op = pick(['+', '-', '*', '/', '%']);
  const b = pick([...NUMBERS, '1', '2', '3', '10', '0.5']);
  if ((op === '/' || op === '%') && /^\$/.test(b)) return `${a}${op}2`;
  return `${a}${op}${b}`;
}
function operand() {
  return chance(0.15) ? mathExpr() : chance(0.2) ? literal() : pick(SCALARS);
}

const NUM_ARGS = () => pick(['0', '1', '3', '5', '10', '20', '-1', '"8"']);
const MODS = [
  ['upper'],
  ['lower'],
  ['capitalize', () => pick(['', ':true'])],
  // Not hex, hexentity, decentity: Smarty 2 indexes a number itself there (README, left out).
  [
    'escape',
    () =>
      pick([
        '',
        ':"html"',
        ':"htmlall":"UTF-8"',
        ':"url"',
        ':"urlpathinfo"',
        ':"quotes"',
        ':"javascript"',
        ':"mail"',
        ':"nonstd"',
      ]),
  ],
  [
    'truncate',
    () =>
      pick([
        '',
        `:${NUM_ARGS()}`,
        `:${NUM_ARGS()}:"…"`,
        `:${NUM_ARGS()}:"":true`,
        `:${NUM_ARGS()}:"...":false:true`,
        `:${NUM_ARGS()}:'--':true:true`,
      ]),
  ],
  [
    'string_format',
    () =>
      pick([
        ':"%d"',
        ':"%.2f"',
        ':"%05.1f"',
        ':"%s!"',
        ':"%x"',
        ':"%b"',
        ':"%10s|"',
        ':"%-6s|"',
        ':"%+d"',
        ':"%e"',
        ':"%u"',
        ':"%\'*8s"',
      ]),
  ],
  ['default', () => pick([':"none"', ':0', ':$s', ":''", ''])],
  ['replace', () => pick([':"a":"A"', ':" ":"_"', ':"":"x"', ':"l":""', ':$s:"S"', ':"日":"月"'])],
  [
    'regex_replace',
    () =>
      pick([
        ':"/[aeiou]/":"*"',
        ':"/\\s+/":"-"',
        ':"/(\\w+)/":"[$1]"',
        ':"/^./":""',
        ':"/\\d/":"#"',
        ':"/./u":"."',
        ':"/(a)(b)?/":"\\\\2"',
      ]),
  ],
  ['cat', () => pick([':"!"', ':$n', ':$s', ':""', ':$f'])],
  ['count_characters', () => pick(['', ':true'])],
  ['count_words'],
  ['count_sentences'],
  ['count_paragraphs'],
  ['indent', () => pick(['', ':2', ':1:"\\t"', ':3:"."', ':0'])],
  // No `"|"` argument: Smarty 2 splits arguments at a quoted `|` after an unquoted one (README).
  ['wordwrap', () => pick(['', ':5', ':10:"<br>"', ':3:"\\n":true', ':8:"/":false', ':1'])],
  ['spacify', () => pick(['', ':"-"', ':""', ':"  "'])],
  ['nl2br'],
  ['strip_tags', () => pick(['', ':false', ':true'])],
  ['strip', () => pick(['', ':"_"', ':"&nbsp;"'])],
];
// PHP functions the dialect allows as modifiers (security off in the oracle for these).
const PHP_MODS = [
  ['trim'],
  ['ltrim', () => pick(['', ':"a "'])],
  ['rtrim', () => pick(['', ':"."'])],
  ['strlen'],
  ['strtolower'],
  ['strtoupper'],
  ['ucfirst'],
  ['ucwords'],
  ['nl2br'],
  ['md5'],
  ['urlencode'],
  ['intval'],
  ['floatval'],
  ['abs'],
  ['round', () => pick(['', ':1', ':2', ':-1'])],
  ['floor'],
  ['ceil'],
  ['number_format', () => pick(['', ':2', ':1:",":"."', ':0:"":" "'])],
  ['substr', () => pick([':1', ':0:3', ':-2', ':2:-1'])],
  ['mb_substr', () => pick([':1', ':0:3', ':-2'])],
  ['mb_strlen'],
  ['sprintf', () => pick([':"x"', ':$n'])],
  ['str_pad', () => pick([':8', ':8:"*"', ':8:"-":$smarty.const.STR_PAD_LEFT'])],
  ['strip_tags'],
  ['json_encode'],
  ['is_numeric'],
  ['strval'],
  ['boolval'],
  ['base64_encode'],
  ['html_entity_decode'],
  ['htmlspecialchars_decode'],
  ['substr_count', () => pick([':"a"', ':" "', ':"日"'])],
  ['strpos', () => pick([':"a"', ':" "', ':"a":2'])],
  ['stripos', () => pick([':"A"', ':"e"'])],
  ['strstr', () => pick([':" "', ':"a":true'])],
  ['mb_strimwidth', () => pick([':0:5', ':0:6:"…"', ':2:4:".."'])],
  ['mb_strwidth'],
  ['rawurldecode'],
  ['ucwords'],
];
const ARRAY_MODS = [
  ['@count'],
  ['@implode', () => pick([':","', ''])],
  ['@array_reverse'],
  ['@array_keys'],
  ['@json_encode'],
  ['@array_sum'],
  ['@max'],
  ['@min'],
  ['@array_unique'],
  ['@array_values'],
  ['@array_slice', () => pick([':1', ':0:2', ':-1', ':1:1:true'])],
  ['@http_build_query'],
  ['@array_filter'],
];

const ctx = { php: false };
// Given a whole array with `@`, these give '' in the dialect (docs/dialect.md "Departures"; Smarty
// 2 prints `Array` or maps PHP's array form): never written with `@`.
const NO_AT = new Set(['cat', 'escape', 'strtolower', 'substr']);

function chain(base, kinds = MODS, n = int(3)) {
  let out = base;
  for (let i = 0; i < n; i++) {
    let set = kinds;
    if (chance(0.15)) {
      set = PHP_MODS;
      ctx.php = true;
    }
    const [name, argf] = pick(set);
    const at = chance(0.05) && !name.startsWith('@') && !NO_AT.has(name) ? '@' : '';
    out += `|${at}${name}${argf ? argf() : ''}`;
  }
  return out;
}
const DATE_FORMATS = [
  ':"%Y-%m-%d"',
  ':"%H:%M:%S"',
  ':"%d/%m/%y %I%p"',
  ':"%A %B %e"',
  ':"%j %U %w"',
  ':"%D %T"',
  ':"%b %d, %Y"',
];
function output() {
  // Smarty 2 dates what it cannot parse at the current time: date_format reads the fixed stamps only.
  if (chance(0.08)) return `{${chain(`$ts|date_format${pick(DATE_FORMATS)}`)}}`;
  if (chance(0.1)) {
    ctx.php = true;
    return `{${chain(pick(ARRAYS), ARRAY_MODS, 1)}}`;
  }
  if (chance(0.08)) return `{${chain(pick(ARRAYS))}}`; // a modifier without @ maps over the array
  if (chance(0.1)) return `{${mathExpr()}}`;
  return `{${chain(operand())}}`;
}
function cond() {
  // A number with modifiers in {if} is Smarty 2's PHP error and the platform's plugins' idiom
  // (`{if 3|rcms_in_array:$l}`): only variables and strings take modifiers here.
  const a = chance(0.2) ? chain(pick([...SCALARS, qstr()]), MODS, 1) : operand();
  switch (int(6)) {
    case 0:
      return `${a}`;
    case 1:
      return `!${a}`;
    case 2:
      return `${a} ${pick(['eq', 'ne', 'neq', 'gt', 'lt', 'gte', 'lte', 'ge', 'le', '==', '!=', '>', '<', '>=', '<=', '===', '!==', '<>'])} ${operand()}`;
    case 3:
      return `${pick(NUMBERS)} is ${pick(['', 'not '])}${pick(['even', 'odd', 'div by 2', 'div by 3', 'even by 2', 'odd by 3'])}`;
    case 4:
      return `${cond()} ${pick(['and', 'or', '&&', '||'])} ${cond()}`;
    default:
      return pick([
        `is_array(${pick(ARRAYS)})`,
        `count(${pick(['$l', '$w', '$k', '$rows'])}) > 1`,
        `isset(${pick(SCALARS)})`,
        `in_array(${pick(SCALARS)}, ${pick(['$l', '$w'])})`,
        `(${a} ${pick(['+', '-', '*'])} 1) > 2`,
      ]);
  }
}
function body(depth) {
  const parts = [];
  for (let i = int(2) + 1; i > 0; i--) parts.push(fragment(depth + 1));
  return parts.join(pick(['', '\n', ' ', '\n  ']));
}
function ifBlock(depth) {
  let t = `{if ${cond()}}${body(depth)}`;
  for (let i = int(2); i > 0; i--) t += `{elseif ${cond()}}${body(depth)}`;
  if (chance(0.5)) t += `{else}${body(depth)}`;
  return `${t}{/if}`;
}
function foreachBlock(depth) {
  const name = pick(['f', 'g', 'loop']);
  const from = pick(ARRAYS);
  const key = chance(0.5) ? ` key=${pick(['key', 'i'])}` : '';
  const named = chance(0.6) ? ` name=${name}` : '';
  const props = named
    ? [`$smarty.foreach.${name}.${pick(['index', 'iteration', 'first', 'last', 'total', 'show'])}`]
    : [];
  const inner = [
    `{${chain('$it')}}`,
    key ? `{$${key.split('=')[1]}}` : '',
    ...props.map((p) => `{${p}}`),
    props.length && chance(0.5) ? `{if !$smarty.foreach.${name}.last},{/if}` : '',
    chance(0.3) ? `{$it.name|default:'-'}` : '',
    chance(0.3) ? fragment(depth + 1) : '',
  ];
  let t = `{foreach from=${from} item=it${key}${named}}${inner.filter(Boolean).join(pick(['', ' ', '\n']))}`;
  if (chance(0.3)) t += `{foreachelse}${pick(['empty', '', '{$s}'])}`;
  t += '{/foreach}';
  if (named && chance(0.3)) t += `{$smarty.foreach.${name}.${pick(['total', 'iteration', 'index', 'last'])}}`;
  return t;
}
function nestedLoops(depth) {
  const same = chance(0.5);
  return `{foreach from=$rows item=r name=o}{$smarty.foreach.o.iteration}:{$r.name|${pick(['upper', 'truncate:4', 'escape', 'count_characters'])}}{foreach from=$r.tags item=tg key=tk name=${same ? 'o' : 'i'}}[{$tk}={$tg}{if $smarty.foreach.${same ? 'o' : 'i'}.last}!{/if}]{foreachelse}-{/foreach}${chance(0.3) ? fragment(depth + 1) : ''}{/foreach}{$smarty.foreach.o.total}`;
}
function sectionRows() {
  return `{section name=r loop=$rows${pick(['', ' max=2', ' start=1', ' step=-1'])}}{$rows[r].id}:{$rows[r].name|${pick(['lower', 'capitalize', 'strip_tags', 'spacify:"."'])}}{section name=t loop=$rows[r].tags}({$rows[r].tags[t]}{if $smarty.section.t.last}.{/if}){/section}{$smarty.section.r.rownum}{/section}`;
}
function sectionBlock(depth) {
  const loop = pick([...ARRAYS, '$n', '3', '$ns', '0']);
  const attrs = [
    chance(0.3) ? ` start=${pick(['1', '-1', '2', '$n', '-3', '10'])}` : '',
    chance(0.3) ? ` step=${pick(['1', '2', '-1', '-2', '3'])}` : '',
    chance(0.3) ? ` max=${pick(['1', '2', '0', '5'])}` : '',
    chance(0.1) ? ` show=${pick(['false', 'true', '$b'])}` : '',
  ].join('');
  const p = pick(['index', 'index_prev', 'index_next', 'iteration', 'rownum', 'first', 'last', 'total', 'loop']);
  let t = `{section name=s loop=${loop}${attrs}}[{$smarty.section.s.${p}}:{${chain(`${loop.startsWith('$') && !/^\$(n|ns)$/.test(loop) ? loop : '$l'}[s]`)}}]${chance(0.2) ? fragment(depth + 1) : ''}`;
  if (chance(0.3)) t += '{sectionelse}none';
  t += '{/section}';
  if (chance(0.3)) t += `{$smarty.section.s.${pick(['total', 'loop', 'index', 'iteration', 'show'])}}`;
  return t;
}
function assignBlock() {
  const v = pick(['a1', 'a2', 's']);
  const value = pick([
    () => operand(),
    () => chain(pick(SCALARS), MODS, 1 + int(2)),
    qstr,
    mathExpr,
    () => pick(['true', 'yes', 'off', '010', '1.5', '-3']),
  ])();
  return `{assign var=${pick([v, `"${v}"`])} value=${value}}{${chain(`$${v}`)}}`;
}
function captureBlock(depth) {
  const name = pick(['c', 'cap']);
  const assign = chance(0.4) ? ' assign=ca' : '';
  return `{capture name=${name}${assign}}${body(depth)}{/capture}${assign ? `{$ca${chance(0.5) ? '|upper' : ''}}` : ''}[{${chain(`$smarty.capture.${name}`)}}]`;
}
function stripBlock(depth) {
  return `{strip}\n  ${body(depth)}\n  <b> x </b>\n\t{$s}\n{/strip}`;
}
function literalBlock() {
  return `{literal}${pick(['{a:1}', '<script>var x={y:$s};</script>', 'body { color: red }', '{$s}'])}{/literal}`;
}
function text() {
  return pick(['Hello ', '\n', ' - ', '<p>', '</p>\n', 'x', '  ', '\t', '日本 ', '{ldelim}', '{rdelim}']);
}
function mathTag() {
  return `{math equation="${pick(['x+y', 'x*y', 'x/y', 'x-y*2', 'max(x,y)', 'floor(x/y)', 'x%y', 'abs(x)', 'round(x)', 'sqrt(abs(x))'])}" x=${pick(NUMBERS.concat(['3', '1.5']))} y=${pick(['2', '3', '$n', '0.5'])}${chance(0.3) ? ` format="${pick(['%.2f', '%d', '%05d'])}"` : ''}}`;
}

// ---------------------------------------------------------------------------------------------
// Real shapes (`--only real`): the page fragments real Smarty 2 sites write (menus, paginations,
// grids, forms, captured blocks, included rows), over records whose fields take every type a
// database row gives. Attribute spellings vary as theirs do: quoted or not, spaces around `=`,
// any order. Only with `--only real`, so the other kinds' seeds keep their templates.

const REAL = ONLY === 'real';
// What `{include}` reads: the same few files for every case (the engine looks them up by name).
const INCLUDES = {
  'row.tpl':
    '<tr{if $n is even} class="alt"{/if}><td>{$n}</td><td>{$row.title|escape}</td><td>{$row.price|default:"-"}</td></tr>\n',
  'item.tpl': '{if $smarty.foreach.f.first}[{/if}{$it.id}{if !$smarty.foreach.f.last},{else}]{/if}',
  'box.tpl': '<div class="box">{if $title}<h3>{$title|escape}</h3>{/if}{$body}</div>\n',
  'tree.tpl':
    '<ul>{foreach from=$nodes item=node}<li>{$node.title|escape}{if $node.children}{include file="tree.tpl" nodes=$node.children}{/if}</li>{/foreach}</ul>',
};

function realVars() {
  const field = () => pick([int(50), String(int(50)), pick(NUMS), pick(WORDS), '', null, '0', pick(NUMSTR)]);
  const item = (d) => ({
    id: pick([int(20), String(int(20))]),
    title: pick(WORDS),
    price: pick([0, 1, 3, 12.5, 19.99, -2, '3.50', '0', '7', 100, 0.1]),
    qty: pick([0, 1, 2, '0', '3', null]),
    url: pick(['/a', '/b?x=1&y=2', '', 'http://x.org/"q"']),
    tags: Array.from({ length: int(4) }, () => pick(WORDS)),
    active: pick([true, false, 0, 1, '1', '', null]),
    note: field(),
    ...(d > 0 && chance(0.5) ? { children: Array.from({ length: int(4) }, () => item(d - 1)) } : {}),
  });
  return {
    items: Array.from({ length: int(7) }, () => item(1)),
    page: pick([1, 2, 3, '2', '1', 5]),
    pages: pick([1, 3, 5, '4', 0]),
    per: pick([2, 3, '3', 4]),
    total: pick([0, 7, 23, '10']),
    cur: pick([1, 2, '2', 0, 'a', '']),
    sel: pick([[], ['1', '2'], [1, 3], ['a'], [0]]),
    opts: pick([{ 1: 'One', 2: 'Two', a: 'A' }, ['x', 'y', 'z'], {}, { 0: 'None', 10: 'Ten' }]),
    title: pick(WORDS),
    s: pick(WORDS),
    n: pick([0, 1, 2, 3, '3', 7, -1]),
    flag: pick([true, false, '', '0', 'yes', null, 1, 'Y']),
    map: map(1),
  };
}

/** An attribute as real templates spell it: `a=v`, `a="v"`, `a='v'`, `a = v`. */
function attr(name, value, quotable = true) {
  const q = quotable && !value.startsWith('$') ? pick(['', '"', "'"]) : '';
  return `${name}${pick(['=', '=', '=', ' = '])}${q}${value}${q}`;
}
function attrs(...list) {
  const out = list.filter(Boolean);
  for (let i = out.length - 1; i > 0; i--) {
    const j = int(i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out.join(' ');
}
const FIELD = () => pick(['title', 'id', 'price', 'qty', 'url', 'note', 'active']);
function realChain(base) {
  return (
    base +
    pick([
      '',
      '|escape',
      '|escape:"html"',
      "|escape:'htmlall':'UTF-8'",
      '|default:"-"',
      "|default:''|escape",
      '|truncate:10:"..."',
      '|strip_tags|truncate:12',
      '|upper',
      '|capitalize',
      '|string_format:"%.2f"',
      '|string_format:"%02d"',
      '|replace:" ":"-"|lower',
      '|cat:"!"',
      '|escape:"url"',
      '|nl2br',
      '|default:$title|escape',
    ])
  );
}
const LOOP_COND = (f) =>
  pick([
    `$smarty.foreach.${f}.first`,
    `$smarty.foreach.${f}.last`,
    `!$smarty.foreach.${f}.last`,
    `$smarty.foreach.${f}.iteration is div by $per`,
    `$smarty.foreach.${f}.iteration is div by 2`,
    `$smarty.foreach.${f}.iteration%$per == 0`,
    `$smarty.foreach.${f}.iteration % 2 == 1`,
    `$smarty.foreach.${f}.iteration mod 2==0`,
    `($smarty.foreach.${f}.iteration-1) is div by 2`,
    `$smarty.foreach.${f}.index is even`,
    `$smarty.foreach.${f}.iteration is odd by 2`,
    `$smarty.foreach.${f}.iteration > ($smarty.foreach.${f}.total - $per)`,
    `$smarty.foreach.${f}.index+1 == $smarty.foreach.${f}.total`,
    `$smarty.foreach.${f}.iteration <= 2 && !$smarty.foreach.${f}.first`,
    `$smarty.foreach.${f}.total > 1 and $smarty.foreach.${f}.index neq 0`,
  ]);
const ITEM_COND = (v) =>
  pick([
    `$${v}.active`,
    `!$${v}.active`,
    `$${v}.id == $cur`,
    `$${v}.id eq $cur`,
    `$${v}.qty > 0 OR $${v}.active`,
    `$${v}.price > 10`,
    `$${v}.price gte 1 && $${v}.price lt 20`,
    `$${v}.tags|@count > 1`,
    `$${v}.children`,
    `in_array($${v}.id, $sel)`,
    `isset($${v}.note)`,
    `$${v}.note neq ''`,
    `$${v}.url|default:'' != ''`,
    `($${v}.qty == 0 || !$${v}.active) and $${v}.price`,
    `$${v}.id is even`,
  ]);

function realMenu(depth) {
  const f = pick(['menu', 'm', 'top']);
  const g = pick([f, 'sub', 'c']);
  const child =
    depth < 2 && chance(0.6)
      ? `{if $it.children}<ul>{foreach ${attrs(attr('from', '$it.children'), attr('item', 'c'), attr('name', g))}}<li${pick(['', `{if $smarty.foreach.${g}.last} class="last"{/if}`])}>${realChain(`{$c.${FIELD()}`)}}${pick(['', `({$smarty.foreach.${g}.iteration}/{$smarty.foreach.${g}.total})`, `{$smarty.foreach.${f}.iteration}`])}</li>{/foreach}</ul>{/if}`
      : '';
  const els = chance(0.3) ? `{foreachelse}<li>${pick(['none', '{$title}', ''])}</li>` : '';
  return `<ul>{foreach ${attrs(attr('from', '$items'), attr('item', 'it'), attr('name', f), chance(0.4) ? attr('key', 'k') : '')}}<li class="{if ${LOOP_COND(f)}}x{elseif ${ITEM_COND('it')}}y{/if}"><a href="${realChain('{$it.url')}}">${realChain(`{$it.${FIELD()}`)}}</a>${child}</li>${pick(['', '\n'])}${els}{/foreach}</ul>${pick(['', `{$smarty.foreach.${f}.total}`, `{if $smarty.foreach.${f}.total > 2}many{/if}`])}`;
}
function realPager() {
  const p = pick(['p', 'pagination', 'page']);
  const sec = pick([
    attrs(attr('name', p), attr('start', '$page-1'), attr('loop', '$page+2'), chance(0.5) ? attr('step', '1') : ''),
    attrs(attr('name', p), attr('loop', '$pages+1'), attr('start', '1')),
    attrs(attr('name', p), attr('loop', '$pages')),
    attrs(attr('name', p), attr('loop', '$total'), attr('max', '$per'), chance(0.5) ? attr('start', '$page') : ''),
  ]);
  const idx = pick([`$smarty.section.${p}.index`, `$smarty.section.${p}.iteration`, `$smarty.section.${p}.rownum`]);
  return `{if $page > 1}<a href="?p={$page-1}">&laquo;</a>{/if}{section ${sec}}{if ${idx} == $page}<b>{$page}</b>{else}<a href="?p=${`{${idx}}`}">{${pick([idx, `${idx}+1`, `${idx}|string_format:"%02d"`])}}</a>{/if}${pick(['', ` `, `{if !$smarty.section.${p}.last} | {/if}`])}${pick(['', '{sectionelse}none'])}{/section}{if $page < $pages}<a href="?p={$page+1}">&raquo;</a>{/if}${pick(['', `[{$smarty.section.${p}.total}]`, `{math equation="ceil(t/p)" t=$total p=$per}`])}`;
}
function realGrid() {
  const f = pick(['g', 'grid', 'prod']);
  return `<table><tr>{foreach ${attrs(attr('from', '$items'), attr('item', 'it'), attr('name', f))}}<td class="${pick(['c', `{if ${LOOP_COND(f)}}edge{/if}`])}">${realChain(`{$it.${FIELD()}`)}}${pick(['', ` {$it.price*2}`, ` {$it.qty+1}`, ` {$smarty.foreach.${f}.index+1}`])}</td>{if ${LOOP_COND(f)}}</tr><tr>{/if}{/foreach}</tr></table>`;
}
function realForm() {
  return pick([
    () =>
      `<select name="s">{foreach ${attrs(attr('from', '$opts'), attr('key', 'k'), attr('item', 'label'))}}<option value="{$k|escape}"{if $k == $cur} selected="selected"{/if}>${realChain('{$label')}}</option>{foreachelse}<option>-</option>{/foreach}</select>`,
    () =>
      `{foreach ${attrs(attr('from', '$opts'), attr('key', 'k'), attr('item', 'label'), attr('name', 'cb'))}}<label><input type="checkbox" name="c[]" value="{$k}"{if in_array($k, $sel)} checked="checked"{/if}>{$label}</label>{if !$smarty.foreach.cb.last}<br>{/if}{/foreach}`,
    () =>
      `<select>{section ${attrs(attr('name', 'd'), attr('start', pick(['1', '0', '$n'])), attr('loop', pick(['8', '$total', '$pages+1'])), chance(0.3) ? attr('step', pick(['2', '-1'])) : '')}}<option{if $smarty.section.d.index == $cur} selected{/if}>{$smarty.section.d.index${pick(['', '|string_format:"%02d"', '+1'])}}</option>{/section}</select>`,
    () =>
      `<input name="t" value="{$map.${pick(['a', 'name', 'x', 'zz'])}|default:''|escape}"{if !$flag} disabled{/if}{if $flag eq 'Y'} checked{/if}>`,
  ])();
}
function realCapture(depth) {
  const name = pick(['side', 'c', 'default']);
  const as = chance(0.4) ? ` assign=${pick(['out', 'side'])}` : '';
  const body = pick([realMenu, realGrid, () => realChain('{$s') + '}', () => '  \n  ', () => ''])(depth + 1);
  const use = pick([
    `{if $smarty.capture.${name}}[{$smarty.capture.${name}}]{else}empty{/if}`,
    `{if $smarty.capture.${name}|strip_tags|strip neq ''}ok{/if}`,
    `{$smarty.capture.${name}|strip|truncate:20}`,
    as ? `{$${as.split('=')[1]}|strip_tags}` : `{$smarty.capture.${name}|escape}`,
  ]);
  return `{capture ${attrs(attr('name', name), as.trim())}}${body}{/capture}${use}`;
}
function realAssign() {
  return pick([
    () => `{assign var=${pick(['t', '"t"'])} value=$items[0].title|default:$title|escape|truncate:10}{$t}`,
    () => `{assign var="key" value="\`$items[0].id\`-\`$page\`"}{$key}`,
    () =>
      `{assign var=sum value=0}{foreach from=$items item=it}{assign var=sum value=$sum+$it.price}{/foreach}{$sum}${pick(['', '|string_format:"%.2f"'])}`,
    () => `{assign var=x value=$page*$per-$per}{$x}|{assign var=y value="$page/$pages"}{$y}`,
    () => `{assign var=label value=$s|cat:" ("|cat:$n|cat:")"}{$label|escape}`,
    () =>
      `{assign var=on value=${pick(['true', 'yes', 'off', 'null', '1', '0', "''", 'TRUE'])}}{if $on}on{else}off{/if}[{$on}]`,
  ])();
}
function realInclude() {
  return pick([
    () =>
      `<table>{foreach ${attrs(attr('from', '$items'), attr('item', 'it'), attr('name', 'f'))}}{include file="row.tpl" row=$it n=$smarty.foreach.f.iteration}{/foreach}</table>`,
    () => `{foreach from=$items item=it name=f}{include file='item.tpl'}{/foreach}`,
    () => {
      const as = chance(0.4);
      return `{include file="box.tpl" title=$title${pick(['', '|upper', '|truncate:5'])} body="${pick(['x', '$s', '[$n]', '`$page+1`'])}"${as ? ' assign=b}{$b|strip_tags' : ''}}`;
    },
    () => `{include file="tree.tpl" nodes=$items}`,
  ])();
}
function realIf() {
  return `{if ${pick(['$flag', '!$flag', "$flag eq 'yes'", '$flag == 1', '$n is odd', '$n > 2 && $flag', '($n gt 1 or $flag) and !$s', '$items|@count', '$items[0].price > $n', '$page neq $pages'])}}A{elseif ${pick(['$n', '$n is div by 3', '$items', '!$items', '$cur == 0', '$cur eq "a"'])}}B{else}C{/if}`;
}
function realFragment(depth) {
  const f = pick([realMenu, realPager, realGrid, realForm, realCapture, realAssign, realInclude, realIf])(depth);
  return chance(0.15) ? `{strip}\n  ${f.replace(/></g, '>\n    <')}\n{/strip}` : f;
}

const KINDS = {
  output: [10, output],
  if: [4, ifBlock],
  foreach: [3, foreachBlock],
  section: [2, sectionBlock],
  assign: [2, assignBlock],
  capture: [1, captureBlock],
  strip: [1, stripBlock],
  literal: [1, literalBlock],
  text: [3, text],
  math: [1, mathTag],
  nested: [1, nestedLoops],
  rows: [1, sectionRows],
  // Only asked for by name: a weight of 0 elsewhere keeps the other kinds' seeds as they were.
  real: [REAL ? 1 : 0, realFragment],
};
function fragment(depth = 0) {
  if (depth > 2) return output();
  const pool = Object.entries(KINDS).filter(([k]) => !ONLY || depth > 0 || k === ONLY);
  const total = pool.reduce((s, [, [w]]) => s + w, 0);
  let r = rnd() * total;
  for (const [, [w, f]] of pool) {
    if ((r -= w) < 0) return f(depth);
  }
  return output();
}
function makeCase(i) {
  ctx.php = false;
  const parts = [];
  // Mostly one fragment a template, so that a divergence points at its cause.
  for (let j = chance(0.7) ? 1 : 2 + int(2); j > 0; j--) parts.push(fragment(0));
  const template = parts.join(pick(['', '\n', ' | ']));
  if (REAL) return { id: `fz-${SEED}-${i}`, template, vars: realVars(), php_functions: ctx.php, includes: INCLUDES };
  return { id: `fz-${SEED}-${i}`, template, vars: makeVars(), php_functions: ctx.php };
}

// ---------------------------------------------------------------------------------------------
// Render with both

const cases = Array.from({ length: COUNT }, (_, i) => makeCase(i));

function oracle(batch) {
  const input = batch.map((c) => JSON.stringify({ ...c, vars: JSON.stringify(c.vars) })).join('\n') + '\n';
  const r = spawnSync('php', [fileURLToPath(new URL('./smarty2-record.php', import.meta.url))], {
    input,
    encoding: 'utf8',
    env: process.env,
    maxBuffer: 256 << 20,
    // A template can make PHP run away (a `wordwrap` or `str_pad` of a huge width): halve the batch.
    timeout: 20000,
  });
  if (r.status !== 0) {
    if (batch.length > 1) {
      const half = batch.length >> 1;
      return [...oracle(batch.slice(0, half)), ...oracle(batch.slice(half))];
    }
    const why = r.error ? 'PHP ran past 20 s' : (r.stdout + r.stderr).slice(0, 300);
    return [{ id: batch[0].id, error: true, message: why, runaway: Boolean(r.error) }];
  }
  return r.stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}
const expected = new Map();
for (let i = 0; i < cases.length; i += 100) for (const x of oracle(cases.slice(i, i + 100))) expected.set(x.id, x);

const { createEngine } = await import(new URL('../../dist/src/index.js', import.meta.url).href);
// The engine's strings hold bytes that are not UTF-8 as lone surrogates: compare bytes.
const { toBytes } = await import(new URL('../../dist/src/value/bytes.js', import.meta.url).href);
const engine = createEngine({
  now: () => 1700000000,
  seed: [...Array(16).keys()].map((x) => x + 1),
  workers: 1,
  templates: (name) => INCLUDES[name],
});

// `escape`'s char_set defaults to UTF-8 in the dialect, ISO-8859-1 in Smarty 2 (docs/dialect.md):
// on bytes that are not UTF-8 (a byte cut by `truncate`, `substr`, `wordwrap`) Smarty prints them
// and the dialect ''. Such a divergence is the departure when Smarty, told UTF-8, agrees with us.
const utf8 = new TextDecoder('utf-8', { fatal: true });
function escapeCharset(c, want, got) {
  try {
    utf8.decode(Buffer.from(want.output_base64, 'base64'));
    return false;
  } catch {
    const template = c.template.replace(
      /\|(@?)escape(?::(["'])(html|htmlall)\2)?(?![\w:])/g,
      (_, at, _q, type) => `|${at}escape:"${type ?? 'html'}":"UTF-8"`,
    );
    if (template === c.template) return false;
    const again = oracle([{ ...c, template }])[0];
    return !again.error && again.output_base64 === got.out;
  }
}
const buckets = new Map();
const found = [];
let compared = 0;
let refused = 0;
for (const c of cases) {
  const want = expected.get(c.id);
  if (want.runaway) {
    buckets.set('skipped: PHP ran away', (buckets.get('skipped: PHP ran away') ?? 0) + 1);
    continue;
  }
  let got;
  try {
    const r = await engine.render(c.template, { name: `${c.id}.tpl`, vars: JSON.stringify(c.vars) });
    got = { error: false, out: Buffer.from(toBytes(r.output)).toString('base64') };
  } catch (e) {
    got = { error: true, message: `${e.code ?? e.name}: ${String(e.message).slice(0, 200)}` };
  }
  compared++;
  // Templates both refuse compare only their refusals: counted, so that a generator that mostly
  // writes broken templates shows.
  if (want.error && got.error) refused++;
  let same;
  if (want.error || got.error) same = want.error === got.error;
  else same = want.output_base64 === got.out;
  if (same) continue;
  // The dialect's documented departures (docs/dialect.md): PHP 8's TypeErrors and ValueErrors give
  // null and a reported error, a key on a string is null (D313).
  const deliberate =
    want.error &&
    !got.error &&
    /must be of type|Cannot access offset|Unsupported operand|Illegal offset|Array to string|must contain at least one element|out of range|must be contained|format specifier/.test(
      want.message,
    );
  const charset = !want.error && !got.error && escapeCharset(c, want, got);
  const kind = charset
    ? 'deliberate: escape of bytes that are not UTF-8'
    : deliberate
      ? `deliberate: ${want.message.replace(/^(\w+)\(\).*must be of type.*/, 'TypeError').replace(/Cannot access offset.*/, 'offset on a string')}`
      : want.error
        ? 'oracle refused, engine rendered'
        : got.error
          ? `engine refused (${got.message.split(':')[0]})`
          : 'different output';
  const mods = [...new Set([...c.template.matchAll(/\|@?(\w+)/g)].map((m) => m[1]))].sort().join(',');
  const key = deliberate || charset ? kind : `${kind} [${mods || 'no modifiers'}]`;
  buckets.set(key, (buckets.get(key) ?? 0) + 1);
  const text = (b64) => Buffer.from(b64, 'base64').toString('utf8');
  found.push({
    ...c,
    vars: JSON.stringify(c.vars),
    kind,
    want: want.error ? { error: want.message } : text(want.output_base64),
    got: got.error ? { error: got.message } : text(got.out),
  });
}
await engine.close();

console.log(
  `fuzz-smarty2: seed ${SEED}: ${cases.length} templates, ${compared} compared (${refused} refused by both), ${found.length} divergent`,
);
for (const [k, n] of [...buckets].sort((a, b) => b[1] - a[1])) console.log(`  ${String(n).padStart(5)}  ${k}`);
if (OUT) writeFileSync(OUT, found.map((x) => JSON.stringify(x)).join('\n') + (found.length ? '\n' : ''));
