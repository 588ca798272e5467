import { defineModifier } from '../types.js';
import { strArg } from '../../php/args.js';
import { replaceEach } from '../../value/replace-each.js';
import { pregSubject, replacementFor } from '../../php/string/preg-like.js';

/** Smarty 2.6: preg_replace('!\s+!', $replace, $text): ASCII whitespace only (U+3000 stays). */
export default defineModifier({
  kind: 'modifier',
  name: 'strip',
  origin: 'smarty',
  summary: 'Replaces each run of ASCII whitespace with the replacement (a space by default).',
  params: [{ name: 'replace', type: 'string', default: ' ' }],
  examples: [
    { template: "{$s|strip:'&nbsp;'}", vars: { s: 'a  b\nc' }, output: 'a&nbsp;b&nbsp;c' },
    { template: '{$s|strip}', vars: { s: '日本　語  テスト x' }, output: '日本　語 テスト x' },
  ],
  run(input, [replace]) {
    const rep = replacementFor(strArg(replace, 'preg_replace', 2, 'replacement'));
    return pregSubject(input, 'preg_replace', (s) => replaceEach(s, /[ \t\n\v\f\r]+/g, rep, 'strip'));
  },
});
