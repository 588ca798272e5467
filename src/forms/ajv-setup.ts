/**
 * The one ajv 8 configuration used on the server and in the browser (docs/decisions.md
 * D44): strict mode on, allErrors, ajv-formats for date/date-time, our
 * formats file-manager/html/textarea, and the non-standard keywords declared with their own
 * meta-schemas so their shape is checked when a schema is compiled. They have no `code` or
 * `validate`, so they stay annotations. `nullable` is not declared: ajv already owns it (as
 * the OpenAPI keyword), so the form reads it and `stripNullable` removes it before compiling.
 */
import { Ajv, type Options } from 'ajv';
import formatsModule from 'ajv-formats';
import { FORMAT_OPTIONS, MINUTE_INTERVALS } from './keywords.js';
import { isSchema } from './schema-util.js';
import type { JsonSchema } from './types.js';

// ajv-formats is CommonJS with `exports.default`; under NodeNext (and in bundlers) the default
// import may be the module object or the plugin itself.
type FormatsPlugin = typeof formatsModule.default;
const addFormats: FormatsPlugin =
  (formatsModule as unknown as { default?: FormatsPlugin }).default ?? (formatsModule as unknown as FormatsPlugin);

/**
 * file-manager values are paths in the file storage, e.g. `/files/user/photo.jpg`, or `""`
 * when no file is chosen (requiredness comes from minLength). No control characters.
 */
export const FILE_PATH_RE = /^(?:|\/[^\u0000-\u001f\u007f]*)$/u;

const FORMAT_OPTION_SHAPES = {
  string: { type: 'string' },
  'string-or-number': { type: ['string', 'number'] },
  'string-or-boolean': { type: ['string', 'boolean'] },
} as const;

/** A format as ajv takes it: `true` (any string), a RegExp, or ajv-formats' `{validate, compare}`. */
export type FormFormat =
  | true
  | RegExp
  | { validate: ((s: string) => boolean) | RegExp; compare?: (a: string, b: string) => number | undefined };

/**
 * The formats every validator knows, as one object. ajv compiles against these definitions,
 * and precompiled (standalone) validators read the very same objects at run time
 * (`src/forms/standalone.ts`), so both judge a string identically.
 */
export function formFormats(): Record<string, FormFormat> {
  return {
    date: addFormats.get('date') as FormFormat,
    'date-time': addFormats.get('date-time') as FormFormat,
    html: true,
    textarea: true,
    'file-manager': FILE_PATH_RE,
  };
}

export function createAjv(extra: Options = {}): Ajv {
  const ajv = new Ajv({ strict: true, allErrors: true, verbose: true, messages: false, unicodeRegExp: true, ...extra });
  for (const [name, format] of Object.entries(formFormats()))
    ajv.addFormat(name, format as Parameters<Ajv['addFormat']>[1]);
  ajv.addKeyword({
    keyword: 'enumNames',
    schemaType: 'array',
    dependencies: ['enum'],
    metaSchema: { type: 'array', items: { type: 'string' } },
  });
  ajv.addKeyword({ keyword: 'rows', schemaType: 'number', metaSchema: { type: 'integer', minimum: 1 } });
  ajv.addKeyword({ keyword: 'minuteInterval', schemaType: 'number', metaSchema: { enum: [...MINUTE_INTERVALS] } });
  ajv.addKeyword({
    keyword: 'format_options',
    schemaType: 'object',
    metaSchema: {
      type: 'object',
      properties: Object.fromEntries(
        Object.entries(FORMAT_OPTIONS).map(([k, shape]) => [k, FORMAT_OPTION_SHAPES[shape]]),
      ),
      additionalProperties: false,
    },
  });
  return ajv;
}

/** A copy of the schema without `nullable` anywhere (docs/decisions.md D44). */
export function stripNullable(schema: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'nullable') continue;
    if (k === 'properties' && isSchema(v)) {
      out.properties = Object.fromEntries(
        Object.entries(v).map(([name, sub]) => [name, isSchema(sub) ? stripNullable(sub) : sub]),
      ) as Record<string, JsonSchema>;
    } else if (k === 'items' && isSchema(v)) {
      out.items = stripNullable(v);
    } else {
      out[k] = v;
    }
  }
  return out;
}
