/**
 * mb_convert_kana's $mode letters as PHP 8.2 reads them (ext/mbstring/mbstring.c): one bit
 * per letter, "A"/"a" also imply the alpha and numeric bits, and contradictory letters are
 * a ValueError with PHP's message.
 */
import { PhpTypeError } from '../../value/convert.js';

export const HAN2ZEN_ALL = 0x1;
export const HAN2ZEN_ALPHA = 0x2;
export const HAN2ZEN_NUMERIC = 0x4;
export const HAN2ZEN_SPACE = 0x8;
export const HAN2ZEN_KATAKANA = 0x10;
export const HAN2ZEN_HIRAGANA = 0x20;
export const HAN2ZEN_SPECIAL = 0x40;
export const ZENKAKU_HIRA2KATA = 0x80;
export const ZEN2HAN_ALL = 0x100;
export const ZEN2HAN_ALPHA = 0x200;
export const ZEN2HAN_NUMERIC = 0x400;
export const ZEN2HAN_SPACE = 0x800;
export const ZEN2HAN_KATAKANA = 0x1000;
export const ZEN2HAN_HIRAGANA = 0x2000;
export const ZEN2HAN_SPECIAL = 0x4000;
export const ZENKAKU_KATA2HIRA = 0x8000;
export const HAN2ZEN_GLUE = 0x10000;

/** Bit i is letter FLAGS[i]; the lower-case letter of an upper-case one is 8 bits higher. */
const FLAGS = 'ARNSKHMCarnskhmcV';

function modeError(message: string): PhpTypeError {
  return new PhpTypeError(`mb_convert_kana(): Argument #2 ($mode) ${message}`);
}

export function parseKanaMode(mode: string): number {
  let opt = 0;
  for (const c of mode) {
    if (c === 'A') opt |= HAN2ZEN_ALL | HAN2ZEN_ALPHA | HAN2ZEN_NUMERIC;
    else if (c === 'a') opt |= ZEN2HAN_ALL | ZEN2HAN_ALPHA | ZEN2HAN_NUMERIC;
    else {
      const i = FLAGS.indexOf(c);
      if (i < 0) throw modeError(`contains invalid flag: '${c}'`);
      opt |= 1 << i;
    }
  }
  const clash = opt & 0xff & (opt >> 8);
  if (clash) {
    let i = 0;
    while (!((clash >> i) & 1)) i++;
    let upper = FLAGS[i];
    let lower = FLAGS[i + 8];
    if ((upper === 'R' || upper === 'N') && opt & HAN2ZEN_ALL) upper = 'A';
    if ((lower === 'r' || lower === 'n') && opt & ZEN2HAN_ALL) lower = 'a';
    throw modeError(`must not combine '${upper}' and '${lower}' flags`);
  }
  if (opt & HAN2ZEN_HIRAGANA && opt & HAN2ZEN_KATAKANA) throw modeError("must not combine 'H' and 'K' flags");
  if (opt & ZEN2HAN_HIRAGANA) {
    if (opt & ZENKAKU_HIRA2KATA) throw modeError("must not combine 'h' and 'C' flags");
    if (opt & ZENKAKU_KATA2HIRA) throw modeError("must not combine 'h' and 'c' flags");
  } else if (opt & ZEN2HAN_KATAKANA) {
    if (opt & ZENKAKU_HIRA2KATA) throw modeError("must not combine 'k' and 'C' flags");
    if (opt & ZENKAKU_KATA2HIRA) throw modeError("must not combine 'k' and 'c' flags");
  }
  return opt;
}
