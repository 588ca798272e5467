/** The error for a tag or modifier name that has no implementation. */
import { FUNCTION_NAMES, MODIFIER_NAMES } from '../../plugins/catalog.js';
import type { PluginSet } from '../../plugins/plugin-set.js';
import { editDistance } from '../../text/edit-distance.js';
import type { ErrorCode } from '../../errors.js';
import { BUILTIN_TAG_NAMES } from '../builtin-tags.js';

export function describeUnknown(
  kind: 'modifier' | 'tag',
  name: string,
  plugins: PluginSet,
): { code: ErrorCode; message: string } {
  const catalog = kind === 'modifier' ? MODIFIER_NAMES : FUNCTION_NAMES;
  const shown = name.length > 80 ? `${name.slice(0, 80)}…` : name;
  const label = kind === 'modifier' ? `modifier "${shown}"` : `tag {${shown}}`;
  if (catalog.includes(name)) {
    return { code: 'E_NOT_IMPLEMENTED', message: `the ${label} is part of the language but not implemented yet` };
  }
  const known = kind === 'modifier' ? plugins.modifierNames() : [...plugins.functionNames(), ...BUILTIN_TAG_NAMES];
  // No known name is within reach of a long one, and the distance costs its length times each name's.
  const near = name.length <= 64 ? nearest(name, known) : null;
  const hint = near ? `; did you mean "${near}"?` : '';
  return { code: kind === 'modifier' ? 'E_UNKNOWN_MODIFIER' : 'E_UNKNOWN_TAG', message: `unknown ${label}${hint}` };
}

function nearest(name: string, candidates: readonly string[]): string | null {
  let best: string | null = null;
  let bestD = Infinity;
  for (const c of candidates) {
    const d = editDistance(name, c);
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  return best !== null && bestD <= Math.max(2, Math.floor(name.length / 3)) ? best : null;
}
