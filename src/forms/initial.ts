/**
 * Initial values (spec "Initial value determination"), applied in this order:
 *   1. `default` when set (deep-copied; an object default is used as is, not merged);
 *   2. else `null` when `enum` contains null;
 *   3. else `enum[0]` (so a numeric enum selects its first value).
 * For schemas without default and enum (not covered by the spec; our decisions, README.md):
 *   - text, textarea, rich text, file path: `""`, or `null` when the type allows null;
 *   - date, date-time, number, integer: `null` (an empty picker / numeric input);
 *   - checkbox: `false`;
 *   - object: every property's initial value, recursively (so `required` is satisfied by
 *     presence and the editor sees every field);
 *   - array: `[]`, except cards (arrays of objects) with `minItems >= 1`, which start
 *     with `minItems` items, each the initial value of `items` ("minItems forces at least
 *     one item"). String lists and multi-selects start empty: padding them with "" would
 *     invent values; the validator reports the missing items instead.
 */
import { detectControl } from './detect.js';
import { allowsNull, baseType, clone, hasEnum, isSchema } from './schema-util.js';
import type { JsonSchema, JsonValue } from './types.js';

export function initialValue(schema: JsonSchema): JsonValue {
  if (schema.default !== undefined) return clone(schema.default);
  if (hasEnum(schema) && schema.enum.length > 0) {
    if (schema.enum.includes(null)) return null;
    return clone(schema.enum[0]!);
  }
  switch (baseType(schema)) {
    case 'object': {
      const out: Record<string, JsonValue> = {};
      const props = schema.properties;
      if (isSchema(props)) {
        for (const [name, sub] of Object.entries(props)) {
          if (isSchema(sub)) out[name] = initialValue(sub);
        }
      }
      return out;
    }
    case 'array': {
      const items = schema.items;
      if (detectControl(schema) === 'cards' && isSchema(items)) {
        const n = typeof schema.minItems === 'number' ? schema.minItems : 0;
        return Array.from({ length: n }, () => initialValue(items));
      }
      return [];
    }
    case 'boolean':
      return false;
    case 'string': {
      const kind = detectControl(schema);
      if (kind === 'date' || kind === 'datetime') return null;
      return allowsNull(schema) ? null : '';
    }
    default:
      return null;
  }
}
