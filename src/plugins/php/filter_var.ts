import { defineModifier } from '../types.js';
import { filterVar } from '../../php/filter/filter-var.js';
import { FILTER_DEFAULT } from '../../php/filter/constants.js';

/**
 * PHP 8.2 filter_var: validate or sanitize with $smarty.const.FILTER_* and flags (an int, or
 * an array with "options", "flags" and "filter" keys). Failure gives false, or null with
 * FILTER_NULL_ON_FAILURE; options.default replaces a failure. Arrays pass only with
 * FILTER_REQUIRE_ARRAY / FILTER_FORCE_ARRAY. Not available: FILTER_CALLBACK and the
 * deprecated FILTER_SANITIZE_STRING (both give null and a warning).
 */
export default defineModifier({
  kind: 'modifier',
  name: 'filter_var',
  origin: 'php',
  summary: 'Validates or sanitizes a value with a PHP filter (FILTER_VALIDATE_*, FILTER_SANITIZE_*).',
  params: [
    { name: 'filter', type: 'int', default: FILTER_DEFAULT },
    { name: 'options', type: 'mixed', default: 0 },
  ],
  examples: [
    {
      template:
        "[{' 42 '|filter_var:$smarty.const.FILTER_VALIDATE_INT}][{'4.2'|filter_var:$smarty.const.FILTER_VALIDATE_INT}]",
      output: '[42][]',
    },
    {
      template: '{if $mail|filter_var:$smarty.const.FILTER_VALIDATE_EMAIL}valid{else}invalid{/if}',
      vars: { mail: 'taro@example.jp' },
      output: 'valid',
    },
    {
      template: '{\'a<b>&"c"\'|filter_var:$smarty.const.FILTER_SANITIZE_SPECIAL_CHARS}',
      output: 'a&#60;b&#62;&#38;&#34;c&#34;',
    },
    {
      template:
        "[{'yes'|filter_var:$smarty.const.FILTER_VALIDATE_BOOLEAN}][{'10.0.0.1'|filter_var:$smarty.const.FILTER_VALIDATE_IP:$smarty.const.FILTER_FLAG_NO_PRIV_RANGE}]",
      output: '[1][]',
    },
  ],
  run(input, [filter, options], ctx) {
    return filterVar(input, filter, options, (m) => ctx.warn(m));
  },
});
