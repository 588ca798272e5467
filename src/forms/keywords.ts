/**
 * The closed keyword set of the form schemas: the spec's keyword table, the Kuroco extra
 * `minuteInterval`, and a few standard keywords accepted on purpose. Anything else is an
 * `unknown-keyword` lint error (ajv's strict mode would throw on it anyway).
 */
import type { SchemaTypeName } from './types.js';
import { editDistance } from '../text/edit-distance.js';

/** Which JSON types each keyword applies to (`'*'` = all), from the spec's "Applies to" column. */
export const KEYWORDS: Readonly<Record<string, readonly SchemaTypeName[] | '*'>> = {
  type: '*',
  title: '*',
  description: '*',
  default: '*',
  // "string, integer, number, array items": items are schemas of those types, so enum lives on them.
  enum: ['string', 'integer', 'number', 'boolean', 'null'],
  enumNames: ['string', 'integer', 'number', 'boolean', 'null'],
  format: ['string'],
  rows: ['string'],
  format_options: ['string'],
  // Read for the required mark of enum, date, date-time, number and integer fields; elsewhere a warning.
  nullable: '*',
  required: ['object'],
  minLength: ['string'],
  maxLength: ['string'],
  pattern: ['string'],
  minimum: ['integer', 'number'],
  maximum: ['integer', 'number'],
  minItems: ['array'],
  maxItems: ['array'],
  properties: ['object'],
  items: ['array'],
  // The platform's extra: the date-time picker's minute step.
  minuteInterval: ['string'],
  // Standard keywords accepted beyond the spec's table (documented in README.md).
  $schema: '*',
  $id: '*',
  $comment: '*',
  uniqueItems: ['array'],
  additionalProperties: ['object'],
};

/** Non-standard keywords declared to ajv with their own meta-schema (docs/decisions.md D44). */
export const CUSTOM_KEYWORDS = ['enumNames', 'rows', 'format_options', 'minuteInterval'] as const;

/** The formats of the spec. date/date-time come from ajv-formats, the rest are ours. */
export const FORMATS = ['date', 'date-time', 'file-manager', 'html', 'textarea'] as const;

/** format_options keys, exactly the spec's table, with the value shapes the Kuroco page uses. */
export const FORMAT_OPTIONS: Readonly<Record<string, 'string' | 'string-or-number' | 'string-or-boolean'>> = {
  height: 'string-or-number',
  width: 'string-or-number',
  toolbar: 'string',
  use_markdown: 'string-or-boolean',
  subscript: 'string-or-boolean',
  removePlugins: 'string',
  use_font_size_px: 'string-or-boolean',
  largeColorPalette: 'string-or-boolean',
  customColors: 'string',
  use_magicline: 'string-or-boolean',
  custom_css: 'string',
  resource: 'string',
};

/** The minute steps the Kuroco date-time picker supports. */
export const MINUTE_INTERVALS = [1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30] as const;

/** Nesting limit for the form UI (docs/decisions.md D43). */
export const MAX_FORM_DEPTH = 3;

/** Closest candidate within edit distance 2, for "did you mean" hints. */
export function suggest(word: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestD = 3;
  for (const c of candidates) {
    const d = editDistance(word.toLowerCase(), c.toLowerCase());
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  return best;
}
