import { defineModifier } from '../types.js';
import { intArg, optStrArg, strArg } from '../../php/args.js';
import { checkMbEncoding, mbStrimwidth } from '../../php/string/mb.js';

/** PHP mb_strimwidth: East Asian wide and fullwidth characters count 2 columns, as mbstring counts. */
export default defineModifier({
  kind: 'modifier',
  name: 'mb_strimwidth',
  origin: 'php',
  summary: 'Cuts to a display width (CJK characters count 2), appending trim_marker when cut.',
  params: [
    { name: 'start', type: 'int', required: true },
    { name: 'width', type: 'int', required: true },
    { name: 'trim_marker', type: 'string', default: '' },
    { name: 'encoding', type: 'string', default: null },
  ],
  examples: [
    {
      template: "{$j|mb_strimwidth:0:10:'…'}|{$a|mb_strimwidth:0:8:'...'}",
      vars: { j: '日本語のテキストです', a: 'Hello World' },
      output: '日本語の…|Hello...',
    },
  ],
  run(input, [start, width, marker, enc]) {
    checkMbEncoding(optStrArg(enc, 'mb_strimwidth', 5, 'encoding'), 'mb_strimwidth', 5);
    return mbStrimwidth(
      strArg(input, 'mb_strimwidth', 1),
      intArg(start, 'mb_strimwidth', 2, 'start'),
      intArg(width, 'mb_strimwidth', 3, 'width'),
      strArg(marker, 'mb_strimwidth', 4, 'trim_marker'),
    );
  },
});
