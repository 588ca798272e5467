/**
 * Nesting depth as the form UI sees it (docs/decisions.md D43, spec "Nested structure support").
 *
 * Levels are the containers the form renders as nested groups, counted from the root as the
 * spec's table does: a root object is level 1; a root array of objects is level 1 and its
 * card objects level 2; below an object, an array of objects (cards) adds a level and each
 * card's object another. So object > array > object is 3 levels (supported),
 * array > object > array > object is 4 (refused), and a card holding its own cards under a
 * root object is object > array > object > array > object = 5 (refused).
 * Controls that edit a whole value in one widget are leaves and add no level: comma
 * textareas, multi-selects, and objects below the root that are not card items (they are
 * JSON textareas, edited as text). The limit is MAX_FORM_DEPTH = 3.
 */
import { detectControl } from './detect.js';
import { baseType, isSchema } from './schema-util.js';
import type { JsonSchema } from './types.js';

export interface DepthReport {
  /** Deepest level reached. */
  depth: number;
  /** Schema path (JSON-pointer segments) of the first cards array whose items go beyond `limit`, if any. */
  firstTooDeep?: string[];
}

export function formDepth(root: JsonSchema, limit: number): DepthReport {
  let firstTooDeep: string[] | undefined;
  const objectDepth = (schema: JsonSchema, level: number, path: string[]): number => {
    let max = level;
    const props = schema.properties;
    if (!isSchema(props)) return max;
    for (const [name, sub] of Object.entries(props)) {
      if (!isSchema(sub) || baseType(sub) !== 'array' || detectControl(sub) !== 'cards') continue;
      const arrayPath = [...path, 'properties', name];
      const itemLevel = level + 2;
      if (itemLevel > limit && !firstTooDeep) firstTooDeep = arrayPath;
      max = Math.max(max, objectDepth(sub.items ?? {}, itemLevel, [...arrayPath, 'items']));
    }
    return max;
  };
  let depth = 1;
  if (isSchema(root) && baseType(root) === 'object') depth = objectDepth(root, 1, []);
  else if (isSchema(root) && detectControl(root) === 'cards') depth = objectDepth(root.items ?? {}, 2, ['items']);
  return firstTooDeep ? { depth, firstTooDeep } : { depth };
}
