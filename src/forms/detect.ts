/**
 * The spec's "Automatic field type detection" table as one pure function.
 *
 * | Schema                              | ControlKind     |
 * |-------------------------------------|-----------------|
 * | string                              | text            |
 * | string + enum                       | select          |
 * | string + format date                | date            |
 * | string + format date-time           | datetime        |
 * | string + format file-manager        | file-manager    |
 * | string + format html                | rich-text       |
 * | string + format textarea            | textarea        |
 * | number / integer                    | number          |
 * | number / integer + enum             | number-select   |
 * | boolean                             | checkbox        |
 * | array + items.type string           | comma-textarea  |
 * | array + items.enum                  | multi-select    |
 * | array + items.type object           | cards           |
 * | object                              | json-textarea   |
 *
 * Decisions (README.md):
 * - A union `[T, "null"]` is detected as T (one control; null is the empty value).
 * - `enum` wins over `format` for strings (a select of dates is still a select).
 * - `items.enum` wins over `items.type` (an enum of strings is a multi-select).
 * - Anything the table does not cover (no type, a union of two non-null types, arrays of
 *   numbers or booleans, arrays without `items`) falls back to `json-textarea`, so a value
 *   can always be edited as JSON. lintSchema reports the cases that need the author's care.
 */
import { baseType, hasEnum, isSchema } from './schema-util.js';
import type { ControlKind, JsonSchema } from './types.js';

export function detectControl(schema: JsonSchema): ControlKind {
  const type = baseType(schema);
  switch (type) {
    case 'string':
      if (hasEnum(schema)) return 'select';
      switch (schema.format) {
        case 'date':
          return 'date';
        case 'date-time':
          return 'datetime';
        case 'file-manager':
          return 'file-manager';
        case 'html':
          return 'rich-text';
        case 'textarea':
          return 'textarea';
        default:
          return 'text';
      }
    case 'number':
    case 'integer':
      return hasEnum(schema) ? 'number-select' : 'number';
    case 'boolean':
      return 'checkbox';
    case 'array': {
      const items = schema.items;
      if (!isSchema(items)) return 'json-textarea';
      if (hasEnum(items)) return 'multi-select';
      const itemType = baseType(items);
      if (itemType === 'object') return 'cards';
      if (itemType === 'string') return 'comma-textarea';
      return 'json-textarea';
    }
    default:
      return 'json-textarea';
  }
}

/** Kinds whose required mark comes from `nullable: false` (spec: enum, date, date-time, number, integer). */
export const NULLABLE_MARKED: ReadonlySet<ControlKind> = new Set([
  'select',
  'number-select',
  'date',
  'datetime',
  'number',
]);

/** Kinds whose required mark comes from `minLength >= 1` (spec: string). */
export const MINLENGTH_MARKED: ReadonlySet<ControlKind> = new Set(['text', 'textarea', 'rich-text', 'file-manager']);

/** Kinds whose required mark comes from the enclosing object's `required` array (spec: array, object). */
export const REQUIRED_ARRAY_MARKED: ReadonlySet<ControlKind> = new Set([
  'comma-textarea',
  'multi-select',
  'cards',
  'json-textarea',
]);
