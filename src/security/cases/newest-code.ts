/**
 * The second attacks round's cases on the newest code (docs/security.md CG-22, CG-23, IS-17,
 * MEM-15, OPS-18): `{if {$x}` read as Smarty 2 reads it (D322), `isset()` of variables only (D326),
 * the request arrays a render always has (D325), the HTML5 entity table (D329) and the
 * synchronous slice (D140), which runs a render again from the start when it is cut.
 */
import { createEngine, type Engine } from '../../engine.js';
import type { HarnessContext, Outcome, SecurityCase } from '../types.js';
import { allRefused, judge } from './helpers.js';

/** Each template must print exactly its output. */
async function allRender(
  h: HarnessContext,
  forms: { template: string; output: string; opts?: Parameters<HarnessContext['render']>[1] }[],
): Promise<Outcome | null> {
  for (const f of forms) {
    const a = await h.render(f.template, f.opts ?? {});
    const o = judge(h, a, a.output === f.output, `prints ${JSON.stringify(f.output.slice(0, 40))}`);
    if (o.status !== 'contained') return { ...o, detail: `${JSON.stringify(f.template.slice(0, 70))}: ${o.detail}` };
  }
  return null;
}

/** `{if {$x}`: the token is a string of its text; nothing in it runs, `$smarty` and code are refused. */
async function ifBraceTokens(h: HarnessContext): Promise<Outcome> {
  const code = '"); throw 1;//';
  const bad = await allRender(h, [
    // A token ending in a variable and modifiers is text: the modifier never runs (system is no modifier anyway).
    { template: '{if {$x|@system}A{else}B{/if}', output: 'A', opts: { vars: { x: 'id' } } },
    { template: '{if {$x.constructor}A{/if}|{if {$x[__proto__]}B{/if}', output: 'A|B', opts: { vars: { x: {} } } },
    // The expanded value is data in a string, whatever it holds.
    { template: '{if {$x[0]}[{$x[0]}]{/if}', output: `[${code}]`, opts: { vars: { x: [code] } } },
    // `!{$x` is (!"{") . $x: the operand's value, not its negation (PHP's precedence).
    { template: '{if !{$x}A{else}B{/if}', output: 'B', opts: { vars: { x: '' } } },
    { template: '{if {$x}+1}A{/if}', output: '+1}A', opts: { vars: { x: '' } } },
  ]);
  if (bad) return bad;
  return (
    (await allRefused(h, [
      { template: '{if {$smarty.server.PATH}A{/if}', codes: ['E_IF_SYNTAX'] },
      { template: '{if {$smarty.get.a}A{/if}', codes: ['E_IF_SYNTAX'], opts: { request: { get: { a: 'q' } } } },
      { template: '{if {$x`}A{/if}', codes: ['E_IF_SYNTAX'] },
      { template: '{if {$x->y()}A{/if}', codes: ['E_IF_SYNTAX', 'E_SYNTAX'] },
      { template: '{if {$x+1}A{/if}', codes: ['E_IF_SYNTAX', 'E_SYNTAX', 'E_TYPE'] },
    ])) ?? {
      status: 'contained',
      detail: '5 tokens read as text (no modifier ran, values stayed data), $smarty, code and operators refused',
    }
  );
}

/** isset() of hostile names: own data only, never an inherited member; expressions refused. */
async function issetNames(h: HarnessContext): Promise<Outcome> {
  const deep = (n: number) => `$x${'.a'.repeat(n)}`;
  const args = (n: number) => Array.from({ length: n }, (_, i) => `$v${i}`).join(', ');
  const bad = await allRender(h, [
    {
      template:
        '{if isset($x.constructor)}A{else}B{/if}{if isset($x.__proto__)}A{else}B{/if}{if isset($x.toString)}A{else}B{/if}',
      output: 'BBB',
      opts: { vars: { x: {} } },
    },
    { template: '{if isset($x[$y])}A{else}B{/if}', output: 'B', opts: { vars: { x: {}, y: 'hasOwnProperty' } } },
    {
      template: '{if isset($x.$y.$z)}A{else}B{/if}',
      output: 'B',
      opts: { vars: { x: { a: { b: null } }, y: 'a', z: 'b' } },
    },
    {
      template:
        '{if isset($smarty.capture.__proto__)}A{else}B{/if}{if isset($smarty.foreach.f.constructor)}A{else}B{/if}',
      output: 'BB',
    },
    { template: '{if isset($x.a.b.c)}A{else}B{/if}', output: 'B', opts: { vars: { x: 'a string' } } },
    { template: `{if isset(${deep(150)})}A{else}B{/if}`, output: 'B', opts: { vars: { x: {} } } },
    { template: `{if isset(${args(99)})}A{else}B{/if}`, output: 'B' },
  ]);
  if (bad) return bad;
  return (
    (await allRefused(h, [
      { template: `{if isset(${deep(500)})}A{/if}`, codes: ['E_NESTING_TOO_DEEP'], label: 'a 500-step path' },
      { template: `{if isset(${args(2000)})}A{/if}`, codes: ['E_IF_FUNCTION'], label: '2,000 arguments' },
      { template: '{if isset($x|escape)}A{/if}', codes: ['E_IF_FUNCTION'] },
      { template: '{if isset("constructor")}A{/if}', codes: ['E_IF_FUNCTION'] },
      { template: '{if isset(constructor)}A{/if}', codes: ['E_UNDEFINED_CONSTANT', 'E_IF_FUNCTION'] },
      { template: '{if isset($x+1)}A{/if}', codes: ['E_IF_FUNCTION'] },
      {
        template: '{if isset($x->y())}A{/if}',
        codes: ['E_IF_FUNCTION', 'E_SYNTAX', 'E_IF_SYNTAX', 'E_UNDEFINED_CONSTANT'],
      },
    ])) ?? {
      status: 'contained',
      detail:
        'inherited names unset, a 150-step path and 99 arguments false; a 500-step path E_NESTING_TOO_DEEP, 2,000 arguments E_IF_FUNCTION; modifiers, literals, constants, arithmetic and calls refused',
    }
  );
}

/** The request arrays: hostile visitor data stays data, and a render without a request has empty ones. */
async function requestArrays(h: HarnessContext): Promise<Outcome> {
  const wide = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, 'v']));
  let deep: Record<string, unknown> = {};
  const top = deep;
  for (let i = 0; i < 60; i++) deep = deep.a = {} as Record<string, unknown>;
  const bad = await allRender(h, [
    {
      template:
        '{foreach from=$smarty.request item=v}x{/foreach}|{$smarty.get}|{$smarty.server|@json_encode}|{$smarty.post|@count}|{$smarty.session|@json_encode}',
      output: '|Array|[]|0|null',
    },
    {
      template: '{$smarty.get.constructor}|{$smarty.request.toString}|{$smarty.server.__proto__|@count}',
      output: '||0',
      opts: { request: { get: { a: 'q' } } },
    },
    { template: '{$smarty.post|@count}', output: '100000', opts: { request: { post: wide } } },
    { template: '{$smarty.post.a.a.a|@count}', output: '1', opts: { request: { post: top } } },
    {
      template: '{$smarty.server.HTTP_X|escape}',
      output: '&lt;/script&gt;&lt;script&gt;',
      opts: { request: { server: { HTTP_X: '</script><script>' } } },
    },
    // An {assign} named smarty is a variable of its own: the request arrays are not reached through it.
    { template: '{assign var="smarty" value=1}{$smarty.get.a}', output: 'q', opts: { request: { get: { a: 'q' } } } },
  ]);
  if (bad) return bad;
  // A render's request arrays are its own: the next render of the tenant without a request sees empty ones.
  const next = await h.render('{$smarty.get|@count}{$smarty.post|@count}');
  return judge(
    h,
    next,
    next.output === '00',
    "hostile keys and values stay data; 100,000 keys and 60 levels read; the next render's arrays are empty",
  );
}

/** HTML5 entity decoding of inputs made to be slow: PHP's exact bytes within the CPU limit. */
const ENTITY_FORMS: { input: string; bytes: number; what: string }[] = [
  {
    input: '&CounterClockwiseContourIntegral;'.repeat(100_000),
    bytes: 300_000,
    what: 'the longest name 100,000 times',
  },
  { input: `&${'a'.repeat(3_000_000)}`, bytes: 3_000_001, what: 'a name 3 M letters long' },
  { input: '&notin'.repeat(500_000), bytes: 3_000_000, what: 'a name without its ; 500,000 times' },
  { input: '&#x1F600;'.repeat(400_000), bytes: 1_600_000, what: 'numeric entities outside the BMP' },
  { input: `&#${'0'.repeat(48)}65;`.repeat(80_000), bytes: 80_000, what: '48 leading zeros' },
];

async function entityDecoding(h: HarnessContext): Promise<Outcome> {
  // Checked against PHP 8.2: html_entity_decode($s, ENT_HTML5, 'UTF-8').
  const mixed = await h.render('{$x|html_entity_decode:48:"UTF-8"}', {
    vars: { x: '&amp;amp;&#65&#x110000;&#xD800;&NotEqualTilde;&;&#;' },
  });
  if (mixed.output !== '&amp;&#65&#x110000;&#xD800;\u2242\u0338&;&#;')
    return judge(h, mixed, false, "a mixed input decodes to PHP's bytes");
  for (const f of ENTITY_FORMS) {
    const a = await h.render('{$x|html_entity_decode:48:"UTF-8"|strlen}', { vars: { x: f.input } });
    const o = judge(h, a, a.output === String(f.bytes), `${f.what}: ${f.bytes} bytes`);
    if (o.status !== 'contained') return o;
  }
  return {
    status: 'contained',
    detail: `${ENTITY_FORMS.length} inputs of up to 3 M characters decoded to PHP's bytes`,
  };
}

/** A host-free template cut at the slice's end runs again from the start: its state must not leak into the rerun or the next render. */
async function sliceState(): Promise<Outcome> {
  const cut = createEngine({ workers: 0, limits: { syncSliceMs: 2 } });
  const whole = createEngine({ workers: 0, limits: { syncSliceMs: 0 } });
  const template =
    '{capture name=c}{section name=i loop=$n}{counter name=k assign=k}{cycle values="a,b,c" assign=cy}{assign var=last value=$smarty.section.i.index}{/section}{/capture}' +
    '{foreach from=$list item=v name=f}{if $smarty.foreach.f.last}{$v}{/if}{/foreach}|{$k}|{$cy}|{$last}|{$smarty.capture.c|strlen}|{$smarty.foreach.f.total}';
  const after = '{counter name=k}|{cycle values="a,b,c"}|{$smarty.capture.c|default:"none"}|{$last|default:"none"}';
  const vars = { n: 40_000, list: [1, 2, 3] };
  let longest = 0;
  const run = async (e: Engine) => {
    const out: string[] = [];
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      out.push((await e.render(template, { vars, identity: { tenant: 'ops18' } })).output);
      longest = Math.max(longest, performance.now() - t0);
      out.push((await e.render(after, { identity: { tenant: 'ops18' } })).output);
    }
    return out;
  };
  try {
    const a = await run(cut);
    longest = 0;
    const b = await run(whole);
    // Far longer than the 2 ms slice, so each render with the slice was cut and ran again.
    if (longest < 10)
      return {
        status: 'escaped',
        detail: `the template ran ${longest.toFixed(1)} ms: too short to be cut (the case did not attack)`,
      };
    const expected = '3|40000|a|39999|0|3';
    if (b[0] !== expected)
      return { status: 'escaped', detail: `without the slice the template printed ${JSON.stringify(b[0])}` };
    const differs = a.findIndex((x, i) => x !== b[i]);
    if (differs >= 0)
      return {
        status: 'escaped',
        detail: `render ${differs + 1} printed ${JSON.stringify(a[differs])} with the slice, ${JSON.stringify(b[differs])} without`,
      };
    if (a[1] !== '1|a|none|none')
      return { status: 'escaped', detail: `the next render saw state of the cut one: ${JSON.stringify(a[1])}` };
    return {
      status: 'contained',
      detail: `a render cut by the 2 ms slice (it runs ${Math.round(longest)} ms whole) printed what it prints whole, three times; the next render started fresh`,
    };
  } finally {
    await cut.close();
    await whole.close();
  }
}

export const CG_NEWEST: SecurityCase[] = [
  {
    id: 'CG-22',
    category: 'CG',
    title: '`{if {$x}` with modifiers, inherited names, code in the value, `$smarty` and operators',
    run: ifBraceTokens,
  },
  {
    id: 'CG-23',
    category: 'CG',
    title: 'isset() of inherited names, long paths, many arguments and expressions',
    run: issetNames,
  },
];

export const IS_NEWEST: SecurityCase[] = [
  {
    id: 'IS-17',
    category: 'IS',
    title: 'the request arrays ($smarty.get, post, request, server): hostile keys, sizes and depths, and no request',
    run: requestArrays,
  },
];

export const MEM_NEWEST: SecurityCase[] = [
  {
    id: 'MEM-15',
    category: 'MEM',
    title: 'html_entity_decode (ENT_HTML5) of inputs built to be slow: long names, no semicolons, leading zeros',
    run: entityDecoding,
  },
];

export const OPS_NEWEST: SecurityCase[] = [
  {
    id: 'OPS-18',
    category: 'OPS',
    title:
      "a render cut at the synchronous slice's end: counters, cycles, captures and loops start again, and nothing reaches the next render",
    run: sliceState,
  },
];
