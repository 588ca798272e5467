/** {add} and {subtract}: `$var = $var <op> value` with PHP 8's `+` / `-`. */
import type { FunctionPlugin, PluginContext } from '../types.js';
import { PhpTypeError, toStr } from '../../value/convert.js';
import type { PhpNumber, Value } from '../../value/value.js';
import { readVar } from './read-var.js';

type Op = (a: Value, b: Value) => PhpNumber;

/**
 * A missing variable is null, which PHP counts as 0. Where PHP would throw a TypeError
 * (an array or a non-numeric string on either side) the variable is left as it was and a
 * warning is logged.
 */
export function updateInPlace(plugin: string, op: Op, attrs: Record<string, Value>, ctx: PluginContext): void {
  const name = toStr(attrs.var ?? null);
  try {
    ctx.assign(name, op(readVar(ctx, name), attrs.value ?? null));
  } catch (e) {
    if (!(e instanceof PhpTypeError)) throw e;
    ctx.warn(`{${plugin}} var=${name}: ${e.message}; the variable is unchanged`);
  }
}

export const inPlaceAttrs: FunctionPlugin['attrs'] = {
  var: { type: 'varname', required: true, doc: 'The variable to update; `a.b` reaches into an array.' },
  value: {
    type: 'number',
    doc: 'The operand (PHP numeric rules: ints stay ints, numeric strings convert). Omitted: 0.',
  },
};
