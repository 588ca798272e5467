/**
 * \G: true where the match attempt started (PCRE2's start offset of this pcre2_match call). A
 * RegExp cannot see its lastIndex, so translate.ts picks, per pattern, the cheapest exact form:
 *
 * - anchoring: every alternative starts with \G (or with a lookbehind `(?<=\GX)` of fixed
 *   length n): dropped, and the search is sticky at the start offset (plus n characters);
 * - split: each remaining \G is either where nothing can have been consumed since the match
 *   start (true exactly when the match starts at the offset) or after something was consumed
 *   (never true): the pattern is written twice, with \G true at the offset and false after it;
 * - rest: anything else (a \G in a lookbehind, after an optional part) compares the rest of
 *   the subject with a copy taken at the start offset, which costs a pass over the subject per
 *   search.
 */
import { fixedLength } from './analyze.js';
import type { Node } from './ast.js';

/**
 * The pattern without the \G that anchors every alternative, and how many characters after
 * the start offset each match starts. Null when no \G anchors it.
 */
export function anchoringG(node: Node): { node: Node; shift: number } | null {
  switch (node.type) {
    case 'assert':
      return node.kind === 'G' ? { node: { type: 'seq', items: [] }, shift: 0 } : null;
    case 'seq': {
      if (node.items.length === 0) return null;
      const first = anchoringG(node.items[0]);
      return first && { node: { type: 'seq', items: [first.node, ...node.items.slice(1)] }, shift: first.shift };
    }
    case 'alt': {
      const branches = node.branches.map(anchoringG);
      const shift = branches[0]?.shift;
      if (!branches.every((b) => b !== null && b.shift === shift)) return null;
      return { node: { type: 'alt', branches: branches.map((b) => b!.node) }, shift: shift! };
    }
    case 'group': {
      if (node.kind === 'capture' || node.kind === 'group' || node.kind === 'atomic') {
        const body = anchoringG(node.body);
        return body && { node: { ...node, body: body.node }, shift: body.shift };
      }
      if (node.kind !== 'behind') return null;
      // Each alternative of the lookbehind starts with \G, then a fixed length.
      const alts = node.body.type === 'alt' ? node.body.branches : [node.body];
      const stripped: Node[] = [];
      let shift: number | null = null;
      for (const b of alts) {
        const inner = anchoringG(b);
        if (!inner || inner.shift !== 0 || placeG(inner.node).size > 0) return null;
        const len = fixedLength(inner.node);
        if (len === null || (shift !== null && len !== shift)) return null;
        shift = len;
        stripped.push(inner.node);
      }
      const body: Node = stripped.length === 1 ? stripped[0] : { type: 'alt', branches: stripped };
      return { node: { ...node, body }, shift: shift! };
    }
    default:
      return null;
  }
}

/**
 * Where a \G stands: `start` (nothing consumed since the match start), `after` (something
 * was), `maybe` (either), `behind` (in a lookbehind, behind the match's own position).
 */
export type GPlace = 'start' | 'after' | 'maybe' | 'behind';

type Consumed = 'none' | 'some' | 'maybe';

const join = (a: Consumed, b: Consumed): Consumed => (a === b ? a : 'maybe');

/** Every \G node of the pattern, with its place. */
export function placeG(ast: Node): Map<Node, GPlace> {
  const places = new Map<Node, GPlace>();
  // Returns what has been consumed since the match start after `node`.
  const walk = (node: Node, before: Consumed, behind: boolean): Consumed => {
    switch (node.type) {
      case 'char':
      case 'set':
      case 'any':
      case 'newline':
        return 'some';
      case 'backref':
        return before === 'some' ? 'some' : 'maybe';
      case 'keep':
        return before;
      case 'assert':
        if (node.kind === 'G')
          places.set(node, behind ? 'behind' : before === 'none' ? 'start' : before === 'some' ? 'after' : 'maybe');
        return before;
      case 'seq':
        return node.items.reduce((state, n) => walk(n, state, behind), before);
      case 'alt':
        return node.branches.map((n) => walk(n, before, behind)).reduce(join);
      case 'group':
        switch (node.kind) {
          case 'ahead':
          case 'notAhead':
            walk(node.body, before, behind);
            return before;
          case 'behind':
          case 'notBehind':
            walk(node.body, before, true);
            return before;
          default:
            return walk(node.body, before, behind);
        }
      case 'repeat': {
        // A later repetition starts after the earlier ones: its \G may stand elsewhere.
        const first = walk(node.body, node.max > 1 ? join(before, 'some') : before, behind);
        return node.min === 0 ? join(before, first) : first;
      }
    }
  };
  walk(ast, 'none', false);
  return places;
}
