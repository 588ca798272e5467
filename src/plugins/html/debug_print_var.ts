import { defineModifier } from '../types.js';
import { PhpArray, PhpObject, type Key, type Value, isInt } from '../../value/value.js';
import { toStr, toInt } from '../../value/convert.js';
import { byteLength, byteSubstr } from '../../value/bytes.js';
import { checkStringLength } from '../../value/limits.js';
import { htmlspecialchars } from '../../php/string/html.js';
import { strtrTable } from '../../php/string/strtr.js';

const markers = strtrTable({ '\n': '<i>\\n</i>', '\r': '<i>\\r</i>', '\t': '<i>\\t</i>' }, 'debug_print_var');

/**
 * Smarty 2.6.33's debug_print_var, with the platform's default length of 300 (stock: 40).
 * htmlspecialchars runs with PHP 8's default flags (ENT_QUOTES | ENT_SUBSTITUTE), so a string
 * cut inside a UTF-8 character shows U+FFFD there.
 */
function dump(v: Value, depth: number, length: number): string {
  if (v instanceof PhpArray || v instanceof PhpObject) {
    const isArr = v instanceof PhpArray;
    const entries: [Key, Value][] = isArr ? v.entries() : Array.from(v.props.entries());
    let out = isArr ? `<b>Array (${entries.length})</b>` : `<b>stdClass Object (${entries.length})</b>`;
    checkStringLength(depth * 12 * entries.length, 'debug_print_var');
    for (const [k, x] of entries) {
      const key = markers(toStr(k));
      out += '<br>' + '&nbsp;'.repeat(Math.max(0, depth * 2));
      out += isArr ? `<b>${key}</b> =&gt; ` : `<b> -&gt;${key}</b> = `;
      out += dump(x, depth + 1, length);
    }
    return out;
  }
  if (v === true || v === false || v === null || v === undefined)
    return `<i>${v === true ? 'true' : v === false ? 'false' : 'null'}</i>`;
  if (typeof v === 'string') {
    const s = byteLength(v) > length ? byteSubstr(v, 0, length - 3) + '...' : markers(v);
    return htmlspecialchars('"' + s + '"');
  }
  if (isInt(v)) return toStr(v);
  // gettype() says 'double', which Smarty's switch misses: the default branch
  const s = toStr(v);
  return htmlspecialchars(byteLength(s) > length ? byteSubstr(s, 0, length - 3) + '...' : s);
}

export default defineModifier({
  kind: 'modifier',
  name: 'debug_print_var',
  origin: 'smarty',
  summary: 'An HTML dump of a value (use |@debug_print_var for arrays).',
  params: [
    { name: 'depth', type: 'int', default: 0 },
    { name: 'length', type: 'int', default: 300 },
  ],
  examples: [
    {
      template: '{$v|@debug_print_var}',
      vars: { v: { a: 1, b: [true, null] } },
      output:
        '<b>Array (2)</b><br><b>a</b> =&gt; 1<br><b>b</b> =&gt; <b>Array (2)</b><br>&nbsp;&nbsp;<b>0</b> =&gt; <i>true</i><br>&nbsp;&nbsp;<b>1</b> =&gt; <i>null</i>',
    },
    { template: '{$s|debug_print_var}', vars: { s: 'a<b>\n' }, output: '&quot;a&lt;b&gt;&lt;i&gt;\\n&lt;/i&gt;&quot;' },
  ],
  run(input, [depth, length]) {
    return dump(input, toInt(depth), toInt(length));
  },
});
