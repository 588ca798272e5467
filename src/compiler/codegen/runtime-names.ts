/**
 * The names the generated code relies on, written down once. A compiled script reads
 *
 *   smartcage.define("page.tpl", (function (rt) {   smartcage: the isolate's one global (runtime/isolate-entry.ts)
 *     "use strict";                                 rt: the template API (runtime/template-api.ts)
 *     const { str, truthy, key, ... } = rt;         rt's members called by their bare name (RT_MEMBERS)
 *     const P = rt.where();                         P: the position slot, P[0] (builder.ts markNext, loop.ts)
 *     const m1 = rt.modifier("upper");              m1, m2...: modifiers (context.ts PluginAliases)
 *     const f1 = rt.fn("counter");                  f1, f2...: function and block plugins
 *     const f2 = rt.hostFn("shop_price");           an engine's own plugin (rt.hostModifier: modifier)
 *     const p1 = rt.prepare(m1, [80, "..."]);       p1, p2...: modifiers with literal arguments, bound once
 *
 *     const t0 = (function t0(s, $) {              t0, t1...: the template, its includes, custom functions
 *       let o = "";                                 s: the variables (a Scope), $: the RenderState,
 *       ...                                         o: the output so far
 *       return o;
 *     });
 *     return t0;
 *   }));
 *
 * In a template function the compiler also writes `e` (the caught {return}, index.ts) and `v`
 * (the new value of a by-reference modifier, expr.ts), and temporaries that CodeBuilder.fresh
 * numbers: w (a saved position), it and i ({foreach}, block plugins), loop (a named {foreach}'s
 * state), sec ({section}), blk (a block plugin's items), outer (the output around a {capture}).
 * Nothing from the template becomes an identifier: its names and text are string literals (lit).
 *
 * The members of rt and of `$` that the code calls are checked against their types below, so
 * that renaming one in the runtime fails the compiler's typecheck, where it is written as text.
 */
import type { TemplateApi } from '../../runtime/template-api.js';
import type { RenderState } from '../../runtime/render-state.js';

/**
 * Every member of rt and how the script reaches it: `bare`, destructured at its top and called
 * by its name; `head`, called as `rt.NAME(...)` only in the lines that set it up. The order of
 * the bare ones is the order of the destructuring.
 */
const RT_MEMBERS = {
  str: 'bare',
  truthy: 'bare',
  key: 'bare',
  prop: 'bare',
  each: 'bare',
  map: 'bare',
  call: 'bare',
  share: 'bare',
  add: 'bare',
  sub: 'bare',
  mul: 'bare',
  div: 'bare',
  mod: 'bare',
  neg: 'bare',
  eq: 'bare',
  ne: 'bare',
  same: 'bare',
  notSame: 'bare',
  lt: 'bare',
  gt: 'bare',
  le: 'bare',
  ge: 'bare',
  bitAnd: 'bare',
  bitOr: 'bare',
  bitXor: 'bare',
  shl: 'bare',
  shr: 'bare',
  bitNot: 'bare',
  float: 'bare',
  ifFn: 'bare',
  where: 'head',
  modifier: 'head',
  fn: 'head',
  hostModifier: 'head',
  hostFn: 'head',
  prepare: 'head',
} as const satisfies Record<keyof TemplateApi, 'bare' | 'head'>;

export type RtMember = keyof typeof RT_MEMBERS;
type HeadMember = { [K in RtMember]: (typeof RT_MEMBERS)[K] extends 'head' ? K : never }[RtMember];

/** `str, truthy, ...`: the members the script destructures from rt. */
export const RT_BARE_NAMES = (Object.keys(RT_MEMBERS) as RtMember[]).filter((k) => RT_MEMBERS[k] === 'bare').join(', ');

/** `rt.NAME(args)`, for the set-up lines at the top of the script. */
export function rtCall(name: HeadMember, args: string): string {
  return `rt.${name}(${args})`;
}

/**
 * The members of `$` (RenderState) the emitters write. test/compiler/runtime-names.test.ts
 * checks that every member of `$` that src/compiler writes is listed here.
 */
export const STATE_MEMBERS = [
  'assign',
  'byReference',
  'callFunction',
  'capture',
  'captureArray',
  'captureEnd',
  'constant',
  'foreachNext',
  'foreachProp',
  'foreachRecord',
  'foreachStart',
  'hostBlock',
  'include',
  'isStop',
  'loopCheck',
  'now',
  'outputCheck',
  'outputCheckAt',
  'request',
  'sectionIndex',
  'sectionProp',
  'sectionPropOf',
  'sectionRecord',
  'sectionStart',
  'stop',
  'templateName',
  'ticks',
  'validate',
] as const satisfies readonly (keyof RenderState)[];

export type StateMember = (typeof STATE_MEMBERS)[number];
