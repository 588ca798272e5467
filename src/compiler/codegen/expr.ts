/**
 * Expressions to JavaScript expressions over the runtime API (src/runtime/template-api.ts).
 * Template text reaches the output only through `lit()` string literals and numbers; names of
 * variables, keys and properties are data passed to lookups, never identifiers.
 */
import type { Access, Expr, Modifier, Var } from '../ast.js';
import { lit } from './builder.js';
import type { EmitContext } from './context.js';
import { smartyVarBase } from './smarty-var.js';
import { readKey } from './read-once.js';
import { IF_FUNCTIONS, type IfFunction } from '../../plugins/catalog.js';
import { intOfDecimal } from '../../value/int64.js';
import type { TemplateApi } from '../../runtime/template-api.js';
import type { RtMember } from './runtime-names.js';

/** The rt member each operator calls. */
const BINARY: Readonly<Record<string, RtMember>> = {
  '+': 'add',
  '-': 'sub',
  '*': 'mul',
  '/': 'div',
  '%': 'mod',
  '==': 'eq',
  '!=': 'ne',
  '===': 'same',
  '!==': 'notSame',
  '<': 'lt',
  '>': 'gt',
  '<=': 'le',
  '>=': 'ge',
  '&': 'bitAnd',
  '|': 'bitOr',
  '^': 'bitXor',
  '<<': 'shl',
  '>>': 'shr',
};

/** Expressions whose JavaScript value is already a boolean (no `truthy()` needed). */
function isBoolean(e: Expr): boolean {
  switch (e.type) {
    case 'Bool':
      return true;
    case 'Binary':
      return ['==', '!=', '===', '!==', '<', '>', '<=', '>=', '&&', '||'].includes(e.op);
    case 'Unary':
      return e.op === '!';
    case 'Is':
      return true;
    case 'Group':
      return isBoolean(e.expr);
    case 'Call':
      return e.name !== 'count';
    default:
      return false;
  }
}

export function compileCondition(e: Expr, cx: EmitContext): string {
  return asBool(e, compileExpr(e, cx));
}

export function compileExpr(e: Expr, cx: EmitContext): string {
  switch (e.type) {
    case 'Number':
      return compileNumberLit(e, cx);
    case 'String':
      return lit(cx.normalizeString(e.value));
    case 'Bool':
      return e.value ? 'true' : 'false';
    case 'Null':
      return 'null';
    case 'Interp': {
      // Only the grammar's StrayToken makes an Interp that starts at a brace (D322).
      if (cx.src.text[e.start] === '{') {
        const token = cx.src.text.slice(e.start, e.end).slice(0, 40);
        cx.warn(
          'W_TEXT_CONDITION',
          `"${token}" is text to Smarty 2, which ends the tag at the first }: the condition is a string, true unless compared (write {if ${token.slice(1)}})`,
          e,
        );
      }
      const parts = e.parts.map((p) =>
        typeof p === 'string' ? lit(cx.normalizeString(p)) : `str(${compileExpr(p, cx)})`,
      );
      if (parts.length === 0) return '""';
      if (typeof e.parts[0] !== 'string') parts.unshift('""');
      return `(${parts.join(' + ')})`;
    }
    case 'Var':
      return compileVar(e, cx);
    case 'Binary': {
      if (e.op === '&&' || e.op === '||') return compileLogicalChain(e, cx);
      const l = compileExpr(e.left, cx);
      const r = compileExpr(e.right, cx);
      const fn = BINARY[e.op];
      if (!fn) {
        cx.error('E_SYNTAX', `the operator ${e.op} is not supported`, e);
        return 'null';
      }
      return `${fn}(${l}, ${r})`;
    }
    case 'Unary': {
      const a = compileExpr(e.arg, cx);
      switch (e.op) {
        case '!':
          return `!${asBool(e.arg, a)}`;
        case '-':
          return `neg(${a})`;
        case '~':
          return `bitNot(${a})`;
        default:
          return a; // `@` only silences PHP warnings
      }
    }
    case 'Group':
      return `(${compileExpr(e.expr, cx)})`;
    case 'Call':
      return compileCall(e, cx);
    case 'Is': {
      if (e.by && (isGluedMath(e.arg) || isGluedMath(e.by))) {
        // Smarty 2 writes `X is div by N` as the PHP text `!(X % N)` and `X is even by N` as
        // `!(1 & (X / N))`: glued math on either side is regrouped by PHP's precedence, so
        // `$i+1 is div by 3` tests `$i + 1 % 3` and `by $n+1` divides by $n, then adds 1.
        const inner = compileExpr(regroup(e.arg, e.kind === 'div' ? '%' : '/', e.by), cx);
        const test = e.kind === 'div' ? `!truthy(${inner})` : `${e.kind === 'even' ? '!' : '!!'}bitAnd(1, ${inner})`;
        return e.negate ? `!(${test})` : `(${test})`;
      }
      const x = compileExpr(e.arg, cx);
      const by = e.by ? compileExpr(e.by, cx) : null;
      // Smarty 2: even = !(1 & X), odd = (1 & X), "by N" divides first, div by N = !(X % N)
      let test: string;
      if (e.kind === 'div') test = `!truthy(mod(${x}, ${by}))`;
      else {
        const operand = by ? `div(${x}, ${by})` : x;
        test = e.kind === 'even' ? `!bitAnd(1, ${operand})` : `!!bitAnd(1, ${operand})`;
      }
      return e.negate ? `!(${test})` : `(${test})`;
    }
    case 'Modified':
      return compileModified(e, cx);
  }
}

const MATH_PRECEDENCE: Readonly<Record<string, number>> = { '*': 2, '/': 2, '%': 2, '+': 1, '-': 1 };

/** Math written without spaces (`$i+1`): a Binary that is not a group. Spaced math never reaches an `is` test. */
function isGluedMath(e: Expr): boolean {
  return e.type === 'Binary' && e.op in MATH_PRECEDENCE;
}

/** `left op right` read again as the flat text PHP sees, the terms of glued math on both sides. */
function regroup(left: Expr, op: '%' | '/', right: Expr): Expr {
  const terms: Expr[] = [];
  const ops: string[] = [];
  const flatten = (e: Expr): void => {
    if (e.type === 'Binary' && isGluedMath(e)) {
      flatten(e.left);
      ops.push(e.op);
      flatten(e.right);
    } else terms.push(e);
  };
  flatten(left);
  ops.push(op);
  flatten(right);
  const out: Expr[] = [terms[0]!];
  const pending: string[] = [];
  const reduce = (): void => {
    const r = out.pop()!;
    const l = out.pop()!;
    out.push({ type: 'Binary', op: pending.pop()!, left: l, right: r, start: l.start, end: r.end });
  };
  ops.forEach((o, i) => {
    while (pending.length && MATH_PRECEDENCE[pending[pending.length - 1]!]! >= MATH_PRECEDENCE[o]!) reduce();
    pending.push(o);
    out.push(terms[i + 1]!);
  });
  while (pending.length) reduce();
  return out[0]!;
}

/**
 * `a && b && c` as one flat chain: the parser folds it to the left, `((a && b) && c)`, and a
 * condition of a few thousand terms nested that deep overflowed the code generator and V8's
 * parser in the isolate; flat, both walk it in a loop (expr-depth.ts counts it as one level).
 */
function compileLogicalChain(e: Extract<Expr, { type: 'Binary' }>, cx: EmitContext): string {
  const operands: Expr[] = [];
  let x: Expr = e;
  for (; x.type === 'Binary' && x.op === e.op; x = x.left) operands.push(x.right);
  operands.push(x);
  operands.reverse();
  return `(${operands.map((o) => asBool(o, compileExpr(o, cx))).join(` ${e.op} `)})`;
}

function asBool(e: Expr, js: string): string {
  return isBoolean(e) ? js : `truthy(${js})`;
}

function compileNumberLit(e: Extract<Expr, { type: 'Number' }>, cx: EmitContext): string {
  if (e.badOctal) {
    cx.error(
      'E_SYNTAX',
      `${e.raw} is not a number PHP can read: a leading 0 makes it octal (digits 0-7); drop the 0 or quote it`,
      e,
    );
  }
  return compileNumber(e.raw);
}

function compileNumber(raw: string): string {
  if (raw.startsWith('.')) raw = '0' + raw;
  if (raw.startsWith('-.')) raw = '-0' + raw.slice(1);
  const n = Number(raw);
  // `3.0` and `1e3` are PHP floats; `-0.0` is negative zero, which PHP prints as `-0`.
  if (raw.includes('.') || /[eE]/.test(raw))
    return Number.isInteger(n) ? `float(${Object.is(n, -0) ? '-0' : n})` : String(n);
  // PHP reads `-` as an operator on the literal after it: past PHP_INT_MAX that literal is a
  // float, so -9223372036854775808 is a float too. Past 2^53 an int is a bigint literal.
  const negative = raw.startsWith('-');
  const i = intOfDecimal(negative ? raw.slice(1) : raw);
  if (i === null) return `float(${n})`;
  if (typeof i === 'number') return String(negative ? -i || 0 : i);
  return `${negative ? -i : i}n`;
}

/**
 * `{$list|@sort}`: a by-reference PHP function written first on a variable updates the
 * variable (the platform calls it on the variable itself); the rest of the chain gets what
 * PHP returns.
 */
function compileModified(e: Extract<Expr, { type: 'Modified' }>, cx: EmitContext): string {
  const [first, ...rest] = e.modifiers;
  const target = first.all && cx.plugins.findModifier(first.name)?.byReference ? assignableName(e.base) : null;
  if (target === null) return compileModifiers(compileExpr(e.base, cx), e.modifiers, cx);
  const ref = cx.modifier(first);
  const args = first.args.map((a) => compileExpr(a, cx));
  const call = `$.byReference(${ref}, ${compileExpr(e.base, cx)}, [${args.join(', ')}], (v) => $.assign(s, ${lit(target)}, v))`;
  return compileModifiers(call, rest, cx);
}

/** The {assign}-style name of a variable written with literal keys only (`list`, `a.b`), else null. */
function assignableName(e: Expr): string | null {
  if (e.type !== 'Var' || e.name === 'smarty') return null;
  const keys: string[] = [e.name];
  for (const a of e.path) {
    if (a.type !== 'Key') return null;
    if (a.key.type === 'String' && /^\w+$/.test(a.key.value)) keys.push(a.key.value);
    else if (a.key.type === 'Number' && /^\d+$/.test(a.key.raw)) keys.push(a.key.raw);
    else return null;
  }
  return keys.length <= 4 ? keys.join('.') : null;
}

/** Applies a modifier chain: Smarty 2 maps a modifier over an array unless it is written with `@`. */
export function compileModifiers(value: string, modifiers: Modifier[], cx: EmitContext): string {
  let js = value;
  for (const m of modifiers) {
    const ref = cx.modifier(m);
    const list = `[${m.args.map((a) => compileExpr(a, cx)).join(', ')}]`;
    // All-literal arguments (or none): a modifier prepared once per template (`p1`), called
    // without arguments; otherwise the arguments are built at each call.
    const literal = ref !== 'null' && m.args.every((a) => LITERALS.has(a.type));
    if (literal) js = `${m.all ? 'call' : 'map'}(${cx.prepared(ref, list)}, ${js})`;
    else js = `${m.all ? 'call' : 'map'}(${ref}, ${js}${m.args.length ? `, ${list}` : ''})`;
  }
  return js;
}

const LITERALS = new Set(['String', 'Number', 'Bool', 'Null']);

function compileVar(v: Var, cx: EmitContext): string {
  if (v.name === 'smarty') {
    const { base, rest } = smartyVarBase(v, cx, (e) => compileExpr(e, cx));
    return compilePath(base, rest, cx);
  }
  if (cx.readsOnce.size > 0) {
    const k = readKey(v);
    const held = k === null ? undefined : cx.readsOnce.get(k);
    if (held !== undefined) return held;
  }
  return compilePath(`s[${lit(v.name)}]`, v.path, cx);
}

function compilePath(base: string, path: Access[], cx: EmitContext): string {
  let js = base;
  for (const a of path) {
    switch (a.type) {
      case 'Key':
        js = `key(${js}, ${compileKey(a.key, cx)})`;
        break;
      case 'Prop':
        js = `prop(${js}, ${lit(a.name)})`;
        break;
      case 'SectionIndex':
        js = `key(${js}, ${sectionIndex(a.section, a.prop, cx)})`;
        break;
    }
  }
  return js;
}

/**
 * `$x[NAME]`'s index (or `$x[NAME.PROP]`'s property): inside the section's own body from its
 * state variable (EmitContext.sectionLoops), ~30 ns less per read than the render state's lookup
 * by name; elsewhere that lookup.
 */
function sectionIndex(name: string, prop: string | null, cx: EmitContext): string {
  const inner = cx.sectionLoops.findLast((l) => l.name === name);
  if (prop)
    return inner ? `$.sectionPropOf(${inner.state}, ${lit(prop)})` : `$.sectionProp(${lit(name)}, ${lit(prop)})`;
  return inner ? `${inner.state}.index` : `$.sectionIndex(${lit(name)})`;
}

const CANONICAL_INT = /^(?:0|-?[1-9][0-9]{0,14})$/;

function compileKey(k: Expr, cx: EmitContext): string {
  // `.0` and `['1']` are int keys in PHP: normalise literal keys here, dynamic ones at run time.
  if (k.type === 'String' && CANONICAL_INT.test(k.value)) return k.value;
  if (k.type === 'Number' && !k.raw.includes('.')) return compileNumberLit(k, cx);
  return compileExpr(k, cx);
}

/** Fewest and most arguments of the functions {if} allows, the members of rt.ifFn. */
const IF_ARITY: Readonly<Record<IfFunction & keyof TemplateApi['ifFn'], [number, number]>> = {
  is_null: [1, 1],
  count: [1, 2],
  is_array: [1, 1],
  in_array: [2, 3],
  isset: [1, 99],
  is_object: [1, 1],
};

function isIfFunction(name: string): name is IfFunction {
  return (IF_FUNCTIONS as readonly string[]).includes(name);
}

/**
 * Functions of Smarty 2's own secure {if} list (IF_FUNCS) that the platform's list lacks: a
 * template ported from Smarty 2 meets these first, so the refusal says what to write instead.
 */
const IF_PORTING: Readonly<Record<string, string>> = {
  empty: 'for empty($x) write !$x: a missing variable is null here, without a notice',
  sizeof: 'write count() for sizeof()',
};

function compileCall(e: Extract<Expr, { type: 'Call' }>, cx: EmitContext): string {
  if (!isIfFunction(e.name)) {
    cx.error(
      'E_IF_FUNCTION',
      `the function ${e.name}() is not allowed in {if}; allowed: ${IF_FUNCTIONS.join(', ')} (${IF_PORTING[e.name] ?? 'compute other values with {assign} or a modifier'})`,
      e,
    );
    return 'null';
  }
  // Smarty 2 writes isset()'s arguments into PHP as they are, and PHP refuses isset() of anything
  // but a variable: a modifier (a default modifier too, which Smarty 2 puts on every variable), a
  // literal or math stops the page at compile time (D326).
  const notVar = e.name === 'isset' ? e.args.find((a) => a.type !== 'Var') : undefined;
  if (notVar) {
    cx.error(
      'E_IF_FUNCTION',
      notVar.type === 'Modified'
        ? "isset() takes variables only, and this one has modifiers (a default modifier counts): PHP cannot take isset() of a modifier's result; test the variable alone"
        : 'isset() takes variables only: PHP cannot take isset() of an expression',
      notVar,
    );
    return 'null';
  }
  const args = e.args.map((a) => compileExpr(a, cx));
  const [min, max] = IF_ARITY[e.name];
  if (args.length < min || args.length > max) {
    cx.error(
      'E_IF_FUNCTION',
      `${e.name}() takes ${min === max ? min : `${min} to ${max}`} argument(s), ${args.length} given`,
      e,
    );
    return 'null';
  }
  return `ifFn.${e.name}(${args.join(', ')})`;
}
