import { defineModifier } from '../types.js';
import { PhpArray, PhpObject, type Value } from '../../value/value.js';

/** PHP's (object) cast: shallow, int keys become property names, a scalar lands in "scalar". */
function toObject(v: Value): PhpObject {
  if (v instanceof PhpObject) return v;
  const o = new PhpObject();
  if (v instanceof PhpArray) for (const [k, x] of v.entries()) o.set(String(k), x);
  else if (v !== null && v !== undefined) o.set('scalar', v);
  return o;
}

export default defineModifier({
  kind: 'modifier',
  name: 'to_object',
  summary: "Converts an array to a stdClass object as PHP's `(object)` cast does (one level). Use `@`.",
  origin: 'platform',
  params: [],
  examples: [
    { template: '{assign var=o value=$m|@to_object}{$o->name}', vars: { m: { name: 'Taro' } }, output: 'Taro' },
  ],
  run: (input) => toObject(input),
});
