/**
 * {foreach from=... item=... key=... name=...}: iterates over a snapshot of the array (PHP
 * iterates a copy). A non-array value loops once with itself, null loops zero times. Item and
 * key stay assigned after the loop; with name=, $smarty.foreach.NAME.* is kept up to date.
 */
import type { BlockNode } from '../structure.js';
import { enterLoop, lit, checkOutput } from './builder.js';
import type { EmitContext } from './context.js';
import { attrMap, requireName } from './attrs.js';

export function emitForeach(n: BlockNode, cx: EmitContext): void {
  const tag = n.tag;
  const attrs = attrMap(tag, cx);
  const from = attrs.get('from');
  if (!from) cx.error('E_MISSING_ATTR', '{foreach} needs the attribute from', tag);
  const item = requireName(tag, attrs, 'item', cx, true);
  const key = requireName(tag, attrs, 'key', cx, false);
  const name = requireName(tag, attrs, 'name', cx, false);
  const code = cx.code;
  const it = code.fresh('it');
  const i = code.fresh('i');
  code.line(`{ // ${cx.where(tag)} foreach`, cx.at(tag));
  code.indent();
  const w = enterLoop(code);
  code.line(`const ${it} = each(${from ? cx.expr(from.value) : 'null'});`, cx.at(tag));
  const loop = name ? code.fresh('loop') : null;
  if (loop) code.line(`const ${loop} = $.foreachStart(${lit(name!)}, ${it}.n);`);
  code.line(`for (let ${i} = 0; ${i} < ${it}.n; ${i}++) {`);
  code.indent();
  checkOutput(code);
  if (loop) code.line(`${loop}.iteration = ${i} + 1;`);
  if (key) code.line(`s[${lit(key)}] = ${it}.key(${i});`);
  if (item) code.line(`s[${lit(item)}] = ${it}.vals[${i}];`);
  cx.loopDepth++;
  if (loop) cx.foreachLoops.push({ name: name!, state: loop });
  cx.emitNodes(n.body);
  if (loop) cx.foreachLoops.pop();
  cx.loopDepth--;
  code.dedent();
  code.line('}');
  code.line(`P[0] = ${w};`);
  if (n.alt) {
    code.line(`if (${it}.n === 0) {`);
    code.indent();
    cx.emitNodes(n.alt);
    code.dedent();
    code.line('}');
  }
  code.dedent();
  code.line('}');
}
