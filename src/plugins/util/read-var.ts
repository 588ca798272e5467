/**
 * Reads the variable a `var=` attribute names, following the same dotted path that
 * ctx.assign writes (`a.b.c`), so that `{add var=totals.sum value=1}` updates in place.
 */
import type { PluginContext } from '../types.js';
import { key, prop } from '../../value/access.js';
import { PhpObject, type Value } from '../../value/value.js';
import { MAX_DEPTH as MAX_ASSIGN_DEPTH } from '../../value/assign.js';

export function readVar(ctx: PluginContext, name: string): Value {
  // as deep as ctx.assign can write, and no deeper: a name of 16M dots is not split into 16M parts
  const [root, ...path] = name.split('.', MAX_ASSIGN_DEPTH + 2);
  let v = ctx.get(root);
  for (const k of path) v = v instanceof PhpObject ? prop(v, k) : key(v, k);
  return v ?? null;
}
