import { defineModifier } from '../types.js';
import { toBool } from '../../value/convert.js';
import { byteLength } from '../../value/bytes.js';
import { strArg } from '../../php/args.js';

/** Smarty 2.6: strlen() with spaces, else preg_match_all('/[^\s]/'): both count bytes. */
export default defineModifier({
  kind: 'modifier',
  name: 'count_characters',
  origin: 'smarty',
  summary: 'Number of bytes, without ASCII whitespace unless include_spaces is true.',
  params: [{ name: 'include_spaces', type: 'bool', default: false }],
  examples: [
    {
      template: '{$s|count_characters}|{$s|count_characters:true}',
      vars: { s: "Cold day,\tisn't it?\n" },
      output: '16|20',
    },
    { template: '{$j|count_characters}', vars: { j: '日本語の テキスト' }, output: '24' },
  ],
  run(input, [includeSpaces]) {
    const s = strArg(input, toBool(includeSpaces) ? 'strlen' : 'preg_match_all', 1);
    if (toBool(includeSpaces)) return byteLength(s);
    // the whitespace removed is ASCII, one byte a character: counted rather than cut out
    let spaces = 0;
    const ws = /[ \t\n\v\f\r]+/g;
    for (let m = ws.exec(s); m !== null; m = ws.exec(s)) spaces += m[0].length;
    return byteLength(s) - spaces;
  },
});
