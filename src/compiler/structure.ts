/**
 * Flat nodes to a tree: pairs opening and closing tags and applies the text rules that
 * Smarty 2 gets from compiling to PHP:
 * - {strip}: line breaks with their indentation are removed from template text from the
 *   outermost {strip} to its {/strip} (a nested pair changes nothing);
 * - a line break (\n, \r\n or a lone \r) right after a tag that prints nothing is swallowed
 *   (PHP eats the newline after `?>`; Smarty 2 puts one back only after tags that print), and
 *   after a comment that follows such a tag, two are (the comment's and PHP's);
 * - one \n at the very end of the template is dropped, also before the comments that end it.
 */
import type { Close, Expr, FlatNode, Tag, Text } from './ast.js';
import type { Diagnostic, ErrorCode, SourceText } from '../errors.js';
import { blockOfAlternative, builtinTag } from './builtin-tags.js';

export type TreeNode =
  | { kind: 'text'; value: string; start: number }
  | { kind: 'output'; node: Extract<FlatNode, { type: 'Output' }> }
  | {
      kind: 'if';
      branches: { cond: Expr; body: TreeNode[]; start: number }[];
      otherwise: TreeNode[] | null;
      start: number;
    }
  | { kind: 'block'; tag: Tag; body: TreeNode[]; alt: TreeNode[] | null; close: Close }
  | { kind: 'tag'; tag: Tag };

/** A tag with a body, closed by {/name}: a built-in block or a block plugin. */
export type BlockNode = Extract<TreeNode, { kind: 'block' }>;

function isBuiltinBlock(name: string): boolean {
  return builtinTag(name)?.kind === 'block';
}

/** Blocks nest at most this deep (code generation recurses once per level). */
const MAX_NESTING = 200;

export interface StructureOptions {
  /** True for tags whose compiled form prints (function plugins): the newline after them stays. */
  printingTag(name: string): boolean;
  /** True for block plugins, which pair with a closing tag like {foreach} does. */
  blockPlugin(name: string): boolean;
}

export function buildTree(
  nodes: FlatNode[],
  src: SourceText,
  opts: StructureOptions,
): { tree: TreeNode[]; diagnostics: Diagnostic[] } {
  const flat = applyTextRules(nodes, opts);
  const diagnostics: Diagnostic[] = [];
  type Frame =
    | { kind: 'root'; body: TreeNode[] }
    | { kind: 'if'; node: Extract<TreeNode, { kind: 'if' }>; body: TreeNode[]; sawElse: boolean; start: number }
    | { kind: 'block'; tag: Tag; body: TreeNode[]; main: TreeNode[]; alt: TreeNode[] | null };
  const root: Frame = { kind: 'root', body: [] };
  const stack: Frame[] = [root];
  const top = () => stack[stack.length - 1];
  // Blocks a mismatched close was already reported against: not reported again as never closed.
  const blamed = new Set<Frame>();
  const frameName = (f: Frame) => (f.kind === 'if' ? 'if' : f.kind === 'block' ? f.tag.name : '');
  // An {if} is in its parent's body from its opening; a block joins it when it closes.
  const closeFrame = (f: Frame, close: Close) => {
    if (f.kind === 'block') top().body.push({ kind: 'block', tag: f.tag, body: f.main, alt: f.alt, close });
  };
  const error = (code: ErrorCode, message: string, n: { start: number; end: number }) =>
    diagnostics.push(src.diagnostic('error', code, message, n.start, n.end));

  for (const n of flat) {
    if (stack.length > MAX_NESTING) {
      error('E_NESTING_TOO_DEEP', `blocks are nested more than ${MAX_NESTING} levels deep`, n);
      return { tree: [], diagnostics };
    }
    const frame = top();
    switch (n.type) {
      case 'Text':
        frame.body.push({ kind: 'text', value: n.value, start: n.start });
        break;
      case 'Literal':
        frame.body.push({ kind: 'text', value: n.value, start: n.start });
        break;
      case 'Comment':
        break;
      case 'Php':
        error(
          'E_PHP_DISABLED',
          `{php} blocks are disabled: templates cannot run PHP code (use the plugins and modifiers instead)`,
          { start: n.start, end: Math.min(n.end, n.start + 5) },
        );
        break;
      case 'Output':
        frame.body.push({ kind: 'output', node: n });
        break;
      case 'If': {
        const node: Extract<TreeNode, { kind: 'if' }> = { kind: 'if', branches: [], otherwise: null, start: n.start };
        const body: TreeNode[] = [];
        node.branches.push({ cond: n.cond, body, start: n.start });
        frame.body.push(node);
        stack.push({ kind: 'if', node, body, sawElse: false, start: n.start });
        break;
      }
      case 'ElseIf':
      case 'Else': {
        const tagName = n.type === 'ElseIf' ? 'elseif' : 'else';
        if (frame.kind !== 'if') {
          error('E_UNEXPECTED_TAG', `{${tagName}} outside of {if}`, n);
          break;
        }
        if (frame.sawElse) {
          error('E_UNEXPECTED_TAG', `{${tagName}} after {else} in the same {if}`, n);
          break;
        }
        const body: TreeNode[] = [];
        // Smarty 2 reads `{else if $x}` as a plain {else} (D5): never silently.
        if (n.type === 'Else' && n.ignored)
          diagnostics.push(
            src.diagnostic(
              'warning',
              'W_IGNORED_TEXT',
              `"${n.ignored.slice(0, 40)}" after {else} is ignored (Smarty 2 reads {else if ...} as a plain {else}; write {elseif ...})`,
              n.start,
              n.end,
            ),
          );
        if (n.type === 'ElseIf') frame.node.branches.push({ cond: n.cond, body, start: n.start });
        else {
          frame.node.otherwise = body;
          frame.sawElse = true;
        }
        frame.body = body;
        break;
      }
      case 'Tag': {
        if (isBuiltinBlock(n.name) || opts.blockPlugin(n.name)) {
          const main: TreeNode[] = [];
          stack.push({ kind: 'block', tag: n, body: main, main, alt: null });
          break;
        }
        const opener = blockOfAlternative(n.name);
        if (opener !== undefined) {
          if (frame.kind !== 'block' || frame.tag.name !== opener || frame.alt) {
            error('E_UNEXPECTED_TAG', `{${n.name}} is only allowed once inside {${opener}}`, n);
            break;
          }
          frame.alt = [];
          frame.body = frame.alt;
          break;
        }
        frame.body.push({ kind: 'tag', tag: n });
        break;
      }
      case 'Close': {
        // Smarty 2 ignores what follows a closing tag's name (D314): never silently.
        if (n.ignored)
          diagnostics.push(
            src.diagnostic(
              'warning',
              'W_IGNORED_TEXT',
              `"${n.ignored.slice(0, 40)}" after {/${n.name}} is ignored (Smarty 2 reads only the name of a closing tag)`,
              n.start,
              n.end,
            ),
          );
        if (!isBuiltinBlock(n.name) && n.name !== 'if' && !opts.blockPlugin(n.name)) {
          error('E_UNKNOWN_TAG', `{/${n.name}} closes "${n.name}", which is not a block tag`, n);
          break;
        }
        if (frame.kind === 'root') {
          error('E_UNEXPECTED_CLOSE', `{/${n.name}} closes a tag that was never opened`, n);
          break;
        }
        const openName = frameName(frame);
        if (n.name !== openName) {
          // Resynchronise instead of cascading: one error here, then either this close ends the
          // open block of its name further out (the blocks inside it end with it), or, when
          // none is open, it is ignored and the block it failed to close is not reported again.
          if (!blamed.has(frame)) {
            const at = src.position(frame.kind === 'if' ? frame.start : frame.tag.start);
            error('E_MISMATCHED_TAG', `{/${n.name}} does not match {${openName}} opened at ${at.line}:${at.column}`, n);
          }
          const outer = stack.findLastIndex((f) => f.kind !== 'root' && frameName(f) === n.name);
          if (outer < 0) {
            blamed.add(frame);
            break;
          }
          while (stack.length > outer + 1) closeFrame(stack.pop()!, n);
        }
        closeFrame(stack.pop()!, n);
        break;
      }
    }
  }
  while (stack.length > 1) {
    const frame = stack.pop()!;
    if (blamed.has(frame)) continue;
    const name = frame.kind === 'if' ? 'if' : frame.kind === 'block' ? frame.tag.name : '';
    const start = frame.kind === 'if' ? frame.start : frame.kind === 'block' ? frame.tag.start : 0;
    error('E_UNCLOSED_TAG', `{${name}} is never closed with {/${name}}`, { start, end: start + name.length + 2 });
  }
  return { tree: root.body, diagnostics };
}

/** Any one line break: \r\n, \n, or an old Mac \r alone. */
const LEADING_BREAK = /^(?:\r\n?|\n)/;
const STRIP_BREAK = /[\t ]*[\r\n]+[\t ]*/g;
const PHP_TRIM_LEFT = /^[ \t\n\r\0\x0B]+/;
const PHP_TRIM_RIGHT = /[ \t\n\r\0\x0B]+$/;

function applyTextRules(nodes: FlatNode[], opts: StructureOptions): FlatNode[] {
  const out: FlatNode[] = [];
  // Smarty 2 strips from the outermost {strip} to its {/strip}: nested pairs change nothing.
  let stripDepth = 0;
  // Two rules take a line break from the text after a tag (D334). A comment compiles to nothing,
  // and Smarty 2 then drops the first line break of the text block that follows it. A tag that
  // compiles to PHP and prints nothing ends in `?>`, and PHP eats the line break right after
  // that; comments and text left empty between them move the `?>` on to the next text.
  let commentBefore = false;
  let phpCloseBefore = false;
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i];
    if (n.type === 'Text') {
      let value = n.value;
      if (stripDepth > 0) {
        value = value.replace(STRIP_BREAK, '');
        const next = nodes[i + 1];
        if (next && next.type === 'Close' && next.name === 'strip') value = value.replace(PHP_TRIM_RIGHT, '');
        const prev = nodes[i - 1];
        if (prev && prev.type === 'Tag' && prev.name === 'strip') value = value.replace(PHP_TRIM_LEFT, '');
        phpCloseBefore = false;
      } else {
        if (commentBefore) value = value.replace(LEADING_BREAK, '');
        if (phpCloseBefore && value !== '') {
          value = value.replace(LEADING_BREAK, '');
          phpCloseBefore = false;
        }
      }
      commentBefore = false;
      if (value !== '') out.push({ ...n, value } as Text);
      continue;
    }
    if (n.type === 'Tag' && n.name === 'strip') stripDepth++;
    if (n.type === 'Close' && n.name === 'strip') stripDepth = Math.max(0, stripDepth - 1);
    if (n.type === 'Comment') commentBefore = true;
    else {
      commentBefore = false;
      phpCloseBefore = !printsOutput(n, opts);
    }
    out.push(n);
  }
  // Smarty 2 trims the final \n of the compiled template. Comments compile to nothing, so that
  // \n may be in the text before the comments that end the template (D133).
  let at = out.length - 1;
  while (at >= 0 && out[at].type === 'Comment') at--;
  const last = out[at];
  if (last && last.type === 'Text' && last.value.endsWith('\n')) {
    const value = last.value.slice(0, -1);
    if (value === '') out.splice(at, 1);
    else out[at] = { ...last, value };
  }
  return out;
}

function printsOutput(n: FlatNode, opts: StructureOptions): boolean {
  switch (n.type) {
    case 'Output':
    case 'Literal':
      return true;
    case 'Tag': {
      const builtin = builtinTag(n.name);
      return builtin?.kind === 'tag' ? builtin.prints : opts.printingTag(n.name);
    }
    case 'Close':
      // {/strip} compiles to a newline that PHP eats in place of the one that follows.
      return n.name === 'strip';
    default:
      return false;
  }
}
