/**
 * {section name=... loop=... start= step= max= show=}: Smarty 2's counted loop. The runtime
 * computes start/step/total exactly as Smarty_Compiler does; properties stay after the loop.
 */
import type { BlockNode } from '../structure.js';
import { enterLoop, lit, checkOutput } from './builder.js';
import type { EmitContext } from './context.js';
import { attrMap, rejectUnknown, requireName } from './attrs.js';

const SECTION_ATTRS = ['name', 'loop', 'start', 'step', 'max', 'show'];

export function emitSection(n: BlockNode, cx: EmitContext): void {
  const tag = n.tag;
  const attrs = attrMap(tag, cx);
  rejectUnknown(tag, attrs, SECTION_ATTRS, cx);
  const name = requireName(tag, attrs, 'name', cx, true) ?? 'section';
  const arg = (k: string) => {
    const a = attrs.get(k);
    return a ? cx.expr(a.value) : 'undefined';
  };
  const code = cx.code;
  const sec = code.fresh('sec');
  code.line(`{ // ${cx.where(tag)} section`, cx.at(tag));
  code.indent();
  const w = enterLoop(code);
  code.line(
    `const ${sec} = $.sectionStart(${lit(name)}, { loop: ${arg('loop')}, start: ${arg('start')}, step: ${arg('step')}, max: ${arg('max')}, show: ${arg('show')} });`,
    cx.at(tag),
  );
  code.line(`if (${sec}.show) for (${sec}.index = ${sec}.start, ${sec}.iteration = 1; ${sec}.iteration <= ${sec}.total; ${sec}.index += ${sec}.step, ${sec}.iteration++) {`);
  code.indent();
  checkOutput(code);
  cx.loopDepth++;
  cx.emitNodes(n.body);
  cx.loopDepth--;
  code.dedent();
  code.line('}');
  code.line(`P[0] = ${w};`);
  if (n.alt) {
    code.line(`if (!${sec}.show) {`);
    code.indent();
    cx.emitNodes(n.alt);
    code.dedent();
    code.line('}');
  }
  code.dedent();
  code.line('}');
}
