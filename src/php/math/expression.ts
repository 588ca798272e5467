/**
 * The arithmetic of Smarty 2's {math}. Smarty 2 checks the equation (balanced parentheses, no
 * ` or $, every name a passed variable or one of its functions), puts the variables' values in
 * place of their names and hands the text to PHP's eval(). Here the same checks run, the text is
 * parsed as the PHP expression it would be (never evaluated as code) and computed with PHP 8's
 * operator rules: numeric-string variables stay strings until an operator converts them, as
 * PHP's `$params['x']` does ("1e3" alone prints 1e3, "1e3" + 0 is a float).
 */
import { type PhpNumber, type Value, float, isInt, num } from '../../value/value.js';
import { bigOf, fitsInt64, intInRange, intOf, intOfDecimal } from '../../value/int64.js';
import { add, sub, mul, div, mod, neg, bitAnd, bitOr, bitXor, shl, shr, bitNot } from '../../value/arith.js';
import { isNumeric, toBool, toFloatLoose, toInt64, toNumber, toStr } from '../../value/convert.js';
import { compare, ge, gt, le, looseEq, lt, strictEq } from '../../value/compare.js';
import { fromBytes, toBytes } from '../../value/bytes.js';
import { MAX_ARRAY_LENGTH, checkArrayLength } from '../../value/limits.js';
import { literalPattern } from '../../value/replace-each.js';
import { phpAbs, phpCeil, phpFloor, phpRound } from '../format/round.js';

/** An equation Smarty 2 refuses (its warnings) or PHP cannot parse or run (a fatal error there). */
class MathError extends Error {
  readonly code = 'E_BAD_ATTRIBUTE';
}

/**
 * An equation nested deeper than MAX_MATH_DEPTH (parentheses, signs and calls while parsing,
 * the height of the tree while computing it). Both recursions overflowed the isolate's stack
 * on a long equation, a RangeError whose stack named no template line; this is an error with a
 * code instead: the template asked for something the sandbox refuses.
 */
class MathDepthError extends Error {
  readonly code = 'E_NESTING_TOO_DEEP';
}

const MAX_MATH_DEPTH = 200;

const tooDeep = (): never => {
  throw new MathDepthError(`{math}: the equation nests more than ${MAX_MATH_DEPTH} levels deep`);
};

type Node =
  | { t: 'num'; v: Value }
  | { t: 'var'; index: number }
  | { t: 'bin'; op: string; l: Node; r: Node; h: number }
  | { t: 'un'; op: string; arg: Node; h: number }
  | { t: 'call'; name: string; args: Node[]; h: number }
  | { t: 'if'; cond: Node; then: Node | null; else: Node; h: number }
  | { t: 'assign'; index: number; op: string; r: Node; h: number }
  | { t: 'step'; index: number; op: string; prefix: boolean; h: number }
  | { t: 'seq'; first: Node; rest: Node[]; h: number };

/** Smarty 2's list; `int` is on it but is no PHP function (only the `(int)` cast gets past PHP). */
const ALLOWED = new Set([
  'int',
  'abs',
  'ceil',
  'cos',
  'exp',
  'floor',
  'log',
  'log10',
  'max',
  'min',
  'pi',
  'pow',
  'rand',
  'round',
  'sin',
  'sqrt',
  'srand',
  'tan',
]);

/** How many arguments PHP takes (more or fewer is an ArgumentCountError, a fatal error there). */
const ARITY: Record<string, [number, number]> = {
  abs: [1, 1],
  ceil: [1, 1],
  floor: [1, 1],
  cos: [1, 1],
  sin: [1, 1],
  tan: [1, 1],
  exp: [1, 1],
  log: [1, 2],
  log10: [1, 1],
  sqrt: [1, 1],
  pi: [0, 0],
  pow: [2, 2],
  round: [1, 2],
  srand: [0, 2],
  // max(x) wants an array, and {math} has none
  max: [2, Infinity],
  min: [2, Infinity],
};

const FUNCTIONS: Record<string, (args: Value[], random: () => number) => Value> = {
  abs: ([x]) => phpAbs(x),
  ceil: ([x]) => phpCeil(x),
  floor: ([x]) => phpFloor(x),
  cos: ([x]) => float(Math.cos(toFloatLoose(x))),
  sin: ([x]) => float(Math.sin(toFloatLoose(x))),
  tan: ([x]) => float(Math.tan(toFloatLoose(x))),
  exp: ([x]) => float(Math.exp(toFloatLoose(x))),
  log: ([x, b]) =>
    float(b === undefined ? Math.log(toFloatLoose(x)) : Math.log(toFloatLoose(x)) / Math.log(toFloatLoose(b))),
  log10: ([x]) => float(Math.log10(toFloatLoose(x))),
  sqrt: ([x]) => float(Math.sqrt(toFloatLoose(x))),
  pi: () => float(Math.PI),
  pow: ([x, y]) => power(x, y),
  // PHP's max()/min() compare with PHP 8's rules and return the argument itself ("1e1" stays a string).
  max: (args) => args.reduce((a, b) => (compare(b, a) > 0 ? b : a)),
  min: (args) => args.reduce((a, b) => (compare(b, a) < 0 ? b : a)),
  round: ([x, p]) => phpRound(x ?? 0, p ?? 0),
  rand: ([lo, hi], random) =>
    intInRange(lo === undefined ? 0 : toInt64(lo), hi === undefined ? 2147483647 : toInt64(hi), random()),
  srand: () => null,
};

/**
 * `**` and pow(): int ** non-negative int is an int while it fits in 64 bits, computed as PHP's
 * pow_function_base does (squaring, and at the first product that overflows the float it
 * continues with), so an overflowing power is PHP's float to the last bit.
 */
function power(a: Value, b: Value): PhpNumber {
  const x = toNumber(a, '**');
  const y = toNumber(b, '**');
  if (!isInt(x) || !isInt(y) || y < 0) return float(Math.pow(num(x), num(y)));
  let i = bigOf(y);
  let l1 = 1n;
  let l2 = bigOf(x);
  if (i === 0n) return 1;
  if (l2 === 0n) return 0;
  while (i >= 1n) {
    if (i % 2n) {
      --i;
      const p = l1 * l2;
      if (!fitsInt64(p)) return float(Number(l1) * Number(l2) * Math.pow(Number(l2), Number(i)));
      l1 = p;
    } else {
      i /= 2n;
      const p = l2 * l2;
      if (!fitsInt64(p)) return float(Number(l1) * Math.pow(Number(l2) * Number(l2), Number(i)));
      l2 = p;
    }
  }
  return intOf(l1);
}

/**
 * `&`, `|`, `^` and `~` on strings work byte by byte in PHP (both sides strings for the binary
 * ones): `&` and `^` stop at the shorter string, `|` keeps the rest of the longer one.
 */
function bytewise(a: string, b: string, f: (x: number, y: number) => number, longest = false): string {
  const x = toBytes(a);
  const y = toBytes(b);
  const n = Math.min(x.length, y.length);
  const out = new Uint8Array(longest ? Math.max(x.length, y.length) : n);
  out.set((x.length > y.length ? x : y).subarray(n, out.length), n);
  for (let i = 0; i < n; i++) out[i] = f(x[i], y[i]) & 0xff;
  return fromBytes(out);
}

const BINARY: Record<string, (a: Value, b: Value) => Value> = {
  '**': power,
  '*': mul,
  '/': div,
  '%': mod,
  '+': add,
  '-': sub,
  '<<': shl,
  '>>': shr,
  '<': lt,
  '<=': le,
  '>': gt,
  '>=': ge,
  '==': looseEq,
  '!=': (a, b) => !looseEq(a, b),
  '<>': (a, b) => !looseEq(a, b),
  '===': strictEq,
  '!==': (a, b) => !strictEq(a, b),
  '<=>': (a, b) => compare(a, b),
  '&': (a, b) => (typeof a === 'string' && typeof b === 'string' ? bytewise(a, b, (x, y) => x & y) : bitAnd(a, b)),
  '^': (a, b) => (typeof a === 'string' && typeof b === 'string' ? bytewise(a, b, (x, y) => x ^ y) : bitXor(a, b)),
  '|': (a, b) => (typeof a === 'string' && typeof b === 'string' ? bytewise(a, b, (x, y) => x | y, true) : bitOr(a, b)),
  '.': (a, b) => toStr(a) + toStr(b),
  '&&': (a, b) => toBool(a) && toBool(b),
  '||': (a, b) => toBool(a) || toBool(b),
};

/** PHP 8's binary operators from the loosest to the tightest (`**` is handled with the unary ones). */
const LEVELS: readonly (readonly string[])[] = [
  ['||'],
  ['&&'],
  ['|'],
  ['^'],
  ['&'],
  ['==', '!=', '<>', '===', '!==', '<=>'],
  ['<', '<=', '>', '>='],
  ['.'],
  ['<<', '>>'],
  ['+', '-'],
  ['*', '/', '%'],
];
/** Comparisons do not chain in PHP (`1 < 2 < 3` is a parse error). */
const NON_ASSOCIATIVE = new Set(LEVELS.filter((ops) => ops.includes('==') || ops.includes('<')));

const ASSIGN = new Set(['=', '**=', '<<=', '>>=', '??=', '+=', '-=', '*=', '/=', '.=', '%=', '&=', '|=', '^=']);

const UNARY: Record<string, (a: Value) => Value> = {
  '-': neg,
  '+': (a) => toNumber(a, '+'),
  '!': (a) => !toBool(a),
  '~': (a) => (typeof a === 'string' ? fromBytes(toBytes(a).map((x) => ~x & 0xff)) : bitNot(a)),
  '(int)': (a) => toInt64(a),
};

export interface Equation {
  tree: Node;
  /** The variables in the order the equation refers to them by index. */
  names: string[];
}

const IDENTIFIER = /(?:0x[a-fA-F0-9]+)|([a-zA-Z_\x7f-\uffff][a-zA-Z0-9_\x7f-\uffff]*)/g;

/**
 * Smarty 2's checks before eval(), in its order, then the equation with each variable's name
 * replaced where `\bname\b` matches (Smarty's replacement: `2e3` keeps its `e3`).
 */
export function checkEquation(equation: string, params: Record<string, Value>): Equation {
  if (equation === '' || equation === '0') throw new MathError('math: missing equation parameter');
  if (count(equation, '(') !== count(equation, ')')) throw new MathError('math: unbalanced parenthesis');
  if (equation.includes('`')) throw new MathError('math: backtick character not allowed in equation');
  if (equation.includes('$')) throw new MathError('math: dollar signs not allowed in equation');
  const names = Object.keys(params);
  for (const k of names) {
    const v = params[k];
    if (v === null || v === undefined || v === false || v === '')
      throw new MathError(`math: parameter '${k}' is empty`);
    if (!isNumeric(v)) throw new MathError(`math: parameter '${k}' is not numeric`);
  }
  // What follows depends on the equation and the names only: a `{math}` in a loop reads it once.
  // A long one is read at each call and not kept: the cache stays small whatever a template builds.
  if (equation.length > MAX_KEPT_EQUATION || names.length > 64) return readEquation(equation, names);
  const key = names.join('\0') + '\0\0' + equation;
  let read = equations.get(key);
  if (read === undefined) {
    try {
      read = readEquation(equation, names);
    } catch (e) {
      if (!(e instanceof MathError)) throw e;
      read = e.message;
    }
    if (equations.size >= MAX_EQUATIONS) equations.clear();
    // Set once, whole: a render cut in the middle leaves no half-made entry (D140).
    equations.set(key, read);
  }
  if (typeof read === 'string') throw new MathError(read);
  return read;
}

/** Equations read, by their names and text: the tree, or the message Smarty or PHP refuses it with. */
const equations = new Map<string, Equation | string>();
const MAX_EQUATIONS = 256;
const MAX_KEPT_EQUATION = 1024;

function readEquation(equation: string, names: string[]): Equation {
  const known = new Set(names);
  IDENTIFIER.lastIndex = 0;
  for (let m = IDENTIFIER.exec(equation); m !== null; m = IDENTIFIER.exec(equation)) {
    const name = m[1];
    if (name && !known.has(name) && !ALLOWED.has(name) && !['equation', 'format', 'assign'].includes(name)) {
      throw new MathError(`math: function call '${name}' not allowed, or missing parameter '${name}'`);
    }
  }
  if (names.length > 0x1800) throw new MathError('math: too many parameters');
  let text = equation;
  names.forEach((k, i) => {
    // a marker no later name can match inside (private-use characters are not word characters)
    text = text.replace(new RegExp(`\\b${literalPattern(k)}\\b`, 'g'), ` ${String.fromCharCode(0xe000 + i)} `);
  });
  return { tree: parseEquation(text), names };
}

function count(s: string, c: string): number {
  let n = 0;
  for (let i = s.indexOf(c); i !== -1; i = s.indexOf(c, i + 1)) n++;
  return n;
}

const TOKEN =
  /'(?:[^'\\]|\\[\s\S])*'|"(?:[^"\\]|\\[\s\S])*"|\*\*=|<<=|>>=|\?\?=|[-+*/.%&|^]=(?!=)|\+\+|--|0[xX][0-9a-fA-F]+|(?:\d+\.\d*|\.\d+|\d+)(?:[eE][+-]?\d+)?|[A-Za-z_\x7f-\udfff][\w\x7f-\udfff]*|[\ue000-\uf7ff]|\(\s*int\s*\)|\*\*|<<|>>|<=>|===|!==|==|!=|<>|<=|>=|&&|\|\||\?\?|\S/g;

/** A PHP string literal: '...' knows \\ and \', "..." also \" and octal escapes (the others need letters, which Smarty refuses). */
function stringLiteral(t: string): Value {
  // a variable's name inside quotes was replaced by Smarty's `$params['x']`, a parse error there
  if (/[\ue000-\uf7ff]/.test(t)) throw new MathError('math: syntax error, a variable inside a string');
  const body = t.slice(1, -1);
  if (t[0] === "'") return body.replace(/\\([\\'])/g, '$1');
  return body.replace(/\\([\\"$]|[0-7]{1,3})/g, (_, e: string) =>
    /^[0-7]/.test(e) ? String.fromCharCode(Number.parseInt(e, 8) & 0xff) : e,
  );
}

function literal(t: string): Value {
  if (/^0[xX]/.test(t)) return intLiteral(t.slice(2), 16);
  if (/[.eE]/.test(t)) return float(Number(t));
  if (/^0\d/.test(t)) {
    if (/[89]/.test(t)) throw new MathError(`math: invalid numeric literal ${t}`);
    return intLiteral(t.slice(1), 8);
  }
  return intOfDecimal(t) ?? float(Number(t));
}

/** Hex and octal digits of an integer literal: an int, or past PHP_INT_MAX a float. */
function intLiteral(digits: string, radix: 8 | 16): Value {
  const significant = digits.replace(/^0+/, '');
  // 16 hex or 22 octal digits hold 64 bits: a longer literal is a float without asking BigInt.
  if (significant.length <= (radix === 16 ? 16 : 22)) {
    const b = significant === '' ? 0n : BigInt((radix === 16 ? '0x' : '0o') + significant);
    if (fitsInt64(b)) return intOf(b);
  }
  return float(Number.parseInt(digits, radix));
}

export function parseEquation(src: string): Node {
  // tokens collected in a loop, against the array limit: src.match(/.../g) on a template's
  // 16M-character equation is one native call building up to 16M strings
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(src); m !== null; m = TOKEN.exec(src)) {
    tokens.push(m[0].startsWith('(') && m[0].length > 1 ? '(int)' : m[0]);
    if (tokens.length > MAX_ARRAY_LENGTH) checkArrayLength(tokens.length, 'math');
  }
  let i = 0;
  let nesting = 0;
  const peek = () => tokens[i];
  // The height of the tree is what evaluate() recurses through: a chain `x+x+...` folds to the
  // left and is as high as it is long.
  const above = (children: readonly Node[]): number => {
    let h = 0;
    for (const c of children) h = Math.max(h, height(c));
    if (h + 1 > MAX_MATH_DEPTH) tooDeep();
    return h + 1;
  };
  const syntax = (t: string | undefined): never => {
    throw new MathError(
      t === undefined
        ? 'math: syntax error, the equation ends too early'
        : `math: syntax error, unexpected "${t}" in the equation`,
    );
  };
  const expect = (t: string) => {
    if (tokens[i] !== t) syntax(tokens[i]);
    i++;
  };
  const binary = (level: number): Node => {
    if (level === LEVELS.length) return unary();
    let l = binary(level + 1);
    let chained = false;
    while (peek() !== undefined && LEVELS[level].includes(peek())) {
      if (chained && NON_ASSOCIATIVE.has(LEVELS[level])) syntax(peek());
      const op = tokens[i++];
      const r = binary(level + 1);
      l = { t: 'bin', op, l, r, h: above([l, r]) };
      chained = true;
    }
    return l;
  };
  const coalesce = (): Node => {
    const l = binary(0);
    if (peek() !== '??') return l;
    i++;
    const r = coalesce();
    return { t: 'bin', op: '??', l, r, h: above([l, r]) };
  };
  const expression = (): Node => {
    let c = coalesce();
    let short: boolean | null = null;
    while (peek() === '?') {
      i++;
      const then = peek() === ':' ? null : expression();
      expect(':');
      // PHP 8 chains only `?:` without parentheses
      if (short !== null && !(short && then === null)) syntax('?');
      short = then === null;
      const other = coalesce();
      c = { t: 'if', cond: c, then, else: other, h: above(then ? [c, then, other] : [c, other]) };
    }
    return c;
  };
  const variable = (t: string | undefined): number => {
    if (t === undefined || !/^[\ue000-\uf7ff]$/.test(t)) return syntax(t);
    return t.charCodeAt(0) - 0xe000;
  };
  const unary = (): Node => {
    if (++nesting > MAX_MATH_DEPTH) tooDeep();
    const n = unaryAt();
    nesting--;
    return n;
  };
  const unaryAt = (): Node => {
    const t = peek();
    if (t === '++' || t === '--') {
      i++;
      return { t: 'step', index: variable(tokens[i++]), op: t, prefix: true, h: 1 };
    }
    if (t !== undefined && t in UNARY) {
      i++;
      const arg = unary();
      return { t: 'un', op: t, arg, h: above([arg]) };
    }
    const base = primary();
    if (peek() === '**') {
      // right-associative and tighter than the signs: -2 ** 2 is -4
      i++;
      const r = unary();
      return { t: 'bin', op: '**', l: base, r, h: above([base, r]) };
    }
    return base;
  };
  const primary = (): Node => {
    const t = tokens[i++];
    if (t === undefined) return syntax(t);
    if (t === '(') {
      const e = expression();
      expect(')');
      return e;
    }
    if (/^[\ue000-\uf7ff]$/.test(t)) {
      const index = variable(t);
      const next = peek();
      if (next === '++' || next === '--') {
        i++;
        return { t: 'step', index, op: next, prefix: false, h: 1 };
      }
      if (next !== undefined && ASSIGN.has(next)) {
        i++;
        const r = expression();
        return { t: 'assign', index, op: next, r, h: above([r]) };
      }
      return { t: 'var', index };
    }
    if (t[0] === "'" || t[0] === '"') return { t: 'num', v: stringLiteral(t) };
    if (/^(\d|\.\d)/.test(t)) return { t: 'num', v: literal(t) };
    if (/^[A-Za-z_\x7f-\udfff]/.test(t)) {
      if (peek() !== '(') throw new MathError(`math: undefined constant "${t}"`);
      if (!(t in FUNCTIONS)) throw new MathError(`math: call to undefined function ${t}()`);
      i++;
      const args: Node[] = [];
      if (peek() !== ')') {
        args.push(expression());
        while (peek() === ',') {
          i++;
          args.push(expression());
        }
      }
      expect(')');
      const [least, most] = ARITY[t] ?? [0, 2];
      // rand() takes no bounds or both
      if (args.length < least || args.length > most || (t === 'rand' && args.length === 1))
        throw new MathError(
          `math: ${t}() takes ${least === most ? least : `${least} to ${most}`} arguments, ${args.length} given`,
        );
      return { t: 'call', name: t, args, h: above(args) };
    }
    return syntax(t);
  };
  // eval() runs `$result = EQUATION;`: a `;` ends the expression and what follows are statements
  const first = expression();
  const rest: Node[] = [];
  while (i < tokens.length) {
    expect(';');
    if (i < tokens.length && peek() !== ';') rest.push(expression());
  }
  return rest.length ? { t: 'seq', first, rest, h: above([first, ...rest]) } : first;
}

function height(n: Node): number {
  return n.t === 'num' || n.t === 'var' ? 0 : n.h;
}

/** `$params['x']` is a variable: `=`, `+=`, `++` change it for the rest of the equation. */
export function evaluate(node: Node, values: Value[], random: () => number): Value {
  switch (node.t) {
    case 'num':
      return node.v;
    case 'var':
      return values[node.index];
    case 'if': {
      const c = evaluate(node.cond, values, random);
      if (toBool(c)) return node.then ? evaluate(node.then, values, random) : c;
      return evaluate(node.else, values, random);
    }
    case 'assign': {
      if (node.op === '??=') {
        const v = values[node.index];
        if (v !== null && v !== undefined) return v;
      }
      const r = evaluate(node.r, values, random);
      const op = node.op.slice(0, -1);
      values[node.index] = op === '' || op === '??' ? r : BINARY[op](values[node.index], r);
      return values[node.index];
    }
    case 'step': {
      const old = values[node.index];
      // PHP: null++ is 1, null-- stays null, booleans do not change
      const next =
        typeof old === 'boolean' || (old == null && node.op === '--')
          ? old
          : node.op === '++'
            ? add(old, 1)
            : sub(old, 1);
      values[node.index] = next;
      return node.prefix ? next : old;
    }
    case 'seq': {
      const r = evaluate(node.first, values, random);
      for (const n of node.rest) evaluate(n, values, random);
      return r;
    }
    case 'un':
      return UNARY[node.op](evaluate(node.arg, values, random));
    case 'bin': {
      if (node.op === '??') {
        const l = evaluate(node.l, values, random);
        return l === null || l === undefined ? evaluate(node.r, values, random) : l;
      }
      if (node.op === '&&' || node.op === '||') {
        const l = toBool(evaluate(node.l, values, random));
        if (node.op === '&&' ? !l : l) return l;
        return toBool(evaluate(node.r, values, random));
      }
      return BINARY[node.op](evaluate(node.l, values, random), evaluate(node.r, values, random));
    }
    case 'call':
      return FUNCTIONS[node.name](
        node.args.map((a) => evaluate(a, values, random)),
        random,
      );
  }
}
