import { defineModifier } from '../types.js';
import { strArg } from '../../php/args.js';
import { constantValue } from '../../php/constants.js';

/**
 * PHP defined(), answered from the constant table templates read as $smarty.const
 * (src/php/constants.ts): true exactly when `$smarty.const.NAME` has a PHP value.
 * Host constants (SITE_KEY, ROOT_URL...) live in the render context, which modifiers do not
 * see, so they answer false here; names are case-sensitive as in PHP 8.
 */
export default defineModifier({
  kind: 'modifier',
  name: 'defined',
  origin: 'php',
  summary: 'True when a PHP constant of that name is available to templates.',
  params: [],
  examples: [{ template: "[{'JSON_PRETTY_PRINT'|defined}][{'NO_SUCH_CONSTANT'|defined}]", output: '[1][]' }],
  run(input) {
    return constantValue(strArg(input, 'defined', 1, 'constant_name')) !== undefined;
  },
});
