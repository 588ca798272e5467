/**
 * The spec's "Marking a field as required" table:
 *
 * | Field kind                               | Mark when                                        |
 * |------------------------------------------|--------------------------------------------------|
 * | enum, date, date-time, number, integer   | `nullable: false`                                |
 * | string (text, textarea, html, file path) | `minLength >= 1`                                 |
 * | array, object                            | the property is in the enclosing `required` list |
 *
 * "For non-array, non-object types, requiredness comes from the property's own settings,
 * not from the required array": a string listed in `required` but without `minLength`
 * gets no mark. Booleans (checkboxes) are never marked: a checkbox always holds a value.
 * `minItems >= 1` does not add a mark; it forces at least one item (cards.ts, initial.ts).
 */
import { MINLENGTH_MARKED, NULLABLE_MARKED, REQUIRED_ARRAY_MARKED, detectControl } from './detect.js';
import type { JsonSchema } from './types.js';

/**
 * @param listedInParentRequired whether the property name is in the enclosing object's
 *   `required` array (only consulted for arrays and objects).
 */
export function requiredMark(schema: JsonSchema, listedInParentRequired: boolean): boolean {
  const kind = detectControl(schema);
  if (NULLABLE_MARKED.has(kind)) return schema.nullable === false;
  if (MINLENGTH_MARKED.has(kind)) return typeof schema.minLength === 'number' && schema.minLength >= 1;
  if (REQUIRED_ARRAY_MARKED.has(kind)) return listedInParentRequired;
  return false; // checkbox
}
