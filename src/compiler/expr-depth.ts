/**
 * How deeply one expression may nest. Three recursions follow an expression's nesting: the
 * parser (parentheses, calls, brackets and signs), the code generator (once per AST level), and
 * V8 compiling the generated script inside the isolate, where every level is a call or a
 * parenthesis (`add(add($a, $b), $c)`, `key(key(s["a"], "b"), "c")`, `map(m1, map(m2, v))`).
 * A 30 KB chain of `+` made the code generator overflow the embedding process's stack, a long
 * `.b.b.b` path made V8 refuse the script in the isolate. The bound is checked where nesting is
 * built, before any of them recurses, so that the refusal does not depend on the stack size:
 * 200 levels use about a third of Node's default stack in the parser (~585 nested parentheses
 * fit, measured) and a seventh of V8's in the isolate (~1,450 nested calls fit), which leaves
 * room for 200 nested blocks (structure.ts) around the expression.
 */
import type { Access, Expr, FlatNode, Modifier, Span } from './ast.js';
import type { Diagnostic, SourceText } from '../errors.js';

export const MAX_EXPR_DEPTH = 200;

/**
 * E_NESTING_TOO_DEEP at the first tag of `nodes` whose expressions nest deeper than
 * MAX_EXPR_DEPTH; null when none does. Iterative: it must not recurse on what it bounds.
 */
export function checkExprDepth(nodes: readonly FlatNode[], src: SourceText): Diagnostic | null {
  const work: [Expr, number][] = [];
  for (const n of nodes) {
    switch (n.type) {
      case 'Output':
        work.push([n.value, 0]);
        break;
      case 'If':
      case 'ElseIf':
        work.push([n.cond, 0]);
        break;
      case 'Tag':
        if (!modifierChain(n.modifiers, 0, work)) return tooDeep(src, n);
        for (const a of n.attrs) work.push([a.value, 1 + n.modifiers.length]);
        break;
      default:
        break;
    }
    if (!drain(work)) return tooDeep(src, n);
  }
  return null;
}

/**
 * Walks the queued expressions, each with the number of levels around it: false as soon as one
 * has more than the bound (200 parentheses around a number are fine, 201 are not).
 */
function drain(work: [Expr, number][]): boolean {
  for (let item = work.pop(); item; item = work.pop()) {
    const [e, d] = item;
    if (d > MAX_EXPR_DEPTH) return false;
    switch (e.type) {
      case 'Interp':
        for (const p of e.parts) if (typeof p !== 'string') work.push([p, d + 1]);
        break;
      case 'Var':
        if (!path(e.path, d, work)) return false;
        break;
      case 'Binary':
        if (e.op === '&&' || e.op === '||') {
          // A chain of one logical operator is emitted flat (`a && b && c`), one level for all.
          let x: Expr = e;
          for (; x.type === 'Binary' && x.op === e.op; x = x.left) work.push([x.right, d + 1]);
          work.push([x, d + 1]);
        } else work.push([e.left, d + 1], [e.right, d + 1]);
        break;
      case 'Unary':
        work.push([e.arg, d + 1]);
        break;
      case 'Group':
        work.push([e.expr, d + 1]);
        break;
      case 'Call':
        for (const a of e.args) work.push([a, d + 1]);
        break;
      case 'Is':
        // `!bitAnd(1, div(x, by))`
        work.push([e.arg, d + 2]);
        if (e.by) work.push([e.by, d + 2]);
        break;
      case 'Modified':
        if (!modifierChain(e.modifiers, d, work)) return false;
        work.push([e.base, d + e.modifiers.length]);
        break;
      default:
        break;
    }
  }
  return true;
}

/** `key(key(base, k1), k2)`: each step of a path nests the ones before it. */
function path(steps: readonly Access[], d: number, work: [Expr, number][]): boolean {
  if (d + steps.length > MAX_EXPR_DEPTH) return false;
  for (const a of steps) if (a.type === 'Key') work.push([a.key, d + steps.length]);
  return true;
}

/** `map(m2, map(m1, value, [args]), [args])`: each modifier nests the ones before it. */
function modifierChain(mods: readonly Modifier[], d: number, work: [Expr, number][]): boolean {
  if (d + mods.length > MAX_EXPR_DEPTH) return false;
  for (const m of mods) for (const a of m.args) work.push([a, d + mods.length]);
  return true;
}

function tooDeep(src: SourceText, tag: Span): Diagnostic {
  return src.diagnostic(
    'error',
    'E_NESTING_TOO_DEEP',
    `the expression nests more than ${MAX_EXPR_DEPTH} levels deep (parentheses, calls, keys, modifiers, operators)`,
    tag.start,
    tag.end,
  );
}
