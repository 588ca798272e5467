/**
 * PHP functions that change the array passed by reference (sort, array_pop, shuffle...).
 * As modifiers they return what PHP returns (true, the popped value, the new count). Written
 * first in a chain on a variable (`{$list|@sort}`), they also update the variable, as on the
 * platform (docs/dialect.md, Safe access); anywhere else the input value is left alone. The rcms_*
 * modifiers return the sorted array instead.
 */
import {
  defineModifier,
  type Example,
  type ModifierContext,
  type ModifierParam,
  type ModifierPlugin,
} from '../types.js';
import type { Value } from '../../value/value.js';
import { arrayArg, intArg } from '../../php/args.js';
import { phpSort, SORT_REGULAR, type SortKind } from '../../php/array/sort.js';

export function sortFunction(kind: SortKind, summary: string, examples: Example[]): ModifierPlugin {
  return defineModifier({
    kind: 'modifier',
    name: kind,
    summary: `${summary} Returns true, as PHP does, and sorts the variable it is written on; the sorted array is not returned (use rcms_${kind} for that). Use \`@\`.`,
    origin: 'php',
    params: [
      {
        name: 'flags',
        type: 'int',
        default: SORT_REGULAR,
        doc: 'SORT_REGULAR (0), SORT_NUMERIC (1), SORT_STRING (2), with SORT_FLAG_CASE (8).',
      },
    ],
    examples,
    run(input, args, ctx) {
      return this.byReference!(input, args, ctx).result;
    },
    byReference(input, [flags]) {
      return { result: true, array: phpSort(arrayArg(input, kind, 1), kind, intArg(flags, kind, 2, 'flags')) };
    },
  });
}

export function mutatingFunction(
  name: string,
  summary: string,
  params: ModifierParam[],
  examples: Example[],
  mutate: (input: Value, args: Value[], ctx: ModifierContext) => { result: Value; array: Value },
): ModifierPlugin {
  return defineModifier({
    kind: 'modifier',
    name,
    summary,
    origin: 'php',
    params,
    examples,
    run: (input, args, ctx) => mutate(input, args, ctx).result,
    byReference: mutate,
  });
}
