import { defineModifier } from '../types.js';
import { PhpTypeError } from '../../value/convert.js';
import { int32Arg, intArg } from '../../php/args.js';
import { jsonEncodeEx } from '../../php/json/encode.js';
import { JSON_DEFAULT_DEPTH, JSON_PARTIAL_OUTPUT_ON_ERROR, JSON_THROW_ON_ERROR } from '../../php/json/flags.js';

export default defineModifier({
  kind: 'modifier',
  name: 'json_encode',
  summary:
    "PHP's json_encode: non-ASCII as \\uXXXX and `/` as `\\/` unless flags say otherwise (JSON_UNESCAPED_UNICODE, JSON_PRETTY_PRINT...); false for invalid UTF-8 or INF/NAN. Use `@` for arrays.",
  origin: 'php',
  params: [
    { name: 'flags', type: 'int', default: 0, doc: 'JSON_* flags, e.g. $smarty.const.JSON_UNESCAPED_UNICODE.' },
    { name: 'depth', type: 'int', default: JSON_DEFAULT_DEPTH },
  ],
  examples: [
    {
      template: '{$d|@json_encode}',
      vars: { d: { name: '山田', path: '/a' } },
      output: '{"name":"\\u5c71\\u7530","path":"\\/a"}',
    },
    {
      template: '{$d|@json_encode:320}',
      vars: { d: { name: '山田', path: '/a' } },
      output: '{"name":"山田","path":"/a"}',
    },
    { template: '{$s|json_encode}', vars: { s: 'a"b' }, output: '"a\\"b"' },
  ],
  run(input, [flags, depth]) {
    const f = int32Arg(flags, 'json_encode', 2, 'flags');
    const d = intArg(depth, 'json_encode', 3, 'depth');
    const { json, error } = jsonEncodeEx(input, f, d);
    // A JsonException in PHP: the platform turns it into null and a warning.
    if (error !== 0 && f & JSON_THROW_ON_ERROR && !(f & JSON_PARTIAL_OUTPUT_ON_ERROR)) {
      throw new PhpTypeError(`json_encode(): JsonException (error ${error})`);
    }
    return json;
  },
});
