import { defineModifier } from '../types.js';
import { PhpArray } from '../../value/value.js';
import { toStr } from '../../value/convert.js';
import { strArg } from '../../php/args.js';
import { allowedTagsString, stripTags } from '../../php/string/strip-tags.js';

/** The platform's rcms_strip_tags: PHP strip_tags with its optional allowed tags. */
export default defineModifier({
  kind: 'modifier',
  name: 'rcms_strip_tags',
  origin: 'platform',
  summary: "Removes HTML and PHP tags (PHP strip_tags), keeping the allowed ones ('<a><br>').",
  params: [{ name: 'allowed_tags', type: 'mixed', default: null }],
  examples: [
    { template: "{$s|rcms_strip_tags:'<b>'}", vars: { s: '<p>Hi <b>you</b><br/></p>' }, output: 'Hi <b>you</b>' },
  ],
  run(input, [allowed]) {
    const allow =
      allowed instanceof PhpArray
        ? allowedTagsString(allowed.values().map(toStr))
        : allowed === null || allowed === undefined
          ? null
          : allowedTagsString(strArg(allowed, 'strip_tags', 2, 'allowed_tags'));
    return stripTags(strArg(input, 'strip_tags', 1), allow);
  },
});
