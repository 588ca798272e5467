import { defineModifier } from '../types.js';
import { phpSprintf } from '../../php/format/sprintf.js';
import { zvalGetString } from '../../php/zval.js';

/** Smarty 2: sprintf(format, value), PHP's byte-based sprintf. */
export default defineModifier({
  kind: 'modifier',
  name: 'string_format',
  origin: 'smarty',
  summary: 'Formats the value with a sprintf format (width, precision, padding, %d %s %f %x %b %e ...).',
  params: [{ name: 'format', type: 'string', required: true }],
  examples: [
    {
      template: "{$pi|string_format:'%05.2f'}|{$f|string_format:'%d'}|{$n|string_format:'%x'}",
      vars: { pi: 3.14159, f: 3.99, n: 255 },
      output: '03.14|3|ff',
    },
    { template: "[{$j|string_format:'%8s'}][{$j|string_format:'%.3s'}]", vars: { j: '日本' }, output: '[  日本][日]' },
  ],
  run(input, [format], ctx) {
    // The context is the notes: its `warn` is what sprintf calls (no closure made per call).
    return phpSprintf(zvalGetString(format), [input], ctx);
  },
});
