/** http_build_query with PHP's key brackets, value forms and both encodings. */
import { PhpArray, PhpObject, type Key, type Value } from '../../value/value.js';
import { toStr } from '../../value/convert.js';
import { toBytes } from '../../value/bytes.js';

export const PHP_QUERY_RFC1738 = 1;
const PHP_QUERY_RFC3986 = 2;

const HEX = '0123456789ABCDEF';

function encodeBytes(s: string, keep: RegExp, spacePlus: boolean): string {
  let out = '';
  for (const b of toBytes(s)) {
    const c = String.fromCharCode(b);
    if (keep.test(c)) out += c;
    else if (b === 0x20 && spacePlus) out += '+';
    else out += '%' + HEX[b >> 4] + HEX[b & 15];
  }
  return out;
}

/** PHP urlencode(): space as "+", keeps A-Za-z0-9 and -_. */
export function urlencode(s: string): string {
  return encodeBytes(s, /^[A-Za-z0-9_.-]$/, true);
}

/** PHP rawurlencode() (RFC 3986): keeps A-Za-z0-9 and -_.~ */
export function rawurlencode(s: string): string {
  return encodeBytes(s, /^[A-Za-z0-9_.~-]$/, false);
}

function entriesOf(v: PhpArray | PhpObject): [Key, Value][] {
  return v instanceof PhpArray ? v.entries() : Array.from(v.props.entries());
}

export function httpBuildQuery(
  data: PhpArray | PhpObject,
  numericPrefix = '',
  separator: string | null = null,
  encoding = PHP_QUERY_RFC1738,
): string {
  const enc = encoding === PHP_QUERY_RFC3986 ? rawurlencode : urlencode;
  const sep = separator ?? '&';
  const parts: string[] = [];
  const walk = (v: PhpArray | PhpObject, prefix: string, suffix: string, numPrefix: string) => {
    for (const [k, x] of entriesOf(v)) {
      const name = prefix + (typeof k !== 'string' ? numPrefix + String(k) : enc(k)) + suffix;
      if (x instanceof PhpArray || x instanceof PhpObject) {
        walk(x, name + '%5B', '%5D', '');
        continue;
      }
      if (x === null || x === undefined) continue;
      parts.push(`${name}=${scalar(x, enc)}`);
    }
  };
  walk(data, '', '', numericPrefix);
  return parts.join(sep);
}

function scalar(v: Value, enc: (s: string) => string): string {
  if (typeof v === 'boolean') return v ? '1' : '0';
  if (typeof v === 'number' || typeof v === 'bigint') return toStr(v);
  // A float goes through its string form and the encoding, as a string does: 1.0E+20 is 1.0E%2B20 (D327).
  return enc(toStr(v));
}
