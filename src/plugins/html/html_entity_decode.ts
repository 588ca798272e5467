import { defineModifier } from '../types.js';
import { int32Arg, optStrArg, strArg } from '../../php/args.js';
import { ENT_DEFAULT, htmlCharset, htmlEntityDecode } from '../../php/string/html.js';

/** PHP html_entity_decode (HTML 4.01 entities, numeric entities; UTF-8 or ISO-8859-1). */
export default defineModifier({
  kind: 'modifier',
  name: 'html_entity_decode',
  origin: 'php',
  summary: 'Turns HTML entities back into characters.',
  params: [
    { name: 'flags', type: 'int', default: ENT_DEFAULT },
    { name: 'encoding', type: 'string', default: null },
  ],
  examples: [
    {
      template: '{$s|html_entity_decode}',
      vars: { s: '&lt;p&gt;caf&eacute; &amp; &#26085;&#x672C;' },
      output: '<p>café & 日本',
    },
  ],
  run(input, [flags, encoding], ctx) {
    const cs = htmlCharset('html_entity_decode', optStrArg(encoding, 'html_entity_decode', 3, 'encoding') ?? '', (m) =>
      ctx.warn(m),
    );
    return htmlEntityDecode(
      strArg(input, 'html_entity_decode', 1),
      int32Arg(flags, 'html_entity_decode', 2, 'flags'),
      cs,
    );
  },
});
