/**
 * Calling modifiers from generated code, with Smarty 2's `@` rule: without `@`, a modifier
 * applied to an array is applied to each element (one level, keys kept); with `@` it gets the
 * whole value. Declared defaults fill omitted trailing arguments. Where PHP 8 would throw a
 * TypeError the platform returns null and logs a warning (docs/decisions.md D14).
 */
import { PhpArray, type Value } from '../value/value.js';
import { PhpTypeError } from '../value/convert.js';
import type { ModifierContext, ModifierPlugin } from '../plugins/types.js';

export interface BoundModifier {
  plugin: ModifierPlugin;
  /**
   * Declared defaults of the parameters, up to the first one that has none; for a prepared
   * modifier, the literal arguments completed with them.
   */
  defaults: Value[];
  /** A prepared modifier (`rt.prepare`): the call with its literal arguments bound. */
  fixed?: (input: Value, ctx: ModifierContext) => Value;
}

export function bindModifier(plugin: ModifierPlugin): BoundModifier {
  const defaults: Value[] = [];
  for (const p of plugin.params) {
    // Required parameters are always given (the compiler checks); an optional parameter
    // without a default is left out, as PHP sees an omitted argument, and so is every later one.
    if (p.default === undefined && !p.required) break;
    defaults.push(p.default === undefined ? null : p.default);
  }
  // Frozen: calls without arguments share this array, and a plugin must not change its arguments.
  return { plugin, defaults: Object.freeze(defaults) as Value[] };
}

/**
 * The modifier with literal arguments bound once per template: the plugin's own `prepare` where
 * it has one, else `run` with the completed arguments. Calls pass no arguments then.
 */
export function prepareModifier(m: BoundModifier, literal: Value[]): BoundModifier {
  const args = Object.freeze(withDefaults(m, literal)) as Value[];
  const plugin = m.plugin;
  // `run` gets a copy of its own, not frozen: V8 takes a frozen array off the fast path of
  // destructuring (`run(input, [length, etc])`: ~8x slower per call, and an iterator result
  // allocated per element, ~23 KB of garbage per render of the benchmark page). No template code
  // can reach this copy; the frozen `args` is what the returned object shows.
  const own = args.slice();
  const fixed = plugin.prepare?.(args) ?? ((input: Value, ctx: ModifierContext) => plugin.run(input, own, ctx));
  return { plugin, defaults: args, fixed };
}

/** Omitted trailing arguments take their declared defaults; extra arguments pass through. */
export function withDefaults(m: BoundModifier, args: Value[] | undefined): Value[] {
  if (args === undefined || args.length === 0) return m.defaults;
  return args.length >= m.defaults.length ? args : args.concat(m.defaults.slice(args.length));
}

/** PHP's own TypeError text names the function (`number_format(): Argument #1...`): no second prefix then. */
function typeErrorText(m: BoundModifier, e: PhpTypeError): string {
  return /^\w+\(\): /.test(e.message) ? e.message : `${m.plugin.name}: ${e.message}`;
}

export function callModifier(m: BoundModifier, input: Value, args: Value[] | undefined, ctx: ModifierContext): Value {
  try {
    return m.fixed !== undefined ? m.fixed(input, ctx) : m.plugin.run(input, withDefaults(m, args), ctx);
  } catch (e) {
    if (e instanceof PhpTypeError) {
      ctx.warn(`${typeErrorText(m, e)}; the result is null`);
      return null;
    }
    throw e;
  }
}

/** A by-reference function on a variable: `store` receives the changed array. */
export function callByReference(
  m: BoundModifier,
  input: Value,
  args: Value[],
  store: (v: Value) => void,
  ctx: ModifierContext,
): Value {
  const full = withDefaults(m, args);
  try {
    const { result, array } = m.plugin.byReference!(input, full, ctx);
    store(array);
    return result;
  } catch (e) {
    if (e instanceof PhpTypeError) {
      ctx.warn(`${typeErrorText(m, e)}; the result is null`);
      return null;
    }
    throw e;
  }
}

export function mapModifier(m: BoundModifier, input: Value, args: Value[] | undefined, ctx: ModifierContext): Value {
  if (!(input instanceof PhpArray)) return callModifier(m, input, args, ctx);
  const out = PhpArray.empty();
  for (const [k, v] of input.entries()) out.set(k, callModifier(m, v, args, ctx));
  return out;
}
