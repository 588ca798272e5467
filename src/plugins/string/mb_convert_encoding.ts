import { defineModifier } from '../types.js';
import { PhpArray } from '../../value/value.js';
import { toStr } from '../../value/convert.js';
import { optStrArg, strArg } from '../../php/args.js';
import { mbConvertEncoding } from '../../php/string/convert-encoding.js';

/**
 * PHP mb_convert_encoding between UTF-8 and ASCII only (invalid or unrepresentable
 * characters become `?`). Shift_JIS, EUC-JP and other encodings are refused with an error
 * (the template gets null and a warning) instead of wrong bytes.
 */
export default defineModifier({
  kind: 'modifier',
  name: 'mb_convert_encoding',
  origin: 'php',
  summary: 'Converts between UTF-8 and ASCII (other encodings are not supported).',
  params: [
    { name: 'to_encoding', type: 'string', required: true },
    { name: 'from_encoding', type: 'mixed', default: null },
  ],
  examples: [{ template: "{$s|mb_convert_encoding:'ASCII':'UTF-8'}", vars: { s: 'café' }, output: 'caf?' }],
  run(input, [to, from]) {
    const src =
      from instanceof PhpArray
        ? from.values().map(toStr).join(',')
        : optStrArg(from, 'mb_convert_encoding', 3, 'from_encoding');
    return mbConvertEncoding(
      strArg(input, 'mb_convert_encoding', 1, 'string'),
      strArg(to, 'mb_convert_encoding', 2, 'to_encoding'),
      src,
    );
  },
});
