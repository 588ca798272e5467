/**
 * {include} and {function}: stored templates and custom functions are compiled into the same
 * script, so their names must be written literally.
 * - {include file=... assign=... var=value...}: works on a copy of the caller's variables plus
 *   the extra attributes; nothing it assigns leaks back (Smarty 2).
 * - {function name=... | id=... var=... p=value...}: runs in a scope of its own holding only the
 *   extra attributes; its {return value=...} goes to `var`; what it prints is dropped.
 */
import type { Attr, Tag } from '../ast.js';
import { lit } from './builder.js';
import type { EmitContext } from './context.js';
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
    cx.error(
      'E_DYNAMIC_INCLUDE',
      '{include file=...} must name the template literally: templates are compiled ahead of the sandbox',
      file,
    );
    return;
  }
  const ref = cx.includeRef(name, file.value);
  if (!ref) return;
  const call = `$.include(${ref}, s, ${passedOn(attrs, ['file', 'assign'], cx)})`;
  const assign = attrs.get('assign');
  if (assign) cx.code.line(`$.assign(s, str(${cx.expr(assign.value)}), ${call}); // ${cx.where(tag)}`, cx.at(tag));
  else cx.code.line(`o += ${call}; // ${cx.where(tag)}`, cx.at(tag));
}

export function emitFunctionCall(tag: Tag, cx: EmitContext): void {
  const attrs = attrMap(tag, cx);
  const key = attrs.get('name') ?? attrs.get('id');
  const target = attrs.get('var');
  if (!key) {
    cx.error('E_MISSING_ATTR', '{function} needs name= (the identifier) or id=', tag);
    return;
  }
  if (!target) {
    cx.error('E_MISSING_ATTR', '{function} needs the attribute var', tag);
    return;
  }
  const keyText = literalText(key.value);
  if (keyText === null) {
    cx.error(
      'E_DYNAMIC_INCLUDE',
      '{function name=...} must name the custom function literally: functions are compiled ahead of the sandbox',
      key,
    );
    return;
  }
  const ref = cx.functionRef(keyText, key.value);
  if (!ref) return;
  const call = `$.callFunction(${ref}, ${passedOn(attrs, ['name', 'id', 'var'], cx)})`;
  cx.code.line(`$.assign(s, str(${cx.expr(target.value)}), ${call}); // ${cx.where(tag)}`, cx.at(tag));
}

/** The attributes other than `own`: the variables the template or function starts with. */
function passedOn(attrs: Map<string, Attr>, own: readonly string[], cx: EmitContext): string {
  const params: string[] = [];
  for (const [k, a] of attrs) {
    if (!own.includes(k)) params.push(`${lit(k)}: ${cx.expr(a.value)}`);
  }
  return `{ __proto__: null${params.map((p) => `, ${p}`).join('')} }`;
}
