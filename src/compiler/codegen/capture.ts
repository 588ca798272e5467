/** {capture name=... assign=... append=...}: the body's output goes to $smarty.capture.NAME. */
import type { BlockNode } from '../structure.js';
import type { EmitContext } from './context.js';
import { attrMap, rejectUnknown } from './attrs.js';

export function emitCapture(n: BlockNode, cx: EmitContext): void {
  const tag = n.tag;
  const attrs = attrMap(tag, cx);
  rejectUnknown(tag, attrs, ['name', 'assign', 'append'], cx);
  const arg = (k: string) => {
    const a = attrs.get(k);
    return a ? cx.expr(a.value) : 'null';
  };
  const code = cx.code;
  const saved = code.fresh('outer');
  code.line(`{ // ${cx.where(tag)} capture`, cx.at(tag));
  code.indent();
  code.line(`const ${saved} = o;`);
  code.line('o = "";');
  // try/finally: a {break} or {return} inside the capture must still restore the outer output.
  code.line('try {');
  code.indent();
  cx.emitNodes(n.body);
  code.dedent();
  code.line('} finally {');
  code.indent();
  code.line(`$.captureEnd(${arg('name')}, o, ${arg('assign')}, ${arg('append')});`);
  code.line(`o = ${saved};`);
  code.dedent();
  code.line('}');
  code.dedent();
  code.line('}');
}
