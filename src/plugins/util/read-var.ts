/**
 * Reads the variable a `var=` attribute names, following the same dotted path that
 * ctx.assign writes (`a.b.c`), so that `{add var=totals.sum value=1}` updates in place.
 */
import type { PluginContext } from '../types.js';
import { key, prop } from '../../runtime/access.js';
import { PhpObject, type Value } from '../../runtime/value.js';

export function readVar(ctx: PluginContext, name: string): Value {
  const [root, ...path] = name.split('.');
  let v = ctx.get(root);
  for (const k of path) v = v instanceof PhpObject ? prop(v, k) : key(v, k);
  return v ?? null;
}
