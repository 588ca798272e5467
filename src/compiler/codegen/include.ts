/**
 * {include file=... assign=... var=value...}: stored templates are compiled into the same
 * script, so `file` must be written literally. The included template works on a copy of the
 * caller's variables plus the extra attributes; nothing it assigns leaks back (Smarty 2).
 */
import type { Tag } from '../ast.js';
import { lit } from './builder.js';
import type { EmitContext } from './context.js';
import { compileExpr } from './expr.js';
import { attrMap, literalText } from './attrs.js';

export function emitInclude(tag: Tag, cx: EmitContext): void {
  const attrs = attrMap(tag, cx);
  const file = attrs.get('file');
  if (!file) {
    cx.error('E_MISSING_ATTR', '{include} needs the attribute file', tag);
    return;
  }
  const name = literalText(file.value);
  if (name === null) {
    cx.error('E_DYNAMIC_INCLUDE', '{include file=...} must name the template literally: templates are compiled ahead of the sandbox', file);
    return;
  }
  const ref = cx.includeRef(name, file);
  if (!ref) return;
  const params: string[] = [];
  for (const [k, a] of attrs) {
    if (k === 'file' || k === 'assign') continue;
    params.push(`${lit(k)}: ${compileExpr(a.value, cx)}`);
  }
  const call = `$.include(${ref}, s, { __proto__: null${params.map((p) => `, ${p}`).join('')} })`;
  const assign = attrs.get('assign');
  if (assign) cx.code.line(`$.assign(s, str(${compileExpr(assign.value, cx)}), ${call}); // ${cx.where(tag)}`, cx.at(tag));
  else cx.code.line(`o += ${call}; // ${cx.where(tag)}`, cx.at(tag));
}
