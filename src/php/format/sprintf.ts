/**
 * PHP 8.2 sprintf(), a port of ext/standard/formatted_print.c.
 *
 * PHP works on bytes: the format and the %s arguments are handled as "binary strings" (one
 * char per byte), so widths and precisions count bytes (`%8s` of '日本' adds two spaces)
 * and `%.2s` may cut a character in half (kept as stray bytes, see value/bytes.ts).
 */
import { type Value, isInt } from '../../value/value.js';
import { PhpTypeError } from '../../value/convert.js';
import { fromBinary, toBinary } from '../../value/bytes.js';
import { checkStringLength } from '../../value/limits.js';
import { zvalGetDouble, zvalGetLong, zvalGetString } from '../zval.js';
import { fixedDigits, shortestDigits, significantDigitsEven } from '../../value/exact-decimal.js';

const ALIGN_LEFT = 0;
const ALIGN_RIGHT = 1;
const FLOAT_PRECISION = 6;
const MAX_FLOAT_PRECISION = 53;
const INT_MAX = 2147483647;

interface Spec {
  width: number;
  precision: number;
  hasPrecision: boolean;
  padding: string;
  alignment: number;
  alwaysSign: boolean;
}

/** php_sprintf_appendstring: pads `add` to the width; a '0' pad goes after the sign. */
function appendString(
  out: string[],
  add: string,
  minWidth: number,
  maxWidth: number,
  padding: string,
  alignment: number,
  neg: boolean,
  expprec: boolean,
  alwaysSign: boolean,
): void {
  let copyLen = expprec ? Math.min(maxWidth, add.length) : add.length;
  let npad = minWidth < copyLen ? 0 : minWidth - copyLen;
  checkStringLength(Math.max(minWidth, copyLen), 'sprintf');
  if (alignment === ALIGN_RIGHT) {
    if ((neg || alwaysSign) && padding === '0') {
      out.push(neg ? '-' : '+');
      add = add.slice(1);
      copyLen--;
    }
    if (npad > 0) out.push(padding.repeat(npad));
    npad = 0;
  }
  out.push(add.slice(0, copyLen));
  if (alignment === ALIGN_LEFT && npad > 0) out.push(padding.repeat(npad));
}

function appendInt(out: string[], n: bigint, s: Spec): void {
  // "Can't right-pad 0's on integers"
  const padding = s.alignment === ALIGN_LEFT && s.padding === '0' ? ' ' : s.padding;
  const neg = n < 0n;
  let digits = (neg ? -n : n).toString();
  if (neg) digits = '-' + digits;
  else if (s.alwaysSign) digits = '+' + digits;
  appendString(out, digits, s.width, 0, padding, s.alignment, neg, false, s.alwaysSign);
}

function appendUint(out: string[], n: bigint, s: Spec): void {
  const padding = s.alignment === ALIGN_LEFT && s.padding === '0' ? ' ' : s.padding;
  appendString(out, BigInt.asUintN(64, n).toString(), s.width, 0, padding, s.alignment, false, false, false);
}

function append2n(out: string[], n: bigint, s: Spec, radix: number, upper: boolean, expprec: boolean): void {
  let digits = BigInt.asUintN(64, n).toString(radix);
  if (upper) digits = digits.toUpperCase();
  appendString(out, digits, s.width, 0, s.padding, s.alignment, false, expprec, false);
}

/** php_conv_fp for 'F': fixed notation with `precision` decimals. */
function convFixed(x: number, precision: number): string {
  const d = fixedDigits(x, precision);
  if (precision === 0) return d;
  return `${d.slice(0, d.length - precision)}.${d.slice(d.length - precision)}`;
}

/** php_conv_fp for 'e'/'E': d.ddddde+X, exponent without padding. */
function convExp(x: number, precision: number, e: string): string {
  let digits: string;
  let decpt: number;
  if (x === 0) {
    digits = '0';
    decpt = 1;
  } else {
    [digits, decpt] = significantDigitsEven(x, precision + 1);
  }
  digits = digits.padEnd(precision + 1, '0');
  let s = digits[0];
  if (precision > 0) s += '.' + digits.slice(1);
  const exp = decpt - 1;
  return `${s}${e}${exp < 0 ? '-' : '+'}${Math.abs(exp)}`;
}

/** zend_gcvt: %g/%G/%h/%H (and PHP's precision-14 echo, which uses 'E'). */
function gcvt(value: number, ndigit: number, expChar: string): string {
  const mode0 = ndigit < 0;
  if (mode0) ndigit = 17;
  const neg = value < 0 || Object.is(value, -0);
  const [digits, decpt0] =
    value === 0 ? ['0', 1] : mode0 ? shortestDigits(value) : significantDigitsEven(value, ndigit);
  let decpt = decpt0;
  let out = neg ? '-' : '';
  if (decpt < 0 ? decpt < -3 : decpt > ndigit) {
    decpt--;
    const expNeg = decpt < 0;
    out += digits[0] + '.' + (digits.length > 1 ? digits.slice(1) : '0');
    out += expChar + (expNeg ? '-' : '+') + String(Math.abs(decpt));
  } else if (decpt < 0) {
    out += '0.' + '0'.repeat(-decpt) + digits;
  } else {
    out +=
      digits.length <= decpt
        ? digits + '0'.repeat(decpt - digits.length)
        : digits.slice(0, decpt) + '.' + digits.slice(decpt);
    if (decpt === 0) out = (neg ? '-' : '') + '0' + out.slice(neg ? 1 : 0);
  }
  return out;
}

function appendDouble(out: string[], x: number, s: Spec, fmt: string, notes: SprintfNotes): void {
  let precision = s.precision;
  if (!s.hasPrecision) {
    precision = FLOAT_PRECISION;
  } else if (precision > MAX_FLOAT_PRECISION) {
    notes.warn?.(
      `Requested precision of ${precision} digits was truncated to PHP maximum of ${MAX_FLOAT_PRECISION} digits`,
    );
    precision = MAX_FLOAT_PRECISION;
  }
  if (Number.isNaN(x)) {
    appendString(out, 'NaN', 3, 0, s.padding, s.alignment, false, false, s.alwaysSign);
    return;
  }
  if (!Number.isFinite(x)) {
    appendString(out, 'INF', 3, 0, s.padding, s.alignment, x < 0, false, s.alwaysSign);
    return;
  }
  let str: string;
  let neg = false;
  switch (fmt) {
    case 'e':
    case 'E':
    case 'f':
    case 'F':
      neg = x < 0;
      str = fmt === 'f' || fmt === 'F' ? convFixed(x, precision) : convExp(x, precision, fmt);
      if (neg) str = '-' + str;
      else if (s.alwaysSign) str = '+' + str;
      break;
    default: {
      // g G h H
      if (precision === 0) precision = 1;
      str = gcvt(x, precision, fmt === 'G' || fmt === 'H' ? 'E' : 'e');
      if (str[0] === '-') neg = true;
      else if (s.alwaysSign) str = '+' + str;
    }
  }
  appendString(out, str, s.width, 0, s.padding, s.alignment, neg, false, s.alwaysSign);
}

export interface SprintfNotes {
  warn?: (message: string) => void;
}

const isDigit = (c: string) => c >= '0' && c <= '9';
const isAlpha = (c: string) => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');

/**
 * sprintf(format, ...args). Throws PhpTypeError where PHP 8 throws ValueError or
 * ArgumentCountError (too few arguments, unknown specifier, bad argnum).
 */
export function phpSprintf(format: string, args: readonly Value[], notes: SprintfNotes = {}): string {
  const f = toBinary(format);
  const n = f.length;
  const at = (i: number) => (i < n ? f[i] : '\0');
  const out: string[] = [];
  let i = 0;
  let currarg = 0;
  let maxMissing = -1;
  const argc = args.length;

  // php_sprintf_getnumber: digits as a C int; INT_MAX or more is an error (-1).
  const getNumber = (): number => {
    const start = i;
    while (isDigit(at(i))) i++;
    const v = Number(f.slice(start, i));
    return v >= INT_MAX ? -1 : v;
  };
  // "N$" positional argument, or -1 for "next".
  const getArgnum = (): number => {
    let j = i;
    while (isDigit(at(j))) j++;
    if (at(j) !== '$') return -1;
    const num = getNumber();
    if (num <= 0)
      throw new PhpTypeError(`Argument number specifier must be greater than zero and less than ${INT_MAX}`);
    i++;
    return num - 1;
  };

  while (i < n) {
    const pct = f.indexOf('%', i);
    if (pct < 0) {
      out.push(f.slice(i));
      break;
    }
    if (pct > i) out.push(f.slice(i, pct));
    i = pct + 1;
    if (at(i) === '%') {
      out.push('%');
      i++;
      continue;
    }
    const spec: Spec = {
      width: 0,
      precision: 0,
      hasPrecision: false,
      padding: ' ',
      alignment: ALIGN_RIGHT,
      alwaysSign: false,
    };
    let expprec = false;
    let argnum = -1;
    if (!isAlpha(at(i))) {
      argnum = getArgnum();
      for (; ; i++) {
        const c = at(i);
        if (c === ' ' || c === '0') spec.padding = c;
        else if (c === '-') spec.alignment = ALIGN_LEFT;
        else if (c === '+') spec.alwaysSign = true;
        else if (c === "'") {
          if (n - i > 1) {
            i++;
            spec.padding = at(i);
          } else {
            throw new PhpTypeError('Missing padding character');
          }
        } else break;
      }
      let skip = false;
      if (at(i) === '*') {
        i++;
        let wa = getArgnum();
        if (wa === -1) wa = currarg++;
        if (wa >= argc) {
          maxMissing = Math.max(maxMissing, wa);
          skip = true;
        } else {
          const w = args[wa];
          if (!isInt(w)) throw new PhpTypeError('Width must be an integer');
          if (typeof w !== 'number' || w < 0 || w > INT_MAX)
            throw new PhpTypeError(`Width must be greater than zero and less than ${INT_MAX}`);
          spec.width = w;
        }
      } else if (isDigit(at(i))) {
        spec.width = getNumber();
        if (spec.width < 0) throw new PhpTypeError(`Width must be greater than zero and less than ${INT_MAX}`);
      }
      if (skip) continue;
      if (at(i) === '.') {
        i++;
        if (at(i) === '*') {
          i++;
          let pa = getArgnum();
          if (pa === -1) pa = currarg++;
          if (pa >= argc) {
            maxMissing = Math.max(maxMissing, pa);
            continue;
          }
          const p = args[pa];
          if (!isInt(p)) throw new PhpTypeError('Precision must be an integer');
          if (typeof p !== 'number' || p < -1 || p > INT_MAX)
            throw new PhpTypeError(`Precision must be between -1 and ${INT_MAX}`);
          spec.precision = p;
          spec.hasPrecision = true;
          expprec = true;
        } else if (isDigit(at(i))) {
          spec.precision = getNumber();
          if (spec.precision < 0)
            throw new PhpTypeError(`Precision must be greater than zero and less than ${INT_MAX}`);
          spec.hasPrecision = true;
          expprec = true;
        }
      }
    }
    if (at(i) === 'l') i++;
    if (argnum === -1) argnum = currarg++;
    if (argnum >= argc) {
      // PHP keeps scanning (without consuming the conversion character) to report the
      // largest missing argument number at the end.
      maxMissing = Math.max(maxMissing, argnum);
      continue;
    }
    const conv = at(i);
    if (expprec && spec.precision === -1 && !'gGhH'.includes(conv)) {
      throw new PhpTypeError('Precision -1 is only supported for %g, %G, %h and %H');
    }
    const arg = args[argnum];
    switch (conv) {
      case 's':
        appendString(
          out,
          toBinary(zvalGetString(arg)),
          spec.width,
          spec.precision,
          spec.padding,
          spec.alignment,
          false,
          expprec,
          false,
        );
        break;
      case 'd':
        appendInt(out, zvalGetLong(arg), spec);
        break;
      case 'u':
        appendUint(out, zvalGetLong(arg), spec);
        break;
      case 'e':
      case 'E':
      case 'f':
      case 'F':
      case 'g':
      case 'G':
      case 'h':
      case 'H':
        appendDouble(out, zvalGetDouble(arg), spec, conv, notes);
        break;
      case 'c':
        out.push(String.fromCharCode(Number(BigInt.asUintN(8, zvalGetLong(arg)))));
        break;
      case 'o':
        append2n(out, zvalGetLong(arg), spec, 8, false, expprec);
        break;
      case 'x':
        append2n(out, zvalGetLong(arg), spec, 16, false, expprec);
        break;
      case 'X':
        append2n(out, zvalGetLong(arg), spec, 16, true, expprec);
        break;
      case 'b':
        append2n(out, zvalGetLong(arg), spec, 2, false, expprec);
        break;
      case '%':
        out.push('%');
        break;
      default:
        // '\0' past the end is a missing specifier; an embedded NUL byte an unknown one
        if (conv === '\0' && i >= n) throw new PhpTypeError('Missing format specifier at end of string');
        throw new PhpTypeError(`Unknown format specifier "${conv}"`);
    }
    i++;
  }
  if (maxMissing >= 0) {
    throw new PhpTypeError(`${maxMissing + 2} arguments are required, ${argc + 1} given`);
  }
  return fromBinary(out.join(''));
}
