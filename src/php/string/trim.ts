/**
 * trim/ltrim/rtrim with PHP's character list, including `a..z` ranges (php_charmask).
 * Works on bytes: a multibyte character in the list stands for its separate bytes.
 */
import { fromBinary, toBinary } from '../../value/bytes.js';

const DEFAULT_TRIM_CHARS = ' \t\n\r\0\x0B';

/**
 * The set of bytes a character list names. `warn` receives PHP's warnings for malformed
 * ranges, which PHP then reads as plain characters.
 */
function charMask(list: string, fn: string, warn?: (m: string) => void): Set<number> {
  const bin = toBinary(list);
  const mask = new Set<number>();
  const len = bin.length;
  for (let i = 0; i < len; i++) {
    const c = bin.charCodeAt(i);
    if (i + 3 < len && bin[i + 1] === '.' && bin[i + 2] === '.' && bin.charCodeAt(i + 3) >= c) {
      for (let x = c; x <= bin.charCodeAt(i + 3); x++) mask.add(x);
      i += 3;
      continue;
    }
    if (i + 1 < len && bin[i] === '.' && bin[i + 1] === '.') {
      // PHP reports the malformed range and skips this dot (a later one may still count).
      if (i === 0) warn?.(`${fn}(): Invalid '..'-range, no character to the left of '..'`);
      else if (i + 2 >= len) warn?.(`${fn}(): Invalid '..'-range, no character to the right of '..'`);
      else if (bin.charCodeAt(i - 1) > bin.charCodeAt(i + 2))
        warn?.(`${fn}(): Invalid '..'-range, '..'-range needs to be incrementing`);
      else warn?.(`${fn}(): Invalid '..'-range`);
      continue;
    }
    mask.add(c);
  }
  return mask;
}

/** mode: 1 left, 2 right, 3 both (PHP's php_trim modes). */
export function phpTrim(
  s: string,
  chars: string | null,
  mode: 1 | 2 | 3,
  fn: string,
  warn?: (m: string) => void,
): string {
  const bin = toBinary(s);
  const mask = charMask(chars ?? DEFAULT_TRIM_CHARS, fn, warn);
  let a = 0;
  let z = bin.length;
  if (mode & 1) while (a < z && mask.has(bin.charCodeAt(a))) a++;
  if (mode & 2) while (z > a && mask.has(bin.charCodeAt(z - 1))) z--;
  return a === 0 && z === bin.length ? s : fromBinary(bin.slice(a, z));
}
