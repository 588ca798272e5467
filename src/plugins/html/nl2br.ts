import { defineModifier } from '../types.js';
import { boolArg, strArg } from '../../php/args.js';
import { nl2br } from '../../php/string/nl2br.js';

/** PHP nl2br (Smarty 2's modifier calls it): `<br />` before each \r\n, \n\r, \n or \r. */
export default defineModifier({
  kind: 'modifier',
  name: 'nl2br',
  origin: 'php',
  summary: 'Inserts <br /> before every line break, keeping the break.',
  params: [{ name: 'use_xhtml', type: 'bool', default: true }],
  examples: [{ template: '{$s|nl2br}', vars: { s: 'a\nb\r\nc' }, output: 'a<br />\nb<br />\r\nc' }],
  run(input, [xhtml]) {
    const br = boolArg(xhtml, 'nl2br', 2, 'use_xhtml') ? '<br />' : '<br>';
    return nl2br(strArg(input, 'nl2br', 1), br);
  },
});
