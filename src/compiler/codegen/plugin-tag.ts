/**
 * Plugin tags ({assign}, {counter}, {api}...): a call of the plugin's implementation, with the
 * attributes checked here against its declaration. The tags the compiler writes itself are in
 * ../builtin-tags.ts.
 */
import type { Expr, Tag } from '../ast.js';
import type { AttrSpec, FunctionPlugin } from '../../plugins/types.js';
import { lit } from './builder.js';
import type { EmitContext } from './context.js';
import { attrMap, literalText } from './attrs.js';
import { describeUnknown } from './unknown-names.js';

export function emitPluginTag(tag: Tag, cx: EmitContext): void {
  const code = cx.code;
  const plugin = cx.plugins.findFunction(tag.name);
  if (!plugin) {
    const { code: errCode, message } = describeUnknown('tag', tag.name, cx.plugins);
    cx.error(errCode, message, tag);
    return;
  }
  if (!plugin.run && !plugin.host) {
    cx.error('E_NOT_IMPLEMENTED', `the tag {${tag.name}} is not implemented yet`, tag);
    return;
  }
  const fn = cx.functionAlias(plugin);
  const call = `${fn}(${pluginAttrs(tag, plugin, cx)}, $)`;
  if (plugin.kind === 'compiler') {
    code.line(`${call}; // ${cx.where(tag)}`, cx.at(tag));
  } else {
    const value = tag.modifiers.length ? cx.modifiers(call, tag.modifiers) : call;
    code.line(`o += str(${value}); // ${cx.where(tag)}`, cx.at(tag));
  }
}

/** The attribute object of a plugin call, checked against the plugin's declaration. */
export function pluginAttrs(tag: Tag, plugin: FunctionPlugin, cx: EmitContext): string {
  const attrs = attrMap(tag, cx);
  const fields: string[] = [];
  for (const [name, spec] of Object.entries(plugin.attrs)) {
    const a = attrs.get(name);
    if (!a) {
      if (spec.required) cx.error('E_MISSING_ATTR', `{${tag.name}} needs the attribute ${name}`, tag);
      continue;
    }
    checkLiteral(tag, name, spec, a.value, cx);
    if (spec.literalUnlessSuperUser) recordIdentityAttr(`${plugin.name}.${name}`, a.value, cx);
    fields.push(`${lit(name)}: ${attrValue(a.value, cx)}`);
  }
  const oneOf = plugin.requiresOneOf;
  if (oneOf && !oneOf.some((name) => attrs.has(name)))
    cx.error('E_MISSING_ATTR', `{${tag.name}} needs at least one of the attributes ${oneOf.join(', ')}`, tag);
  for (const [name, a] of attrs) {
    if (Object.hasOwn(plugin.attrs, name)) continue;
    if (!plugin.extraAttrs) {
      cx.error(
        'E_UNKNOWN_ATTR',
        `{${tag.name}} has no attribute ${name} (it takes: ${Object.keys(plugin.attrs).join(', ')})`,
        a,
      );
      continue;
    }
    fields.push(`${lit(name)}: ${attrValue(a.value, cx)}`);
  }
  return `{ __proto__: null${fields.map((f) => `, ${f}`).join('')} }`;
}

/**
 * A value read from a variable may be an array the variable still holds: mark it shared, so a
 * plugin that stores it elsewhere gets copy-on-write (php-array.ts). Literals are never shared.
 */
function attrValue(e: Expr, cx: EmitContext): string {
  const js = cx.expr(e);
  return e.type === 'String' || e.type === 'Number' || e.type === 'Bool' || e.type === 'Null' ? js : `share(${js})`;
}

/** What the host needs to enforce "a literal unless the render runs for a super user". */
function recordIdentityAttr(attr: string, value: Expr, cx: EmitContext): void {
  if (value.type === 'Number' && /^\d+$/.test(value.raw)) {
    const set = cx.aliases.identityLiterals.get(attr) ?? new Set<number>();
    set.add(Number(value.raw));
    cx.aliases.identityLiterals.set(attr, set);
    return;
  }
  const { line, column } = cx.src.position(value.start);
  cx.aliases.identityFromVariables.push({ attr, template: cx.src.name, line, column });
}

/** Literal attribute values are checked at compile time; the rest at run time. */
function checkLiteral(tag: Tag, name: string, spec: AttrSpec, value: Expr, cx: EmitContext): void {
  const text = value.type === 'Number' ? value.raw : literalText(value);
  if (text === null) return;
  if ((spec.type === 'int' || spec.type === 'number') && value.type !== 'Number' && !/^-?\d+(\.\d+)?$/.test(text)) {
    cx.error('E_BAD_ATTR', `{${tag.name}} ${name}= must be a number, not "${text.slice(0, 30)}"`, value);
  }
  if (spec.enum && !spec.enum.includes(text)) {
    cx.error(
      'E_BAD_ATTR',
      `{${tag.name}} ${name}= must be one of ${spec.enum.join(', ')}, not "${text.slice(0, 30)}"`,
      value,
    );
  }
}
