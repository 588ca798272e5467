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

/** php_sprintf_appendstring: `add` padded to the width; a '0' pad goes after the sign. */
function appendString(
  add: string,
  minWidth: number,
  maxWidth: number,
  padding: string,
  alignment: number,
  neg: boolean,
  expprec: boolean,
  alwaysSign: boolean,
): string {
  let copyLen = expprec ? Math.min(maxWidth, add.length) : add.length;
  let npad = minWidth < copyLen ? 0 : minWidth - copyLen;
  checkStringLength(Math.max(minWidth, copyLen), 'sprintf');
  // Nothing to pad, cut or sign (a '0' pad writes its sign over the first character: `+aN`).
  if (npad === 0 && copyLen === add.length && !((neg || alwaysSign) && padding === '0')) return add;
  let out = '';
  if (alignment === ALIGN_RIGHT) {
    if ((neg || alwaysSign) && padding === '0') {
      out += neg ? '-' : '+';
      add = add.slice(1);
      copyLen--;
    }
    if (npad > 0) out += padding.repeat(npad);
    npad = 0;
  }
  out += add.slice(0, copyLen);
  if (alignment === ALIGN_LEFT && npad > 0) out += padding.repeat(npad);
  return out;
}

function appendInt(arg: Value, s: Spec): string {
  // "Can't right-pad 0's on integers"
  const padding = s.alignment === ALIGN_LEFT && s.padding === '0' ? ' ' : s.padding;
  // A safe integer prints as itself; anything else goes through PHP's conversion to int64.
  const n = typeof arg === 'number' && Number.isSafeInteger(arg) ? arg : zvalGetLong(arg);
  const neg = n < 0;
  let digits = (neg ? -n : n).toString();
  if (neg) digits = '-' + digits;
  else if (s.alwaysSign) digits = '+' + digits;
  return appendString(digits, s.width, 0, padding, s.alignment, neg, false, s.alwaysSign);
}

function appendUint(n: bigint, s: Spec): string {
  const padding = s.alignment === ALIGN_LEFT && s.padding === '0' ? ' ' : s.padding;
  return appendString(BigInt.asUintN(64, n).toString(), s.width, 0, padding, s.alignment, false, false, false);
}

function append2n(n: bigint, s: Spec, radix: number, upper: boolean, expprec: boolean): string {
  let digits = BigInt.asUintN(64, n).toString(radix);
  if (upper) digits = digits.toUpperCase();
  return appendString(digits, s.width, 0, s.padding, s.alignment, false, expprec, false);
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

function appendDouble(x: number, s: Spec, fmt: string, notes: SprintfNotes): string {
  let precision = s.precision;
  if (!s.hasPrecision) {
    precision = FLOAT_PRECISION;
  } else if (precision > MAX_FLOAT_PRECISION) {
    notes.warn?.(
      `Requested precision of ${precision} digits was truncated to PHP maximum of ${MAX_FLOAT_PRECISION} digits`,
    );
    precision = MAX_FLOAT_PRECISION;
  }
  if (Number.isNaN(x)) return appendString('NaN', 3, 0, s.padding, s.alignment, false, false, s.alwaysSign);
  if (!Number.isFinite(x)) return appendString('INF', 3, 0, s.padding, s.alignment, x < 0, false, s.alwaysSign);
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
  return appendString(str, s.width, 0, s.padding, s.alignment, neg, false, s.alwaysSign);
}

export interface SprintfNotes {
  warn?: (message: string) => void;
}

const isDigit = (c: string) => c >= '0' && c <= '9';
const isAlpha = (c: string) => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');

/**
 * A format read once: its text, its conversions and where PHP would throw. PHP scans the format at
 * every call; a template calls the same one for every row, so the scan is kept per format and
 * argument count (a missing argument changes how the rest is read: PHP leaves its conversion
 * character unread).
 */
type Op =
  | { kind: 'text'; text: string }
  | {
      kind: 'conv';
      conv: string;
      arg: number;
      spec: Spec;
      expprec: boolean;
      /** A `*` width or precision: the argument it is read from, checked when the call runs. */
      widthArg: number;
      precisionArg: number;
    }
  | { kind: 'throw'; message: string };

interface Plan {
  ops: Op[];
  /** The largest argument number asked for and not given, -1 for none: PHP's error at the end. */
  maxMissing: number;
}

/** How many plans a runtime keeps; past it the cache starts again (templates use a few formats). */
const MAX_PLANS = 256;
/** A longer format is read at each call and not kept: the cache stays small whatever a template builds. */
const MAX_KEPT_FORMAT = 256;
/** By argument count, then format: no key string made per call. */
const plans = new Map<number, Map<string, Plan>>();
let kept = 0;

function planFor(format: string, argc: number): Plan {
  if (format.length > MAX_KEPT_FORMAT) return readFormat(toBinary(format), argc);
  let byFormat = plans.get(argc);
  let plan = byFormat?.get(format);
  if (plan) return plan;
  if (kept >= MAX_PLANS) {
    plans.clear();
    kept = 0;
    byFormat = undefined;
  }
  plan = readFormat(toBinary(format), argc);
  if (!byFormat) plans.set(argc, (byFormat = new Map()));
  // Counted before it is kept: a render cut between the two leaves the count high, never low.
  kept++;
  byFormat.set(format, plan);
  return plan;
}

/** php_formatted_print's scan of `f` (a binary string) for `argc` arguments, as a plan. */
function readFormat(f: string, argc: number): Plan {
  const n = f.length;
  const at = (i: number) => (i < n ? f[i] : '\0');
  const ops: Op[] = [];
  const stop = (message: string): Plan => {
    ops.push({ kind: 'throw', message });
    return { ops, maxMissing: -1 };
  };
  let i = 0;
  let currarg = 0;
  let maxMissing = -1;

  // php_sprintf_getnumber: digits as a C int; INT_MAX or more is an error (-1).
  const getNumber = (): number => {
    const start = i;
    while (isDigit(at(i))) i++;
    const v = Number(f.slice(start, i));
    return v >= INT_MAX ? -1 : v;
  };
  // "N$" positional argument, -1 for "next", or -2 for a bad one.
  const getArgnum = (): number => {
    let j = i;
    while (isDigit(at(j))) j++;
    if (at(j) !== '$') return -1;
    const num = getNumber();
    if (num <= 0) return -2;
    i++;
    return num - 1;
  };
  const BAD_ARGNUM = `Argument number specifier must be greater than zero and less than ${INT_MAX}`;

  while (i < n) {
    const pct = f.indexOf('%', i);
    if (pct < 0) {
      ops.push({ kind: 'text', text: f.slice(i) });
      break;
    }
    if (pct > i) ops.push({ kind: 'text', text: f.slice(i, pct) });
    i = pct + 1;
    if (at(i) === '%') {
      ops.push({ kind: 'text', text: '%' });
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
    let widthArg = -1;
    let precisionArg = -1;
    if (!isAlpha(at(i))) {
      argnum = getArgnum();
      if (argnum === -2) return stop(BAD_ARGNUM);
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
            return stop('Missing padding character');
          }
        } else break;
      }
      let skip = false;
      if (at(i) === '*') {
        i++;
        let wa = getArgnum();
        if (wa === -2) return stop(BAD_ARGNUM);
        if (wa === -1) wa = currarg++;
        if (wa >= argc) {
          maxMissing = Math.max(maxMissing, wa);
          skip = true;
        } else widthArg = wa;
      } else if (isDigit(at(i))) {
        spec.width = getNumber();
        if (spec.width < 0) return stop(`Width must be greater than zero and less than ${INT_MAX}`);
      }
      if (skip) continue;
      if (at(i) === '.') {
        i++;
        if (at(i) === '*') {
          i++;
          let pa = getArgnum();
          if (pa === -2) return stop(BAD_ARGNUM);
          if (pa === -1) pa = currarg++;
          if (pa >= argc) {
            maxMissing = Math.max(maxMissing, pa);
            continue;
          }
          precisionArg = pa;
          spec.hasPrecision = true;
          expprec = true;
        } else if (isDigit(at(i))) {
          spec.precision = getNumber();
          if (spec.precision < 0) return stop(`Precision must be greater than zero and less than ${INT_MAX}`);
          spec.hasPrecision = true;
          expprec = true;
        }
      }
    }
    if (at(i) === 'l') i++;
    if (argnum === -1) argnum = currarg++;
    if (argnum >= argc) {
      // PHP keeps scanning (without consuming the conversion character) to report the
      // largest missing argument number at the end; a `*` it read was checked all the same.
      maxMissing = Math.max(maxMissing, argnum);
      if (widthArg >= 0 || precisionArg >= 0)
        ops.push({ kind: 'conv', conv: '', arg: -1, spec, expprec, widthArg, precisionArg });
      continue;
    }
    const conv = at(i);
    if (!'sdueEfFgGhHcoxXb%'.includes(conv)) {
      // '\0' past the end is a missing specifier; an embedded NUL byte an unknown one
      if (conv === '\0' && i >= n) return stop('Missing format specifier at end of string');
      return stop(`Unknown format specifier "${conv}"`);
    }
    ops.push({ kind: 'conv', conv, arg: argnum, spec, expprec, widthArg, precisionArg });
    i++;
  }
  return { ops, maxMissing };
}

/** The `*` width or precision of a conversion, checked as PHP checks them when it reads them. */
function starSpec(op: Extract<Op, { kind: 'conv' }>, args: readonly Value[]): Spec {
  if (op.widthArg < 0 && op.precisionArg < 0) return op.spec;
  const spec = { ...op.spec };
  if (op.widthArg >= 0) {
    const w = args[op.widthArg];
    if (!isInt(w)) throw new PhpTypeError('Width must be an integer');
    if (typeof w !== 'number' || w < 0 || w > INT_MAX)
      throw new PhpTypeError(`Width must be greater than zero and less than ${INT_MAX}`);
    spec.width = w;
  }
  if (op.precisionArg >= 0) {
    const p = args[op.precisionArg];
    if (!isInt(p)) throw new PhpTypeError('Precision must be an integer');
    if (typeof p !== 'number' || p < -1 || p > INT_MAX)
      throw new PhpTypeError(`Precision must be between -1 and ${INT_MAX}`);
    spec.precision = p;
  }
  return spec;
}

/**
 * sprintf(format, ...args). Throws PhpTypeError where PHP 8 throws ValueError or
 * ArgumentCountError (too few arguments, unknown specifier, bad argnum).
 */
export function phpSprintf(format: string, args: readonly Value[], notes: SprintfNotes = {}): string {
  const plan = planFor(format, args.length);
  let out = '';
  for (const op of plan.ops) {
    if (op.kind === 'text') {
      out += op.text;
      continue;
    }
    if (op.kind === 'throw') throw new PhpTypeError(op.message);
    const spec = starSpec(op, args);
    if (op.arg < 0) continue;
    const conv = op.conv;
    if (op.expprec && spec.precision === -1 && !'gGhH'.includes(conv)) {
      throw new PhpTypeError('Precision -1 is only supported for %g, %G, %h and %H');
    }
    const arg = args[op.arg];
    switch (conv) {
      case 's':
        out += appendString(
          toBinary(zvalGetString(arg)),
          spec.width,
          spec.precision,
          spec.padding,
          spec.alignment,
          false,
          op.expprec,
          false,
        );
        break;
      case 'd':
        out += appendInt(arg, spec);
        break;
      case 'u':
        out += appendUint(zvalGetLong(arg), spec);
        break;
      case 'e':
      case 'E':
      case 'f':
      case 'F':
      case 'g':
      case 'G':
      case 'h':
      case 'H':
        out += appendDouble(zvalGetDouble(arg), spec, conv, notes);
        break;
      case 'c':
        out += String.fromCharCode(Number(BigInt.asUintN(8, zvalGetLong(arg))));
        break;
      case 'o':
        out += append2n(zvalGetLong(arg), spec, 8, false, op.expprec);
        break;
      case 'x':
        out += append2n(zvalGetLong(arg), spec, 16, false, op.expprec);
        break;
      case 'X':
        out += append2n(zvalGetLong(arg), spec, 16, true, op.expprec);
        break;
      case 'b':
        out += append2n(zvalGetLong(arg), spec, 2, false, op.expprec);
        break;
      default:
        // '%' after flags or a width (`%5%`)
        out += '%';
    }
  }
  if (plan.maxMissing >= 0) {
    throw new PhpTypeError(`${plan.maxMissing + 2} arguments are required, ${args.length + 1} given`);
  }
  return fromBinary(out);
}
