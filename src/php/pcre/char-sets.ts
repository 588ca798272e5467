/**
 * What \d \w \s \h \v, POSIX classes and \p{..} match: as byte sets in non-UTF mode (C
 * locale tables, as PHP uses), and as JavaScript class syntax in UTF mode, where PHP's `u`
 * also turns on PCRE2_UCP (Unicode \d \w \s and POSIX classes).
 */
import type { ClassRef } from './ast.js';
import { PcreError } from './pcre-error.js';
import { propertyClassBody } from './properties.js';

export type ByteSet = boolean[];

const POSIX = [
  'alpha',
  'lower',
  'upper',
  'alnum',
  'ascii',
  'blank',
  'cntrl',
  'digit',
  'graph',
  'print',
  'punct',
  'space',
  'word',
  'xdigit',
];

export function isPosixName(name: string): boolean {
  return POSIX.includes(name);
}

function byteSet(test: (b: number) => boolean): ByteSet {
  return Array.from({ length: 256 }, (_, b) => test(b));
}

const isDigit = (b: number) => b >= 0x30 && b <= 0x39;
const isUpper = (b: number) => b >= 0x41 && b <= 0x5a;
const isLower = (b: number) => b >= 0x61 && b <= 0x7a;
const isAlpha = (b: number) => isUpper(b) || isLower(b);
const isAlnum = (b: number) => isAlpha(b) || isDigit(b);
const isGraph = (b: number) => b >= 0x21 && b <= 0x7e;

const BYTE_TESTS: Record<string, (b: number) => boolean> = {
  d: isDigit,
  w: (b) => isAlnum(b) || b === 0x5f,
  s: (b) => (b >= 9 && b <= 13) || b === 32,
  h: (b) => b === 9 || b === 32 || b === 0xa0,
  v: (b) => (b >= 10 && b <= 13) || b === 0x85,
  alpha: isAlpha,
  lower: isLower,
  upper: isUpper,
  alnum: isAlnum,
  ascii: (b) => b < 0x80,
  blank: (b) => b === 9 || b === 32,
  cntrl: (b) => b < 32 || b === 127,
  digit: isDigit,
  graph: isGraph,
  print: (b) => b >= 0x20 && b <= 0x7e,
  punct: (b) => isGraph(b) && !isAlnum(b),
  space: (b) => (b >= 9 && b <= 13) || b === 32,
  word: (b) => isAlnum(b) || b === 0x5f,
  xdigit: (b) => isDigit(b) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66),
};

const byteCache = new Map<string, ByteSet>();

/** The bytes a class reference matches outside UTF mode (\p tests each byte as U+0000..U+00FF). */
export function refBytes(ref: ClassRef): ByteSet {
  const key = ref.name + (ref.neg ? '!' : '');
  let set = byteCache.get(key);
  if (!set) {
    let test = BYTE_TESTS[ref.name];
    if (!test) {
      const re = new RegExp(`^[${propertyClassBody(ref.name.slice(2))}]$`, 'u');
      test = (b) => re.test(String.fromCharCode(b));
    }
    const base = test;
    set = byteSet(ref.neg ? (b) => !base(b) : base);
    byteCache.set(key, set);
  }
  return set;
}

const UNICODE_BODIES: Record<string, string> = {
  d: '\\p{Nd}',
  w: '\\p{L}\\p{N}_',
  s: '\\p{Z}\\t\\n\\x0b\\f\\r\\x85\\u180e',
  h: '\\t \\xa0\\u1680\\u180e\\u2000-\\u200a\\u202f\\u205f\\u3000',
  v: '\\n\\x0b\\f\\r\\x85\\u2028\\u2029',
  alpha: '\\p{L}',
  lower: '\\p{Ll}',
  upper: '\\p{Lu}',
  alnum: '\\p{L}\\p{N}',
  ascii: '\\x00-\\x7f',
  blank: '\\t \\xa0\\u1680\\u180e\\u2000-\\u200a\\u202f\\u205f\\u3000',
  cntrl: '\\p{Cc}',
  digit: '\\p{Nd}',
  space: '\\p{Z}\\t\\n\\x0b\\f\\r\\x85\\u180e',
  word: '\\p{L}\\p{N}_',
  xdigit: '0-9A-Fa-f',
};

/** Properties whose meaning changes under JavaScript's case-insensitive matching. */
export function isCaseSensitiveRef(ref: ClassRef): boolean {
  return ['lower', 'upper', 'p:lu', 'p:ll', 'p:lt'].includes(ref.name);
}

/**
 * UTF mode: the JavaScript class body for a reference, and whether the reference is its
 * complement (which a JavaScript class cannot hold next to other items).
 */
export function refUnicode(ref: ClassRef): { body: string; complement: boolean } {
  let body = UNICODE_BODIES[ref.name];
  if (body === undefined) {
    if (!ref.name.startsWith('p:')) {
      throw new PcreError(`unsupported regular expression feature: [:${ref.name}:] with the u modifier`);
    }
    body = propertyClassBody(ref.name.slice(2));
  }
  if (ref.neg && /^\\p\{[^}]+\}$/.test(body)) return { body: '\\P' + body.slice(2), complement: false };
  return { body, complement: ref.neg };
}
