/**
 * PHP functions that change the array passed by reference (sort, array_pop, shuffle...).
 * As modifiers they return what PHP returns (true, the popped value, the new count); the
 * input value is not changed, since a modifier receives a value, not the variable
 * (kuroco-dialect.md §1.5). The rcms_* modifiers return the sorted array instead.
 */
import { defineModifier, type Example, type ModifierParam, type ModifierPlugin } from '../types.js';
import type { Value } from '../../runtime/value.js';
import { argArray, argInt } from '../../php/array/args.js';
import { phpSort, SORT_REGULAR, type SortKind } from '../../php/array/sort.js';

export function sortFunction(kind: SortKind, summary: string, examples: Example[]): ModifierPlugin {
  return defineModifier({
    kind: 'modifier',
    name: kind,
    summary: `${summary} Returns true, as PHP does; the sorted array is not returned (use rcms_${kind} for that). Use \`@\`.`,
    origin: 'php',
    params: [{ name: 'flags', type: 'int', default: SORT_REGULAR, doc: 'SORT_REGULAR (0), SORT_NUMERIC (1), SORT_STRING (2), with SORT_FLAG_CASE (8).' }],
    examples,
    run(input, [flags]) {
      phpSort(argArray(input, kind, 1), kind, argInt(flags, kind, 2, 'flags'));
      return true;
    },
  });
}

export function mutatingFunction(
  name: string,
  summary: string,
  params: ModifierParam[],
  examples: Example[],
  run: (input: Value, args: Value[]) => Value,
): ModifierPlugin {
  return defineModifier({ kind: 'modifier', name, summary, origin: 'php', params, examples, run });
}
