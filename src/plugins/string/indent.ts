import { defineModifier } from '../types.js';
import { checkStringLength } from '../../value/limits.js';
import { countMatches } from '../../value/count-matches.js';
import { replaceEach } from '../../value/replace-each.js';
import { intArg, strArg, valueError } from '../../php/args.js';
import { pregSubject, replacementFor } from '../../php/string/preg-like.js';

/**
 * Smarty 2.6: preg_replace('!^!m', str_repeat($char, $chars), $string). PCRE's multiline `^`
 * matches after every "\n" except one that ends the string, unlike JavaScript's /^/gm.
 */
export default defineModifier({
  kind: 'modifier',
  name: 'indent',
  origin: 'smarty',
  summary: 'Inserts chars copies of char at the start of every line, the first included.',
  params: [
    { name: 'chars', type: 'int', default: 4 },
    { name: 'char', type: 'string', default: ' ' },
  ],
  examples: [
    { template: '{$s|indent:3:"-"}', vars: { s: 'x\r\ny' }, output: '---x\r\n---y' },
    { template: '{$s|indent:1:">"}', vars: { s: 'a\nb\n' }, output: '>a\n>b\n' },
  ],
  run(input, [chars, char]) {
    const n = intArg(chars, 'str_repeat', 2, 'times');
    const c = strArg(char, 'str_repeat', 1);
    if (n < 0) throw valueError('str_repeat', 2, 'times', 'must be greater than or equal to 0');
    checkStringLength(n * c.length, 'indent');
    // The indent is a preg_replace replacement: $0 and \0 there stand for the (empty) match.
    const prefix = replacementFor(c.repeat(n))('');
    return pregSubject(input, 'preg_replace', (s) => {
      const lines = countMatches(s, /\n/g) + 1;
      checkStringLength(s.length + lines * prefix.length, 'indent');
      return prefix + replaceEach(s, /\n(?!$)/g, () => '\n' + prefix, 'indent');
    });
  },
});
