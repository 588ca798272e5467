/**
 * Checks on the AST for the places where PCRE and JavaScript backtracking disagree, so that
 * such patterns are refused (PcreError) instead of silently matching differently:
 *
 * - JavaScript resets the captures of a repeated group at each iteration; PCRE keeps the
 *   last value. They differ when a capture may be skipped in an iteration.
 * - JavaScript refuses an iteration that matches the empty string; PCRE accepts it and
 *   stops. They differ when a group repeated more than once can match empty.
 * - A backreference to an unset group fails in PCRE but matches empty in JavaScript.
 * - PCRE lookbehinds must have a fixed length per branch (else PHP's compile error).
 *
 * \K becomes a hidden empty capture whose position is the reported start, so it follows the
 * capture rules; a branch reset group's number is several JavaScript groups, one per
 * alternative, so its checks ask whether the number is set rather than one group.
 */
import type { Node } from './ast.js';
import { PcreCompileError, PcreError } from './pcre-error.js';

type Path = Node[];

function unsupported(what: string): never {
  throw new PcreError(`unsupported regular expression feature: ${what}`);
}

interface GroupEntry {
  node: Node & { type: 'group' };
  path: Path;
  pre: number;
  post: number;
}

export class Analysis {
  /** Capture groups by number: more than one entry for a number a branch reset repeats. */
  private readonly groups = new Map<number, GroupEntry[]>();
  private readonly refs: { node: Node & { type: 'backref' }; path: Path; pre: number }[] = [];
  private readonly keeps: Path[] = [];
  private counter = 0;

  constructor(private readonly ast: Node) {
    this.walk(ast, []);
  }

  private walk(node: Node, path: Path): void {
    const pre = this.counter++;
    const inner = [...path, node];
    switch (node.type) {
      case 'seq':
        node.items.forEach((n) => this.walk(n, inner));
        break;
      case 'alt':
        node.branches.forEach((n) => this.walk(n, inner));
        break;
      case 'group':
        this.walk(node.body, inner);
        break;
      case 'repeat':
        this.walk(node.body, inner);
        break;
      case 'backref':
        this.refs.push({ node, path, pre });
        break;
      case 'keep':
        this.keeps.push(path);
        break;
      case 'any':
      case 'assert':
      case 'char':
      case 'newline':
      case 'set':
        break; // a leaf: nothing inside
    }
    if (node.type === 'group' && node.kind === 'capture') {
      const entries = this.groups.get(node.index) ?? [];
      entries.push({ node, path, pre, post: this.counter++ });
      this.groups.set(node.index, entries);
    }
  }

  nullable(node: Node): boolean {
    switch (node.type) {
      case 'seq':
        return node.items.every((n) => this.nullable(n));
      case 'alt':
        return node.branches.some((n) => this.nullable(n));
      case 'char':
      case 'set':
      case 'any':
      case 'newline':
        return false;
      case 'assert':
      case 'keep':
        return true;
      case 'group':
        return node.kind === 'capture' || node.kind === 'group' || node.kind === 'atomic'
          ? this.nullable(node.body)
          : true;
      case 'repeat':
        return node.min === 0 || this.nullable(node.body);
      case 'backref': {
        const entries = this.groups.get(node.index);
        return entries ? entries.some((g) => this.nullable(g.node.body)) : true;
      }
    }
  }

  /** Whether a pattern uses \K (every search then reads the hidden groups' positions). */
  get hasKeep(): boolean {
    return this.keeps.length > 0;
  }

  /** Whether matching `node` always leaves group `index` set (PCRE keeps it; so does JavaScript within one pass). */
  private mustSet(node: Node, index: number): boolean {
    switch (node.type) {
      case 'seq':
        return node.items.some((n) => this.mustSet(n, index));
      case 'alt':
        return node.branches.every((n) => this.mustSet(n, index));
      case 'group':
        if (node.kind === 'capture' && node.index === index) return true;
        if (node.kind === 'notAhead' || node.kind === 'notBehind') return false;
        return this.mustSet(node.body, index);
      case 'repeat':
        return node.min > 0 && this.mustSet(node.body, index);
      default:
        return false;
    }
  }

  /** Runs every check; throws PcreCompileError or PcreError. */
  check(): void {
    this.checkNode(this.ast);
    for (const [index, entries] of this.groups) {
      if (entries.length === 1) this.checkCaptureInRepeat(entries[0].path, CAPTURE_SKIPPED);
      else for (const g of entries) this.checkSharedInRepeat(g.path, index);
    }
    for (const path of this.keeps) this.checkKeep(path);
    for (const r of this.refs) this.checkBackref(r);
  }

  /**
   * PCRE ignores \K in a negative assertion (the emitter drops it); in a positive one it may
   * move the start past the end or back before it, which positions alone cannot order.
   */
  private checkKeep(path: Path): void {
    if (path.some((n) => n.type === 'group' && (n.kind === 'notAhead' || n.kind === 'notBehind'))) return;
    if (path.some((n) => n.type === 'group' && (n.kind === 'ahead' || n.kind === 'behind'))) {
      unsupported('\\K inside a lookahead or lookbehind assertion');
    }
    this.checkCaptureInRepeat(
      path,
      '\\K in a repeated group that may skip it (JavaScript forgets the position on each repetition, PCRE keeps it)',
    );
  }

  /** A branch reset number inside a repeated group: every repetition must set it, or JavaScript loses the previous value. */
  private checkSharedInRepeat(path: Path, index: number): void {
    for (const a of path) {
      if (a.type === 'repeat' && a.max > 1 && !this.mustSet(a.body, index)) unsupported(CAPTURE_SKIPPED);
    }
  }

  private checkNode(node: Node): void {
    switch (node.type) {
      case 'seq':
        node.items.forEach((n) => this.checkNode(n));
        return;
      case 'alt':
        node.branches.forEach((n) => this.checkNode(n));
        return;
      case 'repeat':
        if (node.max > node.min && node.max > 1 && this.nullable(node.body)) {
          unsupported(
            'a repeated group that can match the empty string (PCRE and JavaScript repeat empty matches differently)',
          );
        }
        if (node.possessive && containsCapture(node.body)) {
          unsupported('a capture group or \\K under a possessive quantifier (PCRE keeps its value after backtracking)');
        }
        this.checkNode(node.body);
        return;
      case 'group':
        if (node.kind === 'behind' || node.kind === 'notBehind') {
          if (containsBackref(node.body)) unsupported('a backreference inside a lookbehind');
          const branches = node.body.type === 'alt' ? node.body.branches : [node.body];
          for (const b of branches) {
            if (fixedLength(b) === null) {
              throw new PcreCompileError(
                `Compilation failed: lookbehind assertion is not fixed length at offset ${node.offset}`,
              );
            }
          }
        }
        this.checkNode(node.body);
        return;
      case 'any':
      case 'assert':
      case 'backref':
      case 'char':
      case 'keep':
      case 'newline':
      case 'set':
        break; // a leaf: nothing inside
    }
  }

  private checkCaptureInRepeat(path: Path, message: string): void {
    // From the innermost repeating ancestor outwards, the capture must be reached on every iteration.
    for (let i = path.length - 1; i >= 0; i--) {
      const a = path[i];
      if (a.type === 'repeat' && a.max > 1) {
        if (!mandatoryPath(path.slice(i + 1))) unsupported(message);
      }
    }
  }

  private checkBackref(r: { node: Node & { type: 'backref' }; path: Path; pre: number }): void {
    if (r.path.some((n) => n.type === 'group' && (n.kind === 'behind' || n.kind === 'notBehind'))) {
      unsupported('a backreference inside a lookbehind');
    }
    const entries = this.groups.get(r.node.index)!;
    if (entries.length > 1) {
      if (!this.setBefore(r.path, r.node, r.node.index)) {
        unsupported('a backreference to a branch reset group that may be unset or not closed before it');
      }
      return;
    }
    const g = entries[0];
    if (!(g.post < r.pre)) unsupported('a backreference to a group that is not closed before it');
    let k = 0;
    while (k < g.path.length && k < r.path.length && g.path[k] === r.path[k]) k++;
    const lca = g.path[k - 1];
    if (lca && lca.type === 'alt') unsupported('a backreference to a group in another alternative');
    if (!mandatoryPath(g.path.slice(k))) {
      unsupported('a backreference to a group that may be unset (PCRE fails, JavaScript matches empty)');
    }
  }

  /**
   * Whether something before `node` on its path always sets group `index` (and closes it) in
   * the same pass: no repeat in between, whose earlier repetitions JavaScript would forget.
   */
  private setBefore(path: Path, node: Node, index: number): boolean {
    let child: Node = node;
    for (let d = path.length - 1; d >= 0; d--) {
      const a = path[d];
      if (a.type === 'repeat') return false;
      if (a.type === 'group' && a.kind === 'capture' && a.index === index) return false;
      if (a.type === 'seq') {
        for (const item of a.items) {
          if (item === child) break;
          if (this.mustSet(item, index)) return true;
        }
      }
      child = a;
    }
    return false;
  }

  /**
   * True when an empty match found first at some position proves there is no non-empty one
   * there: no lazy quantifiers, no nullable alternative before another, no backreferences
   * or atomic groups. PHP then retries a non-empty match, which we may skip.
   */
  emptyMatchIsLast(node: Node = this.ast): boolean {
    switch (node.type) {
      case 'seq':
        return node.items.every((n) => this.emptyMatchIsLast(n));
      case 'alt':
        return node.branches.every(
          (n, i) => (i === node.branches.length - 1 || !this.nullable(n)) && this.emptyMatchIsLast(n),
        );
      case 'group':
        if (node.kind === 'atomic') return false;
        if (node.kind !== 'capture' && node.kind !== 'group') return true;
        return this.emptyMatchIsLast(node.body);
      case 'repeat':
        if (!node.greedy || node.possessive) return false;
        if (node.max === 1 && this.nullable(node.body)) return false;
        return this.emptyMatchIsLast(node.body);
      case 'backref':
      case 'keep':
        // \K: a match that is not empty may be reported empty, after which PHP retries.
        return false;
      default:
        return true;
    }
  }
}

const CAPTURE_SKIPPED =
  'a capture group that a repeated group may skip (JavaScript clears it on each repetition, PCRE keeps the previous value)';

/** Every node on the path is always passed through when its parent is. */
function mandatoryPath(path: Path): boolean {
  for (let i = 0; i < path.length; i++) {
    const n = path[i];
    if (n.type === 'alt') return false;
    if (n.type === 'repeat' && n.min === 0) return false;
    if (n.type === 'group' && (n.kind === 'notAhead' || n.kind === 'notBehind')) return false;
  }
  return true;
}

/** The fixed length of what a node matches, or null when it varies. */
export function fixedLength(node: Node): number | null {
  switch (node.type) {
    case 'char':
    case 'set':
    case 'any':
      return 1;
    case 'assert':
    case 'keep':
      return 0;
    case 'newline':
    case 'backref':
      return null;
    case 'seq': {
      let total = 0;
      for (const n of node.items) {
        const l = fixedLength(n);
        if (l === null) return null;
        total += l;
      }
      return total;
    }
    case 'alt': {
      const lens = node.branches.map(fixedLength);
      return lens.every((l) => l !== null && l === lens[0]) ? lens[0] : null;
    }
    case 'group':
      if (node.kind === 'capture' || node.kind === 'group' || node.kind === 'atomic') return fixedLength(node.body);
      return 0;
    case 'repeat': {
      if (node.min !== node.max) return null;
      const l = fixedLength(node.body);
      return l === null ? null : l * node.min;
    }
  }
}

function containsCapture(node: Node): boolean {
  switch (node.type) {
    case 'seq':
      return node.items.some(containsCapture);
    case 'alt':
      return node.branches.some(containsCapture);
    case 'group':
      return node.kind === 'capture' || containsCapture(node.body);
    case 'repeat':
      return containsCapture(node.body);
    case 'keep':
      return true;
    default:
      return false;
  }
}

function containsBackref(node: Node): boolean {
  switch (node.type) {
    case 'seq':
      return node.items.some(containsBackref);
    case 'alt':
      return node.branches.some(containsBackref);
    case 'group':
    case 'repeat':
      return containsBackref(node.body);
    default:
      return node.type === 'backref';
  }
}
