/**
 * mb_convert_encoding between UTF-8 and ASCII only. Shift_JIS, EUC-JP and the other legacy
 * encodings would need their full mapping tables; asking for one throws a PhpTypeError that
 * says so, rather than returning wrong bytes.
 */
import { PhpTypeError } from '../../value/convert.js';
import { fromBinary, toBinary } from '../../value/bytes.js';
import { checkSplitLength } from '../../value/limits.js';
import { nextMbUtf8 } from './utf8-scan.js';

type Enc = 'utf-8' | 'ascii';

const NAMES: Record<string, Enc> = { 'utf-8': 'utf-8', utf8: 'utf-8', ascii: 'ascii', 'us-ascii': 'ascii' };

function encodingOf(name: string, n: number): Enc {
  const key = name.trim().toLowerCase();
  // An own key only: `constructor` is a name of Object.prototype, not an encoding.
  const e = Object.hasOwn(NAMES, key) ? NAMES[key] : undefined;
  if (!e) {
    throw new PhpTypeError(
      `mb_convert_encoding(): Argument #${n} encoding "${name}" is not supported here (only UTF-8 and ASCII)`,
    );
  }
  return e;
}

export function mbConvertEncoding(s: string, to: string, from: string | null = null): string {
  const target = encodingOf(to, 2);
  // A comma-separated list of candidates is detected in order; with only UTF-8 and ASCII
  // known, the first supported one that fits is used.
  const list = from ?? 'UTF-8';
  checkSplitLength(list, ',', 'mb_convert_encoding');
  const candidates = list.split(',').map((f) => encodingOf(f, 3));
  const bin = toBinary(s);
  const source =
    candidates.length > 1 && /^[\x00-\x7f]*$/.test(bin) && candidates.includes('ascii') ? 'ascii' : candidates[0];
  let out = '';
  for (let i = 0; i < bin.length;) {
    if (source === 'ascii') {
      out += bin.charCodeAt(i) < 0x80 ? bin[i] : '?';
      i++;
      continue;
    }
    const { cp, len } = nextMbUtf8(bin, i);
    out += cp < 0 || (target === 'ascii' && cp >= 0x80) ? '?' : bin.slice(i, i + len);
    i += len;
  }
  return fromBinary(out);
}
