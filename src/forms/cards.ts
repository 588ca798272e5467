/**
 * Card operations of the repeating card UI (arrays of objects), on the value model:
 * pure functions that return a new root value or a typed refusal the UI shows as the
 * spec's alert.
 *
 * - `addAfter(schema, value, path, index)` inserts a new card (the initial value of
 *   `items`) after card `index`; `index = -1` inserts at the top (the lone Add shown when
 *   there are no cards). Refused with `max-items` when the array already has `maxItems`
 *   (or more) items.
 * - `remove(...)` deletes card `index`; refused with `min-items` when the count would fall
 *   below `minItems` (also when the loaded value is already below it).
 * - `moveUp` / `moveDown` swap with the neighbour; at the top (bottom) they return the
 *   value unchanged (`changed: false`): the UI disables those buttons.
 * - `addButtons(count)` lists where Add buttons go, as `after` indexes: one below each card,
 *   and with zero cards only the first Add (`[-1]`).
 * An index outside the array throws RangeError (a programming error, not a user action).
 */
import { initialValue } from './initial.js';
import { message } from './messages.js';
import { isSchema } from './schema-util.js';
import type { JsonSchema, JsonValue, LocalizedMessage, Path } from './types.js';
import { getAt, schemaAt, setAt } from './value-path.js';

export interface CardRefusal {
  code: 'max-items' | 'min-items';
  limit: number;
  message: LocalizedMessage;
}

export type CardResult = { ok: true; value: JsonValue; changed: boolean } | { ok: false; refusal: CardRefusal };

/** Positions of the Add buttons, as "insert after card i" indexes (-1 = at the top). */
export function addButtons(count: number): number[] {
  return count === 0 ? [-1] : Array.from({ length: count }, (_, i) => i);
}

function arrayAt(schema: JsonSchema, value: JsonValue, path: Path): { list: JsonValue[]; arraySchema: JsonSchema } {
  const arraySchema = schemaAt(schema, path);
  if (!arraySchema || !isSchema(arraySchema.items)) throw new RangeError(`no array schema at ${JSON.stringify(path)}`);
  const cur = getAt(value, path);
  const list = Array.isArray(cur) ? cur : [];
  return { list, arraySchema };
}

function checkIndex(index: number, length: number, lowest = 0): void {
  if (!Number.isInteger(index) || index < lowest || index >= length) {
    throw new RangeError(`card index ${index} out of range (length ${length})`);
  }
}

export function addAfter(schema: JsonSchema, value: JsonValue, path: Path, index: number): CardResult {
  const { list, arraySchema } = arrayAt(schema, value, path);
  checkIndex(index, list.length, -1);
  const max = arraySchema.maxItems;
  if (typeof max === 'number' && list.length >= max) {
    return {
      ok: false,
      refusal: { code: 'max-items', limit: max, message: message('card.max-items', { limit: max }) },
    };
  }
  const next = list.slice();
  next.splice(index + 1, 0, initialValue(arraySchema.items ?? {}));
  return { ok: true, value: setAt(value, path, next), changed: true };
}

export function remove(schema: JsonSchema, value: JsonValue, path: Path, index: number): CardResult {
  const { list, arraySchema } = arrayAt(schema, value, path);
  checkIndex(index, list.length);
  const min = arraySchema.minItems;
  if (typeof min === 'number' && list.length - 1 < min) {
    return {
      ok: false,
      refusal: { code: 'min-items', limit: min, message: message('card.min-items', { limit: min }) },
    };
  }
  const next = list.slice();
  next.splice(index, 1);
  return { ok: true, value: setAt(value, path, next), changed: true };
}

function move(schema: JsonSchema, value: JsonValue, path: Path, index: number, delta: -1 | 1): CardResult {
  const { list } = arrayAt(schema, value, path);
  checkIndex(index, list.length);
  const to = index + delta;
  if (to < 0 || to >= list.length) return { ok: true, value, changed: false };
  const next = list.slice();
  [next[index], next[to]] = [next[to]!, next[index]!];
  return { ok: true, value: setAt(value, path, next), changed: true };
}

export function moveUp(schema: JsonSchema, value: JsonValue, path: Path, index: number): CardResult {
  return move(schema, value, path, index, -1);
}

export function moveDown(schema: JsonSchema, value: JsonValue, path: Path, index: number): CardResult {
  return move(schema, value, path, index, 1);
}

/** The same operations bound to one root schema: `cards(schema).addAfter(value, path, i)`. */
export function cardOperations(schema: JsonSchema) {
  return {
    addButtons,
    addAfter: (value: JsonValue, path: Path, index: number) => addAfter(schema, value, path, index),
    remove: (value: JsonValue, path: Path, index: number) => remove(schema, value, path, index),
    moveUp: (value: JsonValue, path: Path, index: number) => moveUp(schema, value, path, index),
    moveDown: (value: JsonValue, path: Path, index: number) => moveDown(schema, value, path, index),
  };
}
