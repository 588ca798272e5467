import { defineModifier } from '../types.js';
import { toStr } from '../../value/convert.js';
import { isScalarOrNull } from '../../php/args.js';

/**
 * The platform's sort_name: the input is the family name, the argument the given name. English
 * sites write "given family", every other language "family given". An empty part is left out
 * (no stray space); arrays and objects count as empty.
 */
export default defineModifier({
  kind: 'modifier',
  name: 'sort_name',
  origin: 'platform',
  summary: "Orders family and given name for the site's language (en: given first).",
  params: [{ name: 'first_name', type: 'string', default: '' }],
  examples: [{ template: "{'山田'|sort_name:'太郎'}", output: '山田 太郎' }],
  run(input, [first], ctx) {
    const str = (v: typeof input) => (isScalarOrNull(v) ? toStr(v) : '');
    const last = str(input);
    const given = str(first);
    const parts = ctx.site.lang.toLowerCase().startsWith('en') ? [given, last] : [last, given];
    return parts.filter((p) => p !== '').join(' ');
  },
});
