import { defineModifier } from '../types.js';
import { boolArg, int32Arg, intArg } from '../../php/args.js';
import { jsonErrorMessage, parseJson } from '../../php/json/decode.js';
import { PhpTypeError } from '../../value/convert.js';
import { JSON_DEFAULT_DEPTH, JSON_THROW_ON_ERROR } from '../../php/json/flags.js';

export default defineModifier({
  kind: 'modifier',
  name: 'json_decode',
  summary:
    'Decodes JSON text. Objects become associative arrays by default (`json_decode:false` gives objects); null when the input is not a string or not valid JSON.',
  origin: 'platform',
  params: [
    { name: 'assoc', type: 'bool', default: true },
    { name: 'depth', type: 'int', default: JSON_DEFAULT_DEPTH },
    { name: 'flags', type: 'int', default: 0 },
  ],
  examples: [
    {
      template: '{assign var=d value=$j|json_decode}{$d.name}/{$d.tags.1}',
      vars: { j: '{"name":"Ken","tags":["a","b"]}' },
      output: 'Ken/b',
    },
    { template: '{assign var=o value=$j|json_decode:false}{$o->name}', vars: { j: '{"name":"Ken"}' }, output: 'Ken' },
  ],
  run(input, [assoc, depth, flags]) {
    if (typeof input !== 'string') return null;
    const d = intArg(depth, 'json_decode', 3, 'depth');
    if (d <= 0) throw new PhpTypeError('json_decode(): Argument #3 ($depth) must be greater than 0');
    if (d > 2147483647) throw new PhpTypeError('json_decode(): Argument #3 ($depth) must be less than 2147483647');
    const objects = !boolArg(assoc, 'json_decode', 2, 'associative');
    const f = int32Arg(flags, 'json_decode', 4, 'flags');
    const r = parseJson(input, { objects, depth: d, flags: f });
    if (r.ok) return r.value;
    // A JsonException in PHP: the platform turns it into null and a warning, as json_encode's.
    if (f & JSON_THROW_ON_ERROR) throw new PhpTypeError(`json_decode(): JsonException (${jsonErrorMessage(r.error)})`);
    return null;
  },
});
