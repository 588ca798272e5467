/**
 * `rt`: the functions generated code calls. Kept small and flat so that the generated code
 * reads like the template: `o += str(key(s["user"], "name"));`.
 */
import { PhpArray, PhpObject, float, type Value } from '../value/value.js';
import { toStr, toBool } from '../value/convert.js';
import { key, prop, each } from '../value/access.js';
import { addOperator, sub, mul, div, mod, neg, bitAnd, bitOr, bitXor, shl, shr, bitNot } from '../value/arith.js';
import { looseEq, strictEq, lt, gt, le, ge } from '../value/compare.js';
import { bindModifier, callModifier, mapModifier, prepareModifier, type BoundModifier } from './modifiers.js';
import { findFunction, findModifier } from '../plugins/registry.js';
import type { IfFunction } from '../plugins/catalog.js';
import type { RenderState } from './render-state.js';
import { whereSlotNow } from './where.js';
import { looseInArray } from '../value/in-array.js';
import { callHost, hostOnlyModifier } from './host-call.js';
import { share } from '../value/assign.js';
import { countArray, countMode } from '../php/array/count.js';

/** The render in progress (renders in one isolate run one at a time, synchronously). */
let current: RenderState | null = null;

export function setCurrent(state: RenderState | null): RenderState | null {
  const previous = current;
  current = state;
  return previous;
}

function state(): RenderState {
  if (!current) throw new Error('no render in progress');
  return current;
}

export const rt = {
  str: toStr,
  truthy: toBool,
  share,
  key,
  prop,
  each,
  add: addOperator,
  sub,
  mul,
  div,
  mod,
  neg,
  bitAnd,
  bitOr,
  bitXor,
  shl,
  shr,
  bitNot,
  float,
  eq: looseEq,
  ne: (a: Value, b: Value) => !looseEq(a, b),
  same: strictEq,
  notSame: (a: Value, b: Value) => !strictEq(a, b),
  lt,
  gt,
  le,
  ge,
  map: (m: BoundModifier, v: Value, args?: Value[]) => mapModifier(m, v, args, state()),
  call: (m: BoundModifier, v: Value, args?: Value[]) => callModifier(m, v, args, state()),
  /** The six functions {if} allows (docs/decisions.md D10). */
  ifFn: {
    is_null: (v: Value) => v === null || v === undefined,
    // The platform's count: 0 for anything that is not an array (not PHP 8's TypeError). A bad
    // mode is PHP's error, checked first as PHP does.
    count: (v: Value, mode?: Value) => {
      const m = countMode(mode);
      return v instanceof PhpArray ? countArray(v, m) : 0;
    },
    is_array: (v: Value) => v instanceof PhpArray,
    in_array: (needle: Value, haystack: Value, strict?: Value) =>
      looseInArray(needle, haystack, toBool(strict ?? false)),
    isset: (...vs: Value[]) => vs.every((v) => v !== null && v !== undefined),
    is_object: (v: Value) => v instanceof PhpObject,
  } satisfies Record<IfFunction, (...args: Value[]) => boolean | number>,
  modifier(name: string): BoundModifier {
    const p = findModifier(name);
    if (!p) throw new Error(`modifier ${name} is not available in this runtime`);
    return bindModifier(p);
  },
  where: whereSlotNow,
  /**
   * A modifier whose arguments are all literals (or none), bound once when the template is
   * defined (`const p1 = rt.prepare(m2, [80, "..."]);`) rather than completed on every call.
   */
  prepare: prepareModifier,
  fn(name: string): (attrs: Record<string, Value>, $: RenderState) => string | void {
    const p = findFunction(name);
    if (p?.host) return (attrs, $) => callHost(p.name, attrs, $);
    if (!p || !p.run) throw new Error(`plugin ${name} is not available in this runtime`);
    return p.run as (attrs: Record<string, Value>, $: RenderState) => string | void;
  },
  /**
   * An engine's own tag (createEngine({ plugins })): the isolate knows its name only; the host
   * checks the attributes against its declaration and runs it.
   */
  hostFn(name: string): (attrs: Record<string, Value>, $: RenderState) => string {
    return (attrs, $) => callHost(name, attrs, $);
  },
  /** An engine's own modifier: the host fills in defaults, checks the values, and runs it. */
  hostModifier(name: string): BoundModifier {
    return bindModifier(hostOnlyModifier(name));
  },
};

export type TemplateApi = typeof rt;
