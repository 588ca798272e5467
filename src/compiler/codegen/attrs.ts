/** Attribute helpers shared by the tag emitters. */
import type { Attr, Expr, Tag } from '../ast.js';
import type { EmitContext } from './context.js';

export function attrMap(tag: Tag, cx: EmitContext): Map<string, Attr> {
  const m = new Map<string, Attr>();
  for (const a of tag.attrs) {
    if (a.name === '__proto__') {
      cx.error('E_BAD_ATTR', 'an attribute cannot be called __proto__', a);
      continue;
    }
    m.set(a.name, a); // Smarty 2: a repeated attribute, the last one wins
  }
  return m;
}

/** The text of an attribute that must be written literally (a variable name, a loop name). */
export function literalText(e: Expr): string | null {
  if (e.type === 'String') return e.value;
  if (e.type === 'Interp' && e.parts.every((p) => typeof p === 'string')) return e.parts.join('');
  if (e.type === 'Number') return e.raw;
  return null;
}

export function requireName(
  tag: Tag,
  attrs: Map<string, Attr>,
  name: string,
  cx: EmitContext,
  required: boolean,
): string | null {
  const a = attrs.get(name);
  if (!a) {
    if (required) cx.error('E_MISSING_ATTR', `{${tag.name}} needs the attribute ${name}`, tag);
    return null;
  }
  const text = literalText(a.value);
  if (text === null || !/^\w+$/.test(text)) {
    cx.error('E_BAD_ATTR', `{${tag.name}} ${name}= must be a plain name, like ${name}=item`, a);
    return null;
  }
  return text;
}

/**
 * A loop's name (`{foreach name=...}`, `{section name=...}`): a plain name, known while compiling,
 * or any other value, computed when the loop runs: Smarty 2 writes the attribute's value as the
 * key of its table of loops, so `name=$n` names the loop by `$n`'s value (D364). Text that is not
 * a plain name (`name="a b"`) stays refused.
 */
export type LoopName = { literal: string } | { value: Expr };

export function loopName(tag: Tag, attrs: Map<string, Attr>, cx: EmitContext, required: boolean): LoopName | null {
  const a = attrs.get('name');
  if (a && literalText(a.value) === null) return { value: a.value };
  // A number other than a plain integer (`1e3`, `1.5`, `-1`, `12345678901234567890`) is a PHP
  // literal in Smarty 2's code, so the loop is named by its value: the float 1000 names the loop
  // 1000, 1.5 the loop 1, and a section's `name` property is the float itself.
  if (a && a.value.type === 'Number' && !/^(?:0|[1-9]\d{0,14})$/.test(a.value.raw)) return { value: a.value };
  // Text that starts like a number but is none (`-0x1A`, `1.5.6`, `"1.5"`): a string name, as
  // Smarty 2 quotes it.
  const text = a ? literalText(a.value) : null;
  if (text !== null && /^-?[0-9]/.test(text)) return { literal: text };
  const name = requireName(tag, attrs, 'name', cx, required);
  return name === null ? null : { literal: name };
}

export function rejectUnknown(tag: Tag, attrs: Map<string, Attr>, allowed: readonly string[], cx: EmitContext): void {
  for (const [name, a] of attrs) {
    if (!allowed.includes(name))
      cx.error('E_UNKNOWN_ATTR', `{${tag.name}} has no attribute ${name} (allowed: ${allowed.join(', ')})`, a);
  }
}
