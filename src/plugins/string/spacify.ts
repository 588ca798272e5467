import { defineModifier } from '../types.js';
import { fromBinary, toBinary } from '../../value/bytes.js';
import { checkStringLength } from '../../value/limits.js';
import { strArg } from '../../php/args.js';

const CHUNK = 64 * 1024;

/**
 * Smarty 2.6: implode($char, preg_split('//', $string, -1, PREG_SPLIT_NO_EMPTY)): the
 * separator goes between bytes, so multibyte characters are split.
 */
export default defineModifier({
  kind: 'modifier',
  name: 'spacify',
  origin: 'smarty',
  summary: 'Inserts the separator between every byte (not multibyte-safe).',
  params: [{ name: 'spacify_char', type: 'string', default: ' ' }],
  examples: [{ template: "{'hello'|spacify}|{'abc'|spacify:'-'}", output: 'h e l l o|a-b-c' }],
  run(input, [char]) {
    const bin = toBinary(strArg(input, 'preg_split', 2, 'subject'));
    const sep = toBinary(strArg(char, 'implode', 1, 'separator'));
    checkStringLength(bin.length * (sep.length + 1), 'spacify');
    // a chunk at a time: split('') of the whole string is an array of one element per byte
    let out = '';
    for (let i = 0; i < bin.length; i += CHUNK)
      out +=
        (i === 0 ? '' : sep) +
        bin
          .slice(i, i + CHUNK)
          .split('')
          .join(sep);
    return fromBinary(out);
  },
});
