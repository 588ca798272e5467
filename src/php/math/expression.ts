/**
 * The arithmetic of Smarty 2's {math}: the equation is PHP code restricted to numbers, the
 * passed variables, + - * / % and parentheses, and a short list of math functions. It is
 * parsed here (never evaluated as code) and computed with PHP's operator rules.
 */
import { type Value, float } from '../../runtime/value.js';
import { add, sub, mul, div, mod, neg } from '../../runtime/arith.js';
import { toFloatLoose } from '../../runtime/convert.js';
import { MAX_ARRAY_LENGTH, checkArrayLength } from '../../runtime/limits.js';
import { phpAbs, phpCeil, phpFloor, phpRound } from '../format/round.js';

export class MathError extends Error {}

/**
 * An equation nested deeper than MAX_MATH_DEPTH (parentheses, signs and calls while parsing,
 * the height of the tree while computing it). Both recursions overflowed the isolate's stack
 * on a long equation, a RangeError whose stack named no template line; this is an error with a
 * code instead, not a {math} warning: the template asked for something the sandbox refuses.
 */
export class MathDepthError extends Error {
  readonly code = 'E_NESTING_TOO_DEEP';
}

export const MAX_MATH_DEPTH = 200;

const tooDeep = (): never => {
  throw new MathDepthError(`{math}: the equation nests more than ${MAX_MATH_DEPTH} levels deep`);
};

type Node =
  | { t: 'num'; v: Value }
  | { t: 'var'; name: string }
  | { t: 'bin'; op: string; l: Node; r: Node; h: number }
  | { t: 'neg'; arg: Node; h: number }
  | { t: 'call'; name: string; args: Node[]; h: number };

/** Smarty 2's list; `int` is listed there but is not a PHP function (a fatal error in PHP). */
const FUNCTIONS: Record<string, (args: Value[], random: () => number) => Value> = {
  abs: ([x]) => phpAbs(x),
  ceil: ([x]) => phpCeil(x),
  floor: ([x]) => phpFloor(x),
  cos: ([x]) => float(Math.cos(toFloatLoose(x))),
  sin: ([x]) => float(Math.sin(toFloatLoose(x))),
  tan: ([x]) => float(Math.tan(toFloatLoose(x))),
  exp: ([x]) => float(Math.exp(toFloatLoose(x))),
  log: ([x, b]) => float(b === undefined ? Math.log(toFloatLoose(x)) : Math.log(toFloatLoose(x)) / Math.log(toFloatLoose(b))),
  log10: ([x]) => float(Math.log10(toFloatLoose(x))),
  sqrt: ([x]) => float(Math.sqrt(toFloatLoose(x))),
  pi: () => float(Math.PI),
  pow: ([x, y]) => {
    const r = Math.pow(toFloatLoose(x), toFloatLoose(y));
    const ints = [x, y].every((v) => typeof v === 'number' && Number.isInteger(v)) && toFloatLoose(y) >= 0;
    return ints && Math.abs(r) < 2 ** 63 ? r : float(r);
  },
  max: (args) => args.reduce((a, b) => (toFloatLoose(b) > toFloatLoose(a) ? b : a)),
  min: (args) => args.reduce((a, b) => (toFloatLoose(b) < toFloatLoose(a) ? b : a)),
  round: ([x, p]) => phpRound(x ?? 0, p ?? 0),
  rand: ([lo, hi], random) => {
    const a = lo === undefined ? 0 : Math.trunc(toFloatLoose(lo));
    const b = hi === undefined ? 2147483647 : Math.trunc(toFloatLoose(hi));
    return a + Math.floor(random() * (b - a + 1));
  },
  srand: () => null,
};

export function mathFunctionNames(): string[] {
  return [...Object.keys(FUNCTIONS), 'int'];
}

export function parseEquation(src: string): Node {
  // tokens collected in a loop, against the array limit: src.match(/.../g) on a template's
  // 16M-character equation is one native call building up to 16M strings
  const tokens: string[] = [];
  const token = /\d+\.\d*|\.\d+|\d+|[A-Za-z_]\w*|\S/g;
  for (let m = token.exec(src); m !== null; m = token.exec(src)) {
    tokens.push(m[0]);
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
  const bin = (op: string, l: Node, r: Node): Node => ({ t: 'bin', op, l, r, h: above([l, r]) });
  const expect = (t: string) => {
    if (tokens[i] !== t) throw new MathError(`expected "${t}" in the equation`);
    i++;
  };
  const primary = (): Node => {
    if (++nesting > MAX_MATH_DEPTH) tooDeep();
    const n = primaryAt();
    nesting--;
    return n;
  };
  const primaryAt = (): Node => {
    const t = tokens[i++];
    if (t === undefined) throw new MathError('the equation ends too early');
    if (t === '(') {
      const e = additive();
      expect(')');
      return e;
    }
    if (t === '-') {
      const arg = primary();
      return { t: 'neg', arg, h: above([arg]) };
    }
    if (t === '+') return primary();
    if (/^(\d|\.\d)/.test(t)) return { t: 'num', v: t.includes('.') ? float(Number(t)) : Number(t) };
    if (/^[A-Za-z_]/.test(t)) {
      if (peek() === '(') {
        i++;
        const args: Node[] = [];
        if (peek() !== ')') {
          args.push(additive());
          while (peek() === ',') {
            i++;
            args.push(additive());
          }
        }
        expect(')');
        return { t: 'call', name: t, args, h: above(args) };
      }
      return { t: 'var', name: t };
    }
    throw new MathError(`unexpected "${t}" in the equation`);
  };
  const multiplicative = (): Node => {
    let l = primary();
    while (peek() === '*' || peek() === '/' || peek() === '%') {
      const op = tokens[i++];
      l = bin(op, l, primary());
    }
    return l;
  };
  const additive = (): Node => {
    let l = multiplicative();
    while (peek() === '+' || peek() === '-') {
      const op = tokens[i++];
      l = bin(op, l, multiplicative());
    }
    return l;
  };
  const tree = additive();
  if (i < tokens.length) throw new MathError(`unexpected "${tokens[i]}" in the equation`);
  return tree;
}

function height(n: Node): number {
  return n.t === 'num' || n.t === 'var' ? 0 : n.h;
}

const OPS: Record<string, (a: Value, b: Value) => Value> = { '+': add, '-': sub, '*': mul, '/': div, '%': mod };

export function evaluate(node: Node, vars: Record<string, Value>, random: () => number): Value {
  switch (node.t) {
    case 'num':
      return node.v;
    case 'var':
      if (!(node.name in vars)) throw new MathError(`the equation uses "${node.name}", which is not passed as an attribute`);
      return vars[node.name];
    case 'neg':
      return neg(evaluate(node.arg, vars, random));
    case 'bin':
      return OPS[node.op](evaluate(node.l, vars, random), evaluate(node.r, vars, random));
    case 'call': {
      const f = FUNCTIONS[node.name];
      if (!f) throw new MathError(`${node.name}() is not one of the functions {math} allows`);
      return f(
        node.args.map((a) => evaluate(a, vars, random)),
        random,
      );
    }
  }
}
