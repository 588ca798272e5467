/**
 * Which names the language leaves to an engine's own plugins (docs/decisions.md D66): a name the
 * grammar reads as a tag or modifier name, that no built-in plugin, alias or compiler tag holds,
 * and that the spec does not reserve for a plugin still to be built (plugins/catalog.ts). Tags
 * and modifiers are separate namespaces, as in templates: a tag may share a modifier's name.
 */
import { FUNCTION_NAMES, MODIFIER_NAMES } from '../plugins/catalog.js';
import type { PluginSet } from '../plugins/plugin-set.js';
import { BUILTIN_TAG_NAMES } from './builtin-tags.js';

/** The grammar's Name (grammar/template.peggy: tags, attributes, modifiers), and no longer than an unknown name gets a hint for. */
export const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** Tags the grammar parses before it looks for a name: `{php}` is a block of its own. */
const GRAMMAR_TAGS: ReadonlySet<string> = new Set(['php']);

/** Why `name` may not name an engine's own tag or modifier, or null when it may. */
export function pluginNameProblem(kind: 'tag' | 'modifier', name: unknown, builtIn: PluginSet): string | null {
  if (typeof name !== 'string' || !NAME.test(name)) {
    return `${JSON.stringify(name)?.slice(0, 80) ?? String(name)} is not a ${kind} name: letters, digits and _, not starting with a digit, at most 64 characters`;
  }
  if (kind === 'modifier') {
    if (builtIn.findModifier(name)) return `"${name}" is a built-in modifier`;
    if (MODIFIER_NAMES.includes(name))
      return `"${name}" is a modifier of the language (not implemented yet), reserved for it`;
    return null;
  }
  if (builtIn.findFunction(name)) return `{${name}} is a built-in tag`;
  if (BUILTIN_TAG_NAMES.includes(name) || GRAMMAR_TAGS.has(name))
    return `{${name}} is a tag the compiler writes itself`;
  if (FUNCTION_NAMES.includes(name)) return `{${name}} is a tag of the language (not implemented yet), reserved for it`;
  return null;
}
