/**
 * {break} and {continue} become JavaScript's own inside the loop the generated code runs;
 * {return} throws the render state's stop, which the template function catches (index.ts).
 */
import type { Tag } from '../ast.js';
import type { EmitContext } from './context.js';
import { attrMap } from './attrs.js';

export function emitLoopJump(tag: Tag, cx: EmitContext): void {
  if (cx.loopDepth === 0) {
    cx.error('E_OUTSIDE_LOOP', `{${tag.name}} is only allowed inside {foreach} or {section}`, tag);
    return;
  }
  cx.code.line(`${tag.name}; // ${cx.where(tag)}`, cx.at(tag));
}

export function emitReturn(tag: Tag, cx: EmitContext): void {
  const attrs = attrMap(tag, cx);
  const value = attrs.get('value');
  cx.code.line(`throw $.stop(${value ? cx.expr(value.value) : 'null'}); // ${cx.where(tag)}`, cx.at(tag));
}
