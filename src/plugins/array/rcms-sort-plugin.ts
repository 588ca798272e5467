/** The rcms_*sort modifiers: PHP's sort functions, returning the sorted copy. */
import { defineModifier, type ModifierPlugin, type Example } from '../types.js';
import { PhpArray } from '../../value/value.js';
import { phpSort, type SortKind } from '../../php/array/sort.js';

export function rcmsSort(kind: SortKind, summary: string, examples: Example[]): ModifierPlugin {
  return defineModifier({
    kind: 'modifier',
    name: `rcms_${kind}`,
    summary: `${summary} Returns the sorted array (PHP's ${kind} order, stable); a non-array input is returned unchanged. Use \`@\`.`,
    origin: 'platform',
    params: [],
    examples,
    run(input) {
      return input instanceof PhpArray ? phpSort(input, kind) : input;
    },
  });
}
