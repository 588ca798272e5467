/**
 * Source text to the flat node list, with parser failures turned into diagnostics.
 *
 * The parser stops at its first error; to report every independent error of a file in one run,
 * parseTemplate resynchronises at the next tag: the unreadable tag is blanked out (spaces, line
 * breaks kept, so every later position is unchanged) and the text parsed again. The blanked tag
 * stays in the node list by its name alone (an `{if}` as a true condition, a `{/foreach}` as its
 * close, another tag as a recovered Tag), so the tags around it still pair up and its error is
 * not followed by a cascade of "never closed" ones.
 */
import { parse as peggyParse, SyntaxError as PeggySyntaxError } from './parser.generated.js';
import type { FlatNode, Modifier } from './ast.js';
import { MAX_EXPR_DEPTH } from './expr-depth.js';
import type { Diagnostic, SourceText } from '../errors.js';
import { isErrorCode } from '../protocol/error-codes.js';

/** Errors a file reports before the parser gives up on it. */
const MAX_PARSE_ERRORS = 20;
/**
 * Characters parsed again in all: every recovery of a file up to ~50 KB, two or three of a 1 MB
 * one. Measured, the parser reads ~3 MB/s, so a broken file costs at most ~0.3 s more than two
 * more reads of it: about what compiling it costs anyway.
 */
const REPARSE_CHARS = 1_000_000;
const REPARSE_FILES = 2;

type Attempt = { nodes: FlatNode[] } | { error: Diagnostic; at: number; fatal: boolean };

function attempt(src: SourceText, text: string, defaultModifiers: readonly Modifier[] | undefined): Attempt {
  // The grammar refuses nesting past maxDepth itself; nestedAt is where its last level began.
  const options: { maxDepth: number; nestedAt?: number; defaultModifiers?: readonly Modifier[] } = {
    maxDepth: MAX_EXPR_DEPTH,
    defaultModifiers,
  };
  try {
    return { nodes: peggyParse(text, options) };
  } catch (e) {
    if (e instanceof RangeError && /call stack/i.test(e.message)) {
      // The stack ran out below the bound (a caller already deep in its stack, a small
      // --stack-size): still a nesting error, at the level the parser had reached.
      const at = options.nestedAt ?? 0;
      return {
        error: src.diagnostic(
          'error',
          'E_NESTING_TOO_DEEP',
          'the template nests expressions too deeply to parse',
          at,
          at + 1,
        ),
        at,
        fatal: true,
      };
    }
    if (!(e instanceof PeggySyntaxError)) throw e;
    const coded = /^\[(E_[A-Z_]+)\] ([\s\S]*)$/.exec(e.message);
    const code = coded && isErrorCode(coded[1]) ? coded[1] : 'E_SYNTAX';
    const message = coded ? coded[2] : describe(e.found);
    const at = e.location.start.offset;
    return {
      error: src.diagnostic('error', code, message, at, e.location.end.offset),
      at,
      fatal: code === 'E_NESTING_TOO_DEEP',
    };
  }
}

/** `defaultModifiers`: Smarty 2's default modifiers (default-modifiers.ts), put into the nodes where it applies them. */
export function parseTemplate(
  src: SourceText,
  defaultModifiers?: readonly Modifier[],
): { nodes: FlatNode[]; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const stand: FlatNode[] = [];
  let text = src.text;
  let budget = REPARSE_CHARS + REPARSE_FILES * text.length;
  // Each recovery must move on: an error before the last blanked tag (an unclosed comment or
  // {literal} reported at the end of the file) ends it.
  let after = -1;
  for (;;) {
    const r = attempt(src, text, defaultModifiers);
    if ('nodes' in r) return { nodes: stand.length ? merge(r.nodes, stand) : r.nodes, diagnostics };
    diagnostics.push(r.error);
    budget -= text.length;
    const tag = r.at < text.length ? unreadableTag(text, r.at) : null;
    if (r.fatal || !tag || tag.start <= after || diagnostics.length >= MAX_PARSE_ERRORS || budget < 0)
      return { nodes: [], diagnostics };
    after = tag.start;
    text = text.slice(0, tag.start) + blank(text.slice(tag.start, tag.end)) + text.slice(tag.end);
    // A tag cut off by the end of the file opens nothing: its "never closed" would be a cascade.
    const node = tag.closed ? standIn(src.text.slice(tag.start, tag.end), tag.start, tag.end) : null;
    if (node) stand.push(node);
  }
}

/** The tag an error at `at` lies in: from its `{` to the first `}` at or after the error (or the end). */
function unreadableTag(text: string, at: number): { start: number; end: number; closed: boolean } | null {
  const start = text.lastIndexOf('{', at);
  if (start < 0) return null;
  const close = text.indexOf('}', Math.max(at, start));
  return close < 0 ? { start, end: text.length, closed: false } : { start, end: close + 1, closed: true };
}

function blank(s: string): string {
  return s.replace(/[^\r\n]/g, ' ');
}

const TAG_HEAD = /^\{\s*(\/)?\s*([A-Za-z_][A-Za-z0-9_]*)/;

/** What the unreadable tag keeps in the node list: its name and role, nothing of its attributes. */
function standIn(original: string, start: number, end: number): FlatNode | null {
  const m = TAG_HEAD.exec(original);
  if (!m) return null;
  const [, closing, name] = m as unknown as [string, string | undefined, string];
  if (closing) return { type: 'Close', name, ignored: '', start, end };
  const yes = { type: 'Bool' as const, value: true, start, end };
  if (name === 'if') return { type: 'If', cond: yes, start, end };
  if (name === 'elseif') return { type: 'ElseIf', cond: yes, start, end };
  if (name === 'else') return { type: 'Else', ignored: '', start, end };
  if (name === 'literal' || name === 'php') return null;
  return { type: 'Tag', name, modifiers: [], attrs: [], recovered: true, start, end };
}

/** The nodes of the last parse with the stand-ins put back where their tags were. */
function merge(nodes: FlatNode[], stand: FlatNode[]): FlatNode[] {
  const all = [...nodes, ...stand];
  return all.sort((a, b) => a.start - b.start);
}

function describe(found: string | null | undefined): string {
  return `syntax error: unexpected ${found === null || found === undefined ? 'the end of the template' : JSON.stringify(found)}`;
}
