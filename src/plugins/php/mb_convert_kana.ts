import { defineModifier } from '../types.js';
import { optStrArg, strArg } from '../../php/args.js';
import { checkMbEncoding } from '../../php/string/mb.js';
import { parseKanaMode } from '../../php/kana/mode.js';
import { convertKana } from '../../php/kana/convert-kana.js';

/**
 * PHP 8.2 mb_convert_kana on UTF-8: r/R alphabet, n/N digits, a/A all ASCII but " ' \ ~,
 * s/S space, k/K and h/H halfwidth/fullwidth kana, c/C hiragana/katakana, m/M quote and yen
 * symbols, V joins a halfwidth kana with its sound mark. Contradictory letters ("Rr", "KH")
 * are PHP's ValueError (null and a warning); only UTF-8 is supported as encoding.
 */
export default defineModifier({
  kind: 'modifier',
  name: 'mb_convert_kana',
  origin: 'php',
  summary: 'Converts between fullwidth and halfwidth letters, digits, spaces and kana (PHP mb_convert_kana).',
  params: [
    { name: 'mode', type: 'string', default: 'KV' },
    { name: 'encoding', type: 'string', default: null },
  ],
  examples: [
    { template: '{$s|mb_convert_kana}', vars: { s: 'ｶﾞｷﾞ ﾃｽﾄ' }, output: 'ガギ テスト' },
    { template: "{$s|mb_convert_kana:'as'}", vars: { s: 'ＡＢＣ　１２３' }, output: 'ABC 123' },
    { template: "{$s|mb_convert_kana:'c'}", vars: { s: 'カタカナ' }, output: 'かたかな' },
  ],
  run(input, [mode, encoding]) {
    const s = strArg(input, 'mb_convert_kana', 1);
    const m = strArg(mode, 'mb_convert_kana', 2, 'mode');
    checkMbEncoding(optStrArg(encoding, 'mb_convert_kana', 3, 'encoding'), 'mb_convert_kana', 3);
    return convertKana(s, parseKanaMode(m));
  },
});
