/**
 * Smarty 2's `$default_modifiers` (the engine's `defaultModifiers`, a site's `default_modifiers`):
 * modifier chains such as `escape:"html"` that Smarty 2 puts before the own modifiers of every
 * variable it compiles as a value (the grammar's withDefaults says where). They are read once,
 * as the modifiers of a variable, and the grammar places copies of them at each variable.
 */
import { parse as peggyParse, SyntaxError as PeggySyntaxError } from './parser.generated.js';
import type { Modifier } from './ast.js';

const read = new Map<string, Modifier[]>();

/**
 * The modifiers of `list` (each item one or more, `|`-separated, as Smarty 2 joins them), or a
 * one-line reason why they cannot be read.
 */
export function parseDefaultModifiers(list: readonly string[]): Modifier[] | { problem: string } {
  const chain = list.join('|');
  const known = read.get(chain);
  if (known) return known;
  if (list.some((m) => typeof m !== 'string' || m.trim() === ''))
    return { problem: 'each default modifier is a non-empty string such as escape:"html"' };
  const text = `{$_|${chain}}`;
  let nodes;
  try {
    nodes = peggyParse(text);
  } catch (e) {
    if (!(e instanceof PeggySyntaxError)) throw e;
    return { problem: `cannot read "${chain.slice(0, 60)}" as modifiers: ${e.message.replace(/^\[E_[A-Z_]+\] /, '')}` };
  }
  const only = nodes.length === 1 ? nodes[0] : null;
  if (
    only?.type !== 'Output' ||
    only.ignored !== '' ||
    only.value.type !== 'Modified' ||
    only.value.modifiers.length === 0
  ) {
    return {
      problem: `cannot read "${chain.slice(0, 60)}" as modifiers (write them as after a variable's |, e.g. escape:"html")`,
    };
  }
  const modifiers = only.value.modifiers;
  if (read.size > 100) read.clear();
  read.set(chain, modifiers);
  return modifiers;
}
