/** HH-07 (raw errors), HH-13 (limit errors without a line). */
import type { Engine, RenderOptions } from '../../../engine.js';
import { TemplateError } from '../../../errors.js';
import type { HarnessContext, Outcome, RenderAttempt, SecurityCase } from '../../types.js';
import { judge } from '../helpers.js';

const NAME = 'attack.tpl';
const rep = (s: string, n: number) => s.repeat(n);

/** One render; what came out, with the template the error names (h.render does not keep it). */
async function attempt(
  e: Engine,
  template: string,
  opts: RenderOptions = {},
): Promise<RenderAttempt & { template?: string }> {
  const t0 = performance.now();
  try {
    const r = await e.render(template, { name: NAME, ...opts });
    return { output: r.output, ms: performance.now() - t0 };
  } catch (err) {
    const ms = performance.now() - t0;
    if (err instanceof TemplateError)
      return { code: err.code, message: err.message, line: err.line, template: err.template, ms };
    return { code: 'E_UNCAUGHT', message: err instanceof Error ? `${err.name}: ${err.message}` : String(err), ms };
  }
}

interface Form {
  what: string;
  /** The attack; its deep or oversized tag is on `line`. */
  template: string;
  line: number;
  /** The codes that contain it; null: it must render (it is long, not deep). */
  codes: string[] | null;
  vars?: Record<string, unknown>;
}

/** Every form must end as expected, with the template's name and the line of its tag. */
async function allPlaced(h: HarnessContext, e: Engine, forms: Form[], compileToo: boolean): Promise<Outcome> {
  const figures: Record<string, number> = {};
  for (const f of forms) {
    const a = await attempt(e, f.template, { vars: f.vars });
    figures[f.what] = Math.round(a.ms);
    const placed =
      f.codes === null
        ? a.output !== undefined
        : a.code !== undefined && f.codes.includes(a.code) && a.template === NAME && a.line === f.line;
    const o = judge(h, a, placed, f.codes === null ? 'rendered' : `${f.codes.join(' or ')} at ${NAME}:${f.line}`);
    if (o.status !== 'contained')
      return { ...o, detail: `${f.what}: ${o.detail}${a.code ? ` (at ${a.template ?? '?'}:${a.line ?? '?'})` : ''}` };
    if (compileToo && f.codes !== null) {
      // engine.compile reports the same error as a diagnostic, and never throws.
      let d;
      try {
        d = e.compile(f.template, { name: NAME }).diagnostics.find((x) => x.severity === 'error');
      } catch (err) {
        return {
          status: 'escaped',
          detail: `${f.what}: engine.compile threw ${err instanceof Error ? err.name : typeof err}`,
        };
      }
      if (!d || !f.codes.includes(d.code) || d.line !== f.line)
        return {
          status: 'escaped',
          detail: `${f.what}: engine.compile gave ${d ? `${d.code} at line ${d.line}` : 'no error'}`,
        };
    }
  }
  return {
    status: 'contained',
    detail: `${forms.length} forms: each a TemplateError with its code at ${NAME}:line (or rendered, when long but not deep)`,
    figures,
  };
}

const chain = (n: number, op: string) => `{if $a${rep(` ${op} $a`, n)}}x{/if}`;

/** ~30 KB each, the tag on line 2 (blocks: the 201st opening, on line 202). */
const DEEP: Form[] = [
  { what: 'a 30 KB && chain', template: `x\n${chain(6000, '&&')}`, line: 2, codes: null },
  { what: 'a 30 KB || chain', template: `x\n${chain(6000, '||')}`, line: 2, codes: null },
  {
    what: 'a 30 KB + chain in {assign}',
    template: `x\n{assign var=x value=$a${rep('+$a', 10_000)}}{$x}`,
    line: 2,
    codes: ['E_NESTING_TOO_DEEP'],
  },
  {
    // Not `==`: PHP does not chain comparisons, so a chain of them is E_IF_SYNTAX (D355).
    what: 'a 30 KB & chain in {if}',
    template: `x\n{if $a${rep(' & $a', 5000)}}x{/if}`,
    line: 2,
    codes: ['E_NESTING_TOO_DEEP'],
  },
  {
    what: '15,000 nested parentheses',
    template: `x\n{if ${rep('(', 15_000)}1${rep(')', 15_000)}}x{/if}`,
    line: 2,
    codes: ['E_NESTING_TOO_DEEP'],
  },
  {
    what: '3,000 nested {if} function calls',
    template: `x\n{if ${rep('is_null(', 3000)}1${rep(')', 3000)}}x{/if}`,
    line: 2,
    codes: ['E_NESTING_TOO_DEEP'],
  },
  { what: '30,000 ! signs', template: `x\n{if ${rep('!', 30_000)}$a}x{/if}`, line: 2, codes: ['E_NESTING_TOO_DEEP'] },
  { what: '5,000 modifiers', template: `x\n{$a${rep('|upper', 5000)}}`, line: 2, codes: ['E_NESTING_TOO_DEEP'] },
  {
    what: 'a 15,000-step $a.b.b path',
    template: `x\n{$a${rep('.b', 15_000)}}`,
    line: 2,
    codes: ['E_NESTING_TOO_DEEP'],
  },
  {
    what: '8,000 nested [$a] keys',
    template: `x\n{$a${rep('[$a', 8000)}${rep(']', 8000)}}`,
    line: 2,
    codes: ['E_NESTING_TOO_DEEP'],
  },
  {
    what: '4,000 nested keys in backticks',
    template: `x\n{assign var=x value="\`$a${rep('["`$a', 4000)}${rep('`"]', 4000)}\`"}`,
    line: 2,
    codes: ['E_NESTING_TOO_DEEP'],
  },
  {
    what: 'nested keys in a modifier argument',
    template: `x\n{$a|default:$a${rep('[$a', 8000)}${rep(']', 8000)}}`,
    line: 2,
    codes: ['E_NESTING_TOO_DEEP'],
  },
  {
    what: '10,000 nested {if}s',
    template: `x\n${rep('{if $a}\n', 10_000)}${rep('{/if}', 10_000)}`,
    line: 202,
    codes: ['E_NESTING_TOO_DEEP'],
  },
  {
    what: '10,000 nested {foreach}s',
    template: `x\n${rep('{foreach from=$a item=i}\n', 10_000)}${rep('{/foreach}', 10_000)}`,
    line: 202,
    codes: ['E_NESTING_TOO_DEEP'],
  },
];

/**
 * V8's own limits reached inside the isolate, and a template V8 would not load. Each once came
 * back with line 0: the error's ten-frame stack held only runtime frames (the recursion of
 * {math}, of debug_print_var), or the script never ran.
 */
const LIMITS: Form[] = [
  {
    what: '{math} with 100,000 nested parentheses',
    template: `x\n{math equation="${rep('(', 100_000)}x${rep(')', 100_000)}" x=1}`,
    line: 2,
    codes: ['E_NESTING_TOO_DEEP'],
  },
  {
    what: '{math} with a 100,000-term sum',
    template: `x\n{math equation="x${rep('+x', 100_000)}" x=1}`,
    line: 2,
    codes: ['E_NESTING_TOO_DEEP'],
  },
  {
    what: '{math} with 100,000 signs',
    template: `x\n{math equation="${rep('- ', 100_000)}x" x=1}`,
    line: 2,
    codes: ['E_NESTING_TOO_DEEP'],
  },
  {
    what: 'debug_print_var of a 9,999-deep array (Invalid string length)',
    template: `{assign var=j value=""|str_pad:9999:"["}{assign var=k value=""|str_pad:9999:"]"}{assign var=v value="\`$j\`\`$k\`"|json_decode:true:10000}\n{$v|@debug_print_var|strlen}`,
    line: 2,
    codes: ['E_SIZE_LIMIT', 'E_RECURSION_LIMIT'],
  },
  {
    what: 'msgpack_pack of 100 MB (Array buffer allocation failed)',
    template: `{assign var=s value=""|str_pad:1000000:"x"}{section name=i loop=100}{append var=a value=$s}{/section}\n{$a|@msgpack_pack|strlen}`,
    line: 2,
    codes: ['E_SIZE_LIMIT'],
  },
  {
    what: 'a 1 MB template whose code V8 would not load',
    template: `x\n{$a${rep('.b', 500_000)}}`,
    line: 2,
    codes: ['E_NESTING_TOO_DEEP'],
  },
  {
    what: "a string doubled past V8's length (Invalid string length)",
    template: `{assign var=s value="x"}{section name=i loop=40}\n{assign var=s value="\`$s\`\`$s\`"}{/section}`,
    line: 2,
    codes: ['E_SIZE_LIMIT'],
  },
];

export const HH_ERRORS: SecurityCase[] = [
  {
    id: 'HH-07',
    category: 'HH',
    title:
      'deep or long expressions and blocks (30 KB chains, thousands of parentheses, modifiers, keys, {if}s) are a TemplateError with its code at the line of the tag, from render and compile; never a raw RangeError naming host files',
    run: (h) => allPlaced(h, h.engine(), DEEP, true),
  },
  {
    id: 'HH-13',
    category: 'HH',
    title:
      "V8's own limits inside the isolate ({math} recursion, Invalid string length, ArrayBuffer allocation) and a 1 MB template V8 would not load end with a code, the template's name and its line",
    // CPU to spare: on a loaded machine the 100 MB of msgpack_pack must reach its size check first.
    run: (h) => allPlaced(h, h.engine({ cpuMs: 5000, wallMs: 10_000 }), LIMITS, false),
  },
];
