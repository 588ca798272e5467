import { defineModifier } from '../types.js';
import { phpNumberFormat } from '../../php/format/number-format.js';

export default defineModifier({
  kind: 'modifier',
  name: 'number_format',
  origin: 'php',
  summary: 'PHP number_format(): rounds half away from zero and groups thousands.',
  params: [
    { name: 'decimals', type: 'int', default: 0 },
    { name: 'decimal_separator', type: 'string', default: '.' },
    { name: 'thousands_separator', type: 'string', default: ',' },
  ],
  examples: [
    {
      template:
        "{$a|number_format}|{$a|number_format:2}|{$a|number_format:2:',':'.'}|{$h|number_format}|{$m|number_format:1}",
      vars: { a: 1234567.891, h: 2.5, m: -1234.567 },
      output: '1,234,568|1,234,567.89|1.234.567,89|3|-1,234.6',
    },
    { template: '{$n|number_format}|{1.005|number_format:2}', vars: { n: -0.4 }, output: '0|1.01' },
  ],
  run(input, [decimals, dp, ts]) {
    return phpNumberFormat(input, decimals, dp, ts);
  },
});
