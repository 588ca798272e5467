/** Tree nodes to statements. Each construct has its own emitter file. */
import type { TreeNode } from '../structure.js';
import { lit } from './builder.js';
import type { EmitContext } from './context.js';
import { emitForeach } from './foreach.js';
import { emitSection } from './section.js';
import { emitCapture } from './capture.js';
import { emitTag } from './tag.js';
import { emitBlockPlugin } from './block-plugin.js';

export function emitNodes(nodes: TreeNode[], cx: EmitContext): void {
  for (const n of nodes) emitNode(n, cx);
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
        cx.warn('W_IGNORED_TEXT', `"${out.ignored.slice(0, 40)}" after the value is ignored (Smarty 2 prints only the value and its modifiers)`, out);
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
    case 'block':
      switch (n.tag.name) {
        case 'foreach':
          emitForeach(n, cx);
          break;
        case 'section':
          emitSection(n, cx);
          break;
        case 'capture':
          emitCapture(n, cx);
          break;
        case 'strip':
          // The text was stripped when the tree was built.
          emitNodes(n.body, cx);
          break;
        default:
          emitBlockPlugin(n, cx);
      }
      break;
    case 'tag':
      emitTag(n.tag, cx);
      break;
  }
}
