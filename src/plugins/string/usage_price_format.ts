import { defineModifier } from '../types.js';
import { toStr } from '../../value/convert.js';
import { isScalarOrNull } from '../../php/args.js';
import { formatPrice } from '../../php/string/price.js';

/**
 * The platform's usage_price_format. The service formats with its usage (billing) settings,
 * which a template cannot see; the default configuration here is Japanese yen: `¥`, no
 * decimals, `,` thousands separator, rounding half away from zero as number_format does, the
 * minus sign before the symbol (`-¥1,235`). edge_flg is accepted and has no effect with that
 * configuration. '' and null give ''; non-numeric strings, arrays and objects give ''.
 */
export default defineModifier({
  kind: 'modifier',
  name: 'usage_price_format',
  origin: 'platform',
  summary: 'Formats an amount as a price (default: ¥ with thousands separators, no decimals).',
  params: [{ name: 'edge_flg', type: 'bool', default: false }],
  examples: [
    {
      template: '{$p|usage_price_format}|{$n|usage_price_format}',
      vars: { p: 1234567.5, n: -980 },
      output: '¥1,234,568|-¥980',
    },
  ],
  run(input) {
    if (!isScalarOrNull(input) || input === null || input === undefined || input === '') return '';
    return formatPrice(toStr(input));
  },
});
