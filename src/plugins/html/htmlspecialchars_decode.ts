import { defineModifier } from '../types.js';
import { int32Arg, strArg } from '../../php/args.js';
import { ENT_DEFAULT, htmlspecialcharsDecode } from '../../php/string/html.js';

/** PHP htmlspecialchars_decode: only &amp; &lt; &gt; &quot; and the single quote's entities. */
export default defineModifier({
  kind: 'modifier',
  name: 'htmlspecialchars_decode',
  origin: 'php',
  summary: 'Turns &amp; &lt; &gt; &quot; &#039; back into characters.',
  params: [{ name: 'flags', type: 'int', default: ENT_DEFAULT }],
  examples: [
    {
      template: '{$s|htmlspecialchars_decode}',
      vars: { s: '&lt;b&gt; &amp;amp; &#039; &eacute;' },
      output: "<b> &amp; ' &eacute;",
    },
  ],
  run(input, [flags]) {
    return htmlspecialcharsDecode(
      strArg(input, 'htmlspecialchars_decode', 1),
      int32Arg(flags, 'htmlspecialchars_decode', 2, 'flags'),
    );
  },
});
