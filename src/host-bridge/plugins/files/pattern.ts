/**
 * read_dir's `pattern`: a PHP regular expression (preg_match semantics) tested against each
 * entry's virtual path, evaluated ON THE HOST without backtracking (security.md RX-06, design
 * rule 10).
 *
 * Why here and how:
 *  - The block plugin protocol answers with the final list of items, so the filter cannot run in
 *    the render's isolate without changing the compiler (not this module's business). RE2 is not
 *    a dependency. So the pattern is translated with our PCRE layer (src/php/pcre: the same parser
 *    and checks rcms_match uses) and then compiled by V8 with its NON-BACKTRACKING engine (the `l`
 *    flag of `--enable-experimental-regexp-engine`, switched on once with v8.setFlagsFromString).
 *    That engine runs in time linear in the subject or refuses the pattern at construction, so no
 *    pattern can backtrack catastrophically on the host thread. The flag only makes the `l` flag
 *    available; it changes nothing for other regular expressions of the process.
 *  - What the linear engine refuses is refused here with E_REGEX_UNSUPPORTED naming read_dir:
 *    backreferences, lookaround, atomic groups and possessive quantifiers (both translated to
 *    lookahead), counted repeats with large bounds, and the `u` modifier (the engine has no
 *    Unicode mode). The `i` modifier works: case-insensitive parts are expanded by the
 *    translator ("manual" case mode) instead of using JavaScript's `i` flag, which the engine
 *    also lacks. So patterns without `u` run over the byte view of the path, exactly as PHP does.
 *  - `$`, `\Z` and multiline `^`/`$` are rewritten to their meaning on a subject without line
 *    breaks (virtual paths have none), see withoutNewlineAsserts.
 *  - Patterns PHP itself cannot compile: preg_match returns false (and PHP warns), so no entry
 *    matches; a warning line says why.
 *  - Budgets: the pattern at most 1024 bytes; the paths are at most 1024 bytes each and their
 *    number is capped by TenantFiles' entry cap; the whole filter at most FILTER_BUDGET_MS of host
 *    time (E_REGEX_BUDGET past it), and the loop yields to the event loop every few milliseconds so
 *    other work of the embedding process is not held up.
 */
import { setFlagsFromString } from 'node:v8';
import { toBinary } from '../../../runtime/bytes.js';
import { splitPattern } from '../../../php/pcre/delimiters.js';
import { parsePattern } from '../../../php/pcre/parser.js';
import { Analysis } from '../../../php/pcre/analyze.js';
import type { Node } from '../../../php/pcre/ast.js';
import { emitPattern } from '../../../php/pcre/emit.js';
import { PcreCompileError, PcreError } from '../../../php/pcre/pcre-error.js';
import { byteSubject } from '../../../php/pcre/subject.js';
import { BridgeError } from '../../errors.js';

export const MAX_PATTERN_BYTES = 1024;
export const FILTER_BUDGET_MS = 250;
const SLICE_MS = 4;

let linearEngine: boolean | undefined;

function ensureLinearEngine(): boolean {
  if (linearEngine !== undefined) return linearEngine;
  try {
    new RegExp('a', 'l');
    linearEngine = true;
  } catch {
    try {
      setFlagsFromString('--enable-experimental-regexp-engine');
      new RegExp('a', 'l');
      linearEngine = true;
    } catch {
      linearEngine = false;
    }
  }
  return linearEngine;
}

export type PathFilter = { kind: 'regexp'; re: RegExp } | { kind: 'none-match'; warning: string };

/** Compile read_dir's pattern. Throws BridgeError for patterns that may not run on the host. */
export function compilePathFilter(pattern: string): PathFilter {
  const bin = toBinary(pattern);
  if (bin.length > MAX_PATTERN_BYTES) {
    throw new BridgeError('E_REGEX_TOO_LARGE', `{read_dir} pattern is longer than ${MAX_PATTERN_BYTES} bytes`);
  }
  if (!ensureLinearEngine()) {
    throw new BridgeError('E_REGEX_UNSUPPORTED', '{read_dir} pattern: this host cannot run patterns without backtracking');
  }
  let source: string;
  let anchored: boolean;
  try {
    const { body, mods } = splitPattern(bin);
    if (mods.u) throw new PcreError('the u modifier (read_dir patterns run on the host in linear time, without Unicode mode)');
    const cps = Array.from(body, (c) => c.charCodeAt(0));
    const ast = withoutNewlineAsserts(parsePattern(cps, false, mods).ast);
    const analysis = new Analysis(ast);
    analysis.check();
    source = emitPattern(ast, analysis, { utf: false, caseMode: 'manual', dollarEndOnly: mods.D, groupOffset: 0 }).source;
    anchored = mods.A;
  } catch (e) {
    if (e instanceof PcreCompileError) return { kind: 'none-match', warning: `{read_dir} pattern: preg_match(): ${e.message}; no entry matches` };
    if (e instanceof PcreError) throw new BridgeError(e.code, `{read_dir} pattern: ${e.message}`);
    throw e;
  }
  try {
    return { kind: 'regexp', re: new RegExp(`(?:${source})`, anchored ? 'yl' : 'gl') };
  } catch {
    throw new BridgeError(
      'E_REGEX_UNSUPPORTED',
      '{read_dir} pattern cannot run in linear time on the host (no backreferences, lookaround, atomic groups, possessive or large counted repeats)',
    );
  }
}

/**
 * The subjects are canonical virtual paths, which never contain a line break (nor any control
 * character). For such subjects `$` and `\Z` mean exactly `\z`, and a multiline `^`/`$` mean
 * `^`/`\z`; rewriting them avoids the lookaheads the translator otherwise emits ("end or before a
 * final newline"), which the linear engine cannot run.
 */
function withoutNewlineAsserts(n: Node): Node {
  switch (n.type) {
    case 'seq':
      return { ...n, items: n.items.map(withoutNewlineAsserts) };
    case 'alt':
      return { ...n, branches: n.branches.map(withoutNewlineAsserts) };
    case 'group':
    case 'repeat':
      return { ...n, body: withoutNewlineAsserts(n.body) };
    case 'assert':
      if (n.kind === 'end' || n.kind === 'Z') return { ...n, kind: 'z', multiline: false };
      if (n.kind === 'start') return { ...n, multiline: false };
      return n;
    default:
      return n;
  }
}

const yieldToLoop = (): Promise<void> => new Promise((r) => setImmediate(r));

/** preg_match($pattern, $path) === 1 for each path, under the time budget. */
export async function filterPaths<T>(f: PathFilter, items: readonly T[], pathOf: (t: T) => string, budgetMs = FILTER_BUDGET_MS): Promise<T[]> {
  if (f.kind === 'none-match') return [];
  const out: T[] = [];
  // Only time spent matching counts (not time other work took while this loop yielded).
  let spent = 0;
  let slice = performance.now();
  for (const item of items) {
    f.re.lastIndex = 0;
    if (f.re.test(byteSubject(pathOf(item)).view)) out.push(item);
    const now = performance.now();
    if (spent + (now - slice) > budgetMs) throw new BridgeError('E_REGEX_BUDGET', `{read_dir} pattern used more than ${budgetMs} ms`);
    if (now - slice > SLICE_MS) {
      spent += now - slice;
      await yieldToLoop();
      slice = performance.now();
    }
  }
  return out;
}
