/**
 * Tree nodes to statements. Each construct has its own emitter file; tags go to the built-in
 * table's emitter (../builtin-tags.ts), else they are plugins.
 */
import type { TreeNode } from '../structure.js';
import { builtinTag } from '../builtin-tags.js';
import { lit } from './builder.js';
import type { EmitContext } from './context.js';
import { emitPluginTag } from './plugin-tag.js';
import { emitBlockPlugin } from './block-plugin.js';
import { pureNode, readKey, repeatedReads } from './read-once.js';

export function emitNodes(nodes: TreeNode[], cx: EmitContext): void {
  for (let i = 0; i < nodes.length;) {
    if (!pureNode(nodes[i])) {
      emitNode(nodes[i++], cx);
      continue;
    }
    let end = i + 1;
    while (end < nodes.length && pureNode(nodes[end])) end++;
    emitRun(nodes.slice(i, end), cx);
    i = end;
  }
}

/** A run of statements that cannot write: a variable read more than once there is read once first (D278). */
function emitRun(run: TreeNode[], cx: EmitContext): void {
  const held: string[] = [];
  for (const v of repeatedReads(run)) {
    const k = readKey(v)!;
    if (cx.readsOnce.has(k)) continue; // an enclosing run holds it already
    const name = cx.code.fresh('r');
    cx.code.line(`const ${name} = ${cx.expr(v)};`);
    cx.readsOnce.set(k, name);
    held.push(k);
  }
  for (const n of run) emitNode(n, cx);
  for (const k of held) cx.readsOnce.delete(k);
}

function emitNode(n: TreeNode, cx: EmitContext): void {
  const code = cx.code;
  switch (n.kind) {
    case 'text':
      code.line(`o += ${lit(n.value)};`, cx.at(n));
      break;
    case 'output': {
      const out = n.node;
      if (out.ignored) {
        cx.warn(
          'W_IGNORED_TEXT',
          `"${out.ignored.slice(0, 40)}" after the value is ignored (Smarty 2 prints only the value and its modifiers)`,
          out,
        );
      }
      code.line(`o += str(${cx.expr(out.value)}); // ${cx.where(out)}`, cx.at(out));
      break;
    }
    case 'if':
      n.branches.forEach((b, i) => {
        const head = `${i === 0 ? 'if' : '} else if'} (${cx.condition(b.cond)}) { // ${cx.where(b)}`;
        code.line(head, cx.at(b));
        code.indent();
        emitNodes(b.body, cx);
        code.dedent();
      });
      if (n.otherwise) {
        code.line('} else {');
        code.indent();
        emitNodes(n.otherwise, cx);
        code.dedent();
      }
      code.line('}');
      break;
    case 'block': {
      if (n.tag.recovered) {
        // Its syntax error is reported; the body is compiled for errors of its own.
        emitNodes(n.body, cx);
        if (n.alt) emitNodes(n.alt, cx);
        break;
      }
      const builtin = builtinTag(n.tag.name);
      if (builtin?.kind === 'block') builtin.emit(n, cx);
      else emitBlockPlugin(n, cx);
      break;
    }
    case 'tag': {
      if (n.tag.recovered) break;
      const builtin = builtinTag(n.tag.name);
      if (builtin?.kind === 'tag') builtin.emit(n.tag, cx);
      else emitPluginTag(n.tag, cx);
      break;
    }
  }
}
