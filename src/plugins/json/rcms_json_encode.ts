import { defineModifier } from '../types.js';
import { PhpArray, PhpObject, type Value } from '../../value/value.js';
import { jsonEncode } from '../../php/json/encode.js';
import { JSON_UNESCAPED_UNICODE } from '../../php/json/flags.js';
import { checkSplitLength } from '../../value/limits.js';

const BOUNDARY = '__RCMS_CONTENT_BOUNDARY__';

/** Strings holding the content boundary marker become the list of their parts, at any depth. */
function splitBoundaries(v: Value): Value {
  if (typeof v === 'string') {
    if (!v.includes(BOUNDARY)) return v;
    checkSplitLength(v, BOUNDARY, 'rcms_json_encode');
    return PhpArray.fromList(v.split(BOUNDARY));
  }
  if (v instanceof PhpArray) return PhpArray.fromEntries(v.entries().map(([k, x]) => [k, splitBoundaries(x)] as const));
  if (v instanceof PhpObject) {
    const o = new PhpObject();
    for (const [k, x] of v.props) o.set(k, splitBoundaries(x));
    return o;
  }
  return v;
}

export default defineModifier({
  kind: 'modifier',
  name: 'rcms_json_encode',
  summary:
    'JSON with Unicode characters unescaped (JSON_UNESCAPED_UNICODE); strings containing `__RCMS_CONTENT_BOUNDARY__` are first split into arrays at the marker. Use `@` for arrays.',
  origin: 'platform',
  params: [],
  examples: [
    { template: '{$d|@rcms_json_encode}', vars: { d: { name: '山田' } }, output: '{"name":"山田"}' },
    { template: '{$s|rcms_json_encode}', vars: { s: 'a__RCMS_CONTENT_BOUNDARY__b' }, output: '["a","b"]' },
  ],
  run: (input) => jsonEncode(splitBoundaries(input), JSON_UNESCAPED_UNICODE),
});
