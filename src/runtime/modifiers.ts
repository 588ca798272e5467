/**
 * Calling modifiers from generated code, with Smarty 2's `@` rule: without `@`, a modifier
 * applied to an array is applied to each element (one level, keys kept); with `@` it gets the
 * whole value. Declared defaults fill omitted trailing arguments. Where PHP 8 would throw a
 * TypeError the platform returns null and logs a warning (decisions.md item 2).
 */
import { PhpArray, type Value } from './value.js';
import { PhpTypeError } from './convert.js';
import type { ModifierContext, ModifierPlugin } from '../plugins/types.js';

export interface BoundModifier {
  plugin: ModifierPlugin;
  defaults: Value[];
  required: number;
}

export function bindModifier(plugin: ModifierPlugin): BoundModifier {
  const required = plugin.params.filter((p) => p.required).length;
  return { plugin, defaults: plugin.params.map((p) => (p.default === undefined ? null : p.default)), required };
}

export function callModifier(m: BoundModifier, input: Value, args: Value[] | undefined, ctx: ModifierContext): Value {
  const given = args ?? [];
  const full = given.length >= m.defaults.length ? given : given.concat(m.defaults.slice(given.length));
  try {
    return m.plugin.run(input, full, ctx);
  } catch (e) {
    if (e instanceof PhpTypeError) {
      ctx.warn(`${m.plugin.name}: ${e.message}; the result is null`);
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
