/**
 * Shared types of the JSON-schema form model. Everything in src/forms is plain TypeScript
 * with no Node or DOM API, so the same code runs on the server and in the browser.
 */

/** A message in both languages of the product, always from our own catalogue (messages.ts). */
export interface LocalizedMessage {
  en: string;
  ja: string;
}

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** The schema keywords of the spec (plus minuteInterval and a few standard annotations, see keywords.ts). */
export interface JsonSchema {
  type?: SchemaTypeName | SchemaTypeName[];
  title?: string;
  description?: string;
  enum?: JsonValue[];
  enumNames?: string[];
  default?: JsonValue;
  format?: string;
  rows?: number;
  format_options?: Record<string, unknown>;
  nullable?: boolean;
  required?: string[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  pattern?: string;
  properties?: Record<string, JsonSchema>;
  additionalProperties?: boolean;
  items?: JsonSchema;
  minuteInterval?: number;
  [keyword: string]: unknown;
}

export type SchemaTypeName = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object' | 'null';

/** A path into a value: property names and array indexes. */
export type Path = ReadonlyArray<string | number>;

/**
 * The form control chosen for a schema by the spec's detection table (detect.ts).
 * `comma-textarea` is the spec's "comma-separated textarea" for arrays of strings.
 */
export type ControlKind =
  | 'text'
  | 'select'
  | 'date'
  | 'datetime'
  | 'file-manager'
  | 'rich-text'
  | 'textarea'
  | 'number'
  | 'number-select'
  | 'checkbox'
  | 'comma-textarea'
  | 'multi-select'
  | 'cards'
  | 'json-textarea';

/**
 * How bad a lint finding is.
 * - `error`: the schema is refused everywhere (validator and form).
 * - `form`: the schema is valid JSON Schema and can be validated and edited in the JSON
 *   editor, but the form UI refuses it (docs/decisions.md D43: too deep; non-object root).
 * - `warning`: shown to the schema author, nothing is refused.
 */
export type IssueLevel = 'error' | 'form' | 'warning';

export interface Issue {
  level: IssueLevel;
  /** Stable code, e.g. `unknown-keyword`; the message catalogue key is `lint.<code>`. */
  code: string;
  /** JSON pointer into the schema, e.g. `/properties/items/items/properties/name`. */
  schemaPath: string;
  message: LocalizedMessage;
}

/** One validation error of a value, located at the field it concerns. */
export interface FieldError {
  /** JSON pointer into the value, pointing at the field (for `required`: the missing property). */
  path: string;
  /** Our keyword (see validator.ts for how ajv's keywords map onto ours). */
  keyword: string;
  /** The ajv keyword that produced it (differs from `keyword` for mapped errors). */
  ajvKeyword: string;
  message: LocalizedMessage;
}
