import { defineModifier } from '../types.js';
import { PhpArray, PhpFloat, type Value } from '../../value/value.js';
import { toStr } from '../../value/convert.js';
import { byteLength } from '../../value/bytes.js';
import { checkSplitLength } from '../../value/limits.js';
import { pregSplit } from '../../php/pcre/preg.js';

function scalarString(v: Value): string | null {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'bigint' || v instanceof PhpFloat) return toStr(v);
  return null;
}

/** explode() with the delimiter first; '' for an empty delimiter is PHP's ValueError, so []. */
function explode(delimiter: string, s: string): PhpArray {
  if (delimiter === '') return PhpArray.empty();
  checkSplitLength(s, delimiter, 'split');
  return PhpArray.fromList(s.split(delimiter));
}

export default defineModifier({
  kind: 'modifier',
  name: 'split',
  summary:
    'Splits the argument on the input delimiter, like explode; a delimiter starting with "/" and at least 3 bytes long is a regular expression (preg_split). [] for empty or invalid input.',
  origin: 'platform',
  params: [{ name: 'string', type: 'mixed', required: true, doc: 'the string to split' }],
  examples: [
    { template: "{foreach from=','|split:'a,b,c' item=p}[{$p}]{/foreach}", output: '[a][b][c]' },
    { template: "{foreach from='/[\\s,]+/'|split:'a, b  c' item=p}[{$p}]{/foreach}", output: '[a][b][c]' },
  ],
  run(input, args, ctx) {
    const delimiter = scalarString(input);
    const s = scalarString(args[0]);
    if (delimiter === null || s === null || s === '') return PhpArray.empty();
    if (delimiter.startsWith('/') && byteLength(delimiter) >= 3) {
      const parts = pregSplit(delimiter, s, -1, 0, (m) => ctx.warn(m));
      return parts === false ? PhpArray.empty() : parts;
    }
    return explode(delimiter, s);
  },
});
