/**
 * A variable read more than once in a run of statements that cannot write is read once
 * (docs/decisions.md D278). `{if $row.cells[c] > 80}...{elseif $row.cells[c] < 20}...{/if}` reads
 * the same chain in every test; each read walks it again (`key(key(...)))`), about 5-12 ns a step.
 *
 * What makes it exact: a run holds only text, printed values and `{if}`s whose conditions, bodies
 * and values are built of literals, variables, operators and {if}'s six functions. None of them
 * writes a variable or a section's state: what writes is a tag (`{assign}`, `{capture}`, a plugin,
 * an include, a loop's head) or a modifier (`|@sort` sorts its variable; a plugin's modifier may
 * call the host), and a run has neither. A read cannot throw and has no effect a template can
 * see (a lazy record converts a nested value on its first read and keeps it), so reading it at
 * the run's start, even where only one branch would have, answers what each read would have.
 */
import type { Access, Expr, Var } from '../ast.js';
import type { TreeNode } from '../structure.js';

/**
 * The identity of a plain variable read with at least one key or property (`$a.b`, `$l[s]`,
 * `$m[$k].x`), or null for anything else: `$smarty.*`, a bare `$x` (one property read, nothing
 * to save), a key that is not a literal or such a read.
 */
export function readKey(v: Var): string | null {
  if (v.name === 'smarty' || v.path.length === 0) return null;
  let key = part(v.name);
  for (const a of v.path) {
    const p = accessKey(a);
    if (p === null) return null;
    key += p;
  }
  return key;
}

/**
 * A name as a length and its text: keys are unambiguous without escaping, so a key that holds
 * another (`$a[$a[$a...]]`, as deep as expressions go) grows by a few characters a level, where
 * JSON text would double its backslashes at each.
 */
const part = (s: string): string => `${s.length}:${s}`;

function accessKey(a: Access): string | null {
  switch (a.type) {
    case 'Prop':
      return `p${part(a.name)}`;
    case 'SectionIndex':
      return `x${part(a.section)}${a.prop === null ? '-' : part(a.prop)}`;
    case 'Key':
      switch (a.key.type) {
        case 'String':
          return `s${part(a.key.value)}`;
        case 'Number':
          return `n${part(a.key.raw)}`;
        case 'Var': {
          // `$m[$k]`: the key's own read, bare or not.
          if (a.key.name === 'smarty') return null;
          if (a.key.path.length === 0) return `v${part(a.key.name)}`;
          const inner = readKey(a.key);
          return inner === null ? null : `w${part(inner)}`;
        }
        default:
          return null;
      }
  }
}

/** Whether evaluating `e` can write nothing: no modifier anywhere in it. */
function pureExpr(e: Expr): boolean {
  switch (e.type) {
    case 'Number':
    case 'String':
    case 'Bool':
    case 'Null':
      return true;
    case 'Interp':
      return e.parts.every((p) => typeof p === 'string' || pureExpr(p));
    case 'Var':
      return e.path.every((a) => a.type !== 'Key' || pureExpr(a.key));
    case 'Binary':
      return pureExpr(e.left) && pureExpr(e.right);
    case 'Unary':
      return pureExpr(e.arg);
    case 'Group':
      return pureExpr(e.expr);
    case 'Call':
      // {if}'s six functions (is_null, count, is_array, in_array, isset, is_object) read only.
      return e.args.every(pureExpr);
    case 'Is':
      return pureExpr(e.arg) && (e.by === null || pureExpr(e.by));
    case 'Modified':
      return false;
  }
}

/** Whether emitting `n` writes nothing when it runs: text, printed values, `{if}` of such. */
export function pureNode(n: TreeNode): boolean {
  switch (n.kind) {
    case 'text':
      return true;
    case 'output':
      return pureExpr(n.node.value);
    case 'if':
      return n.branches.every((b) => pureExpr(b.cond) && b.body.every(pureNode)) && (n.otherwise ?? []).every(pureNode);
    default:
      return false;
  }
}

/**
 * The reads (by readKey) made at least twice in `run`, a list of pure nodes, each with its first
 * Var, in the order they come; a read inside another's key (`$i.n` in `$l[$i.n]`) counts too,
 * and comes before it.
 */
export function repeatedReads(run: readonly TreeNode[]): Var[] {
  const seen = new Map<string, { v: Var; n: number }>();
  const visitExpr = (e: Expr): void => {
    switch (e.type) {
      case 'Interp':
        for (const p of e.parts) if (typeof p !== 'string') visitExpr(p);
        return;
      case 'Var': {
        // Its keys first: a read held for its key is then held before the read that uses it.
        for (const a of e.path) if (a.type === 'Key') visitExpr(a.key);
        const k = readKey(e);
        if (k !== null) {
          const s = seen.get(k);
          if (s) s.n++;
          else seen.set(k, { v: e, n: 1 });
        }
        return;
      }
      case 'Binary':
        visitExpr(e.left);
        visitExpr(e.right);
        return;
      case 'Unary':
        visitExpr(e.arg);
        return;
      case 'Group':
        visitExpr(e.expr);
        return;
      case 'Call':
        e.args.forEach(visitExpr);
        return;
      case 'Is':
        visitExpr(e.arg);
        if (e.by) visitExpr(e.by);
        return;
      default:
        return;
    }
  };
  const visit = (n: TreeNode): void => {
    if (n.kind === 'output') visitExpr(n.node.value);
    else if (n.kind === 'if') {
      for (const b of n.branches) {
        visitExpr(b.cond);
        b.body.forEach(visit);
      }
      n.otherwise?.forEach(visit);
    }
  };
  run.forEach(visit);
  return [...seen.values()].filter((s) => s.n > 1).map((s) => s.v);
}
