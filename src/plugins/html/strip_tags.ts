import { defineModifier } from '../types.js';
import { toBool } from '../../value/convert.js';
import { replaceEach } from '../../value/replace-each.js';
import { strArg } from '../../php/args.js';
import { pregSubject } from '../../php/string/preg-like.js';
import { stripTags } from '../../php/string/strip-tags.js';

/**
 * Smarty 2.6's strip_tags: with replace_with_space (the default) every `<` up to the next `>`
 * becomes one space (preg_replace('!<[^>]*?>!', ' ')); otherwise PHP's strip_tags. The PHP
 * function of the same name is shadowed by this modifier, as in Smarty 2: `|strip_tags:false`
 * is the way to PHP's behaviour (PHP's allowed-tags argument is rcms_strip_tags' job).
 */
export default defineModifier({
  kind: 'modifier',
  name: 'strip_tags',
  origin: 'smarty',
  summary: 'Removes HTML tags: each replaced by a space, or removed outright with false.',
  params: [{ name: 'replace_with_space', type: 'bool', default: true }],
  examples: [
    { template: '[{$s|strip_tags}]', vars: { s: '<b>bold</b> <i>i</i>' }, output: '[ bold   i ]' },
    { template: '[{$s|strip_tags:false}]', vars: { s: '<p title="a>b">x</p><!-- c -->y' }, output: '[xy]' },
  ],
  run(input, [withSpace]) {
    if (toBool(withSpace))
      return pregSubject(input, 'preg_replace', (s) => replaceEach(s, /<[^>]*?>/g, () => ' ', 'strip_tags'));
    return stripTags(strArg(input, 'strip_tags', 1));
  },
});
