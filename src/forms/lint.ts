/**
 * `lintSchema(schema)`: checks a form schema before anything else uses it, with en/ja
 * messages from our catalogue. Levels (types.ts `IssueLevel`):
 *
 * | code                              | level   | why                                                        |
 * |-----------------------------------|---------|------------------------------------------------------------|
 * | schema-not-object                 | error   | a sub-schema that is not an object                         |
 * | unknown-keyword                   | error   | closed keyword set (keywords.ts); ajv strict would throw    |
 * | type-missing / type-invalid       | error   | detection needs a type                                     |
 * | type-union                        | error   | only `[T, "null"]` unions (ajv strict needs allowUnionTypes) |
 * | keyword-not-applicable            | error   | spec "Applies to" column; ajv strictTypes would throw        |
 * | value-invalid                     | error   | keyword value of the wrong shape                           |
 * | enumnames-without-enum            | error   | enumNames are labels of enum                               |
 * | enumnames-length                  | error   | labels and values must be parallel                         |
 * | default-not-in-enum               | error   | the initial value could never be valid                     |
 * | nullable-contradicts-type         | error   | `nullable: false` with null in `type`                      |
 * | format-unknown                    | error   | ajv strict throws on unknown formats                       |
 * | format-options-unknown-key        | error   | spec table only (D8: reject, to catch typos; see README)    |
 * | minute-interval-invalid           | error   | 1,2,3,4,5,6,10,12,15,20,30                                  |
 * | min-greater-than-max              | error   | minItems>maxItems, minLength>maxLength, minimum>maximum     |
 * | pattern-invalid                   | error   | must compile with the `u` flag, as ajv compiles it          |
 * | required-unknown                  | error   | ajv strictRequired would throw                             |
 * | depth-exceeded                    | form    | decisions.md D43: form UI refused, JSON editor still works  |
 * | root-not-object                   | form    | the root must be an object or an array of objects (cards)  |
 * | enum-null-type                    | warning | [K] uses it on purpose to force a choice                    |
 * | enum-duplicate                    | warning | the select would show the value twice                      |
 * | nullable-no-effect                | warning | nullable only marks enum/date/date-time/number/integer      |
 * | rows-without-textarea             | warning | ignored without format textarea                            |
 * | format-options-without-html       | warning | ignored without format html                                |
 * | minute-interval-without-datetime  | warning | ignored without format date-time                           |
 * | items-missing                     | warning | edited as JSON text                                        |
 */
import { NULLABLE_MARKED, detectControl } from './detect.js';
import { formDepth } from './depth.js';
import { FORMATS, FORMAT_OPTIONS, KEYWORDS, MAX_FORM_DEPTH, MINUTE_INTERVALS, suggest } from './keywords.js';
import { message, type MessageKey, type MessageParams } from './messages.js';
import { allowsNull, baseType, hasEnum, isSchema, jsonEqual, pointer, typesOf } from './schema-util.js';
import type { Issue, IssueLevel } from './types.js';

const TYPE_NAMES = new Set(['string', 'integer', 'number', 'boolean', 'array', 'object', 'null']);

type Shape =
  | 'string'
  | 'boolean'
  | 'number'
  | 'non-negative-integer'
  | 'positive-integer'
  | 'string-array'
  | 'non-empty-array'
  | 'object'
  | 'schema';

const SHAPES: Record<string, Shape> = {
  title: 'string',
  description: 'string',
  $schema: 'string',
  $id: 'string',
  $comment: 'string',
  enum: 'non-empty-array',
  enumNames: 'string-array',
  format: 'string',
  rows: 'positive-integer',
  format_options: 'object',
  nullable: 'boolean',
  required: 'string-array',
  minLength: 'non-negative-integer',
  maxLength: 'non-negative-integer',
  minimum: 'number',
  maximum: 'number',
  minItems: 'non-negative-integer',
  maxItems: 'non-negative-integer',
  pattern: 'string',
  properties: 'object',
  items: 'schema',
  minuteInterval: 'number',
  uniqueItems: 'boolean',
  additionalProperties: 'boolean',
};

function hasShape(v: unknown, shape: Shape): boolean {
  switch (shape) {
    case 'string':
      return typeof v === 'string';
    case 'boolean':
      return typeof v === 'boolean';
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'non-negative-integer':
      return typeof v === 'number' && Number.isInteger(v) && v >= 0;
    case 'positive-integer':
      return typeof v === 'number' && Number.isInteger(v) && v >= 1;
    case 'string-array':
      return Array.isArray(v) && v.every((x) => typeof x === 'string');
    case 'non-empty-array':
      return Array.isArray(v) && v.length > 0;
    case 'object':
    case 'schema':
      return isSchema(v);
  }
}

/** Lints a form schema. An empty result means the schema is fine for validation and the form UI. */
/**
 * A "type" value as messages show it. The messages quote it ("text" is not a type, 「text」),
 * so a string is given as written: its JSON would show the quotes twice. A list or another
 * value is shown as JSON.
 */
function typeText(type: unknown): string {
  return typeof type === 'string' ? type : JSON.stringify(type);
}

export function lintSchema(schema: unknown): Issue[] {
  const issues: Issue[] = [];
  const add = (level: IssueLevel, code: string, path: string[], params: MessageParams = {}) => {
    issues.push({ level, code, schemaPath: pointer(path), message: message(`lint.${code}` as MessageKey, params) });
  };

  const walk = (s: unknown, path: string[]): void => {
    if (!isSchema(s)) {
      add('error', 'schema-not-object', path);
      return;
    }
    // Keywords and their value shapes.
    let shapesOk = true;
    for (const [kw, v] of Object.entries(s)) {
      if (!Object.hasOwn(KEYWORDS, kw)) {
        add('error', 'unknown-keyword', [...path, kw], { keyword: kw, suggestion: suggest(kw, Object.keys(KEYWORDS)) });
        continue;
      }
      const shape = SHAPES[kw];
      if (shape && !hasShape(v, shape)) {
        shapesOk = false;
        add('error', 'value-invalid', [...path, kw], {
          keyword: kw,
          expected: message(`word.expected.${shape}` as MessageKey),
        });
      }
    }

    // Type.
    const types = typesOf(s);
    if (s.type === undefined) {
      add('error', 'type-missing', path);
    } else if (types.length === 0 || types.some((t) => typeof t !== 'string' || !TYPE_NAMES.has(t))) {
      add('error', 'type-invalid', [...path, 'type'], { type: typeText(s.type) });
    } else if (baseType(s) === undefined) {
      add('error', types.every((t) => t === 'null') ? 'type-invalid' : 'type-union', [...path, 'type'], {
        type: typeText(s.type),
      });
    }
    const base = baseType(s);

    // Applicability (spec "Applies to").
    if (base) {
      for (const kw of Object.keys(s)) {
        const applies = KEYWORDS[kw];
        if (!applies || applies === '*') continue;
        if (!applies.includes(base)) add('error', 'keyword-not-applicable', [...path, kw], { keyword: kw, type: base });
      }
    }

    // enum / enumNames / default.
    if (s.enumNames !== undefined && s.enum === undefined)
      add('error', 'enumnames-without-enum', [...path, 'enumNames']);
    if (hasEnum(s) && Array.isArray(s.enumNames) && s.enumNames.length !== s.enum.length) {
      add('error', 'enumnames-length', [...path, 'enumNames'], { names: s.enumNames.length, values: s.enum.length });
    }
    if (hasEnum(s)) {
      s.enum.forEach((v, i) => {
        if (s.enum.findIndex((w) => jsonEqual(v, w)) < i)
          add('warning', 'enum-duplicate', [...path, 'enum', String(i)], { value: JSON.stringify(v) });
      });
      if (s.default !== undefined && !s.enum.some((v) => jsonEqual(v, s.default))) {
        add('error', 'default-not-in-enum', [...path, 'default'], { value: JSON.stringify(s.default) });
      }
      if (base && s.enum.includes(null) && !allowsNull(s)) add('warning', 'enum-null-type', [...path, 'enum']);
    }

    // nullable.
    if (s.nullable === false && allowsNull(s)) add('error', 'nullable-contradicts-type', [...path, 'nullable']);
    if (typeof s.nullable === 'boolean' && base && !NULLABLE_MARKED.has(detectControl(s))) {
      add('warning', 'nullable-no-effect', [...path, 'nullable']);
    }

    // format and its companions.
    if (typeof s.format === 'string' && !FORMATS.some((f) => f === s.format)) {
      add('error', 'format-unknown', [...path, 'format'], { format: s.format });
    }
    if (s.rows !== undefined && s.format !== 'textarea') add('warning', 'rows-without-textarea', [...path, 'rows']);
    if (s.format_options !== undefined && s.format !== 'html') {
      add('warning', 'format-options-without-html', [...path, 'format_options']);
    }
    if (isSchema(s.format_options)) {
      for (const [key, v] of Object.entries(s.format_options)) {
        const kind = FORMAT_OPTIONS[key];
        const at = [...path, 'format_options', key];
        if (!kind) {
          add('error', 'format-options-unknown-key', at, {
            key,
            suggestion: suggest(key, Object.keys(FORMAT_OPTIONS)),
          });
          continue;
        }
        const ok =
          typeof v === 'string' ||
          (kind === 'string-or-number' && typeof v === 'number') ||
          (kind === 'string-or-boolean' && typeof v === 'boolean');
        if (!ok)
          add('error', 'value-invalid', at, {
            keyword: `format_options.${key}`,
            expected: message(`word.expected.${kind}` as MessageKey),
          });
      }
    }
    if (s.minuteInterval !== undefined) {
      if (!MINUTE_INTERVALS.some((m) => m === s.minuteInterval)) {
        add('error', 'minute-interval-invalid', [...path, 'minuteInterval'], {
          value: JSON.stringify(s.minuteInterval),
        });
      }
      if (s.format !== 'date-time') add('warning', 'minute-interval-without-datetime', [...path, 'minuteInterval']);
    }

    // Bounds.
    for (const [min, max] of [
      ['minLength', 'maxLength'],
      ['minimum', 'maximum'],
      ['minItems', 'maxItems'],
    ] as const) {
      const a = s[min];
      const b = s[max];
      if (typeof a === 'number' && typeof b === 'number' && a > b) {
        add('error', 'min-greater-than-max', [...path, min], { min, max, minValue: a, maxValue: b });
      }
    }

    // pattern compiles as ajv compiles it (unicodeRegExp: the `u` flag).
    if (typeof s.pattern === 'string') {
      try {
        new RegExp(s.pattern, 'u');
      } catch {
        add('error', 'pattern-invalid', [...path, 'pattern'], { pattern: JSON.stringify(s.pattern) });
      }
    }

    // Objects.
    if (Array.isArray(s.required) && shapesOk) {
      const props = isSchema(s.properties) ? s.properties : {};
      for (const name of s.required) {
        if (!Object.hasOwn(props, name)) add('error', 'required-unknown', [...path, 'required'], { name });
      }
    }
    if (isSchema(s.properties)) {
      for (const [name, sub] of Object.entries(s.properties)) walk(sub, [...path, 'properties', name]);
    }

    // Arrays.
    if (base === 'array' && s.items === undefined) add('warning', 'items-missing', path);
    if (s.items !== undefined) walk(s.items, [...path, 'items']);
  };

  walk(schema, []);

  if (isSchema(schema) && baseType(schema) !== undefined) {
    if (baseType(schema) !== 'object' && detectControl(schema) !== 'cards') {
      add('form', 'root-not-object', []);
    } else {
      const report = formDepth(schema, MAX_FORM_DEPTH);
      if (report.firstTooDeep)
        add('form', 'depth-exceeded', report.firstTooDeep, { depth: report.depth, limit: MAX_FORM_DEPTH });
    }
  }
  return issues;
}

/** Issues that make the schema unusable everywhere (validator and form). */
export function schemaErrors(issues: readonly Issue[]): Issue[] {
  return issues.filter((i) => i.level === 'error');
}

/** Issues that make the form UI refuse the schema (errors plus form-only refusals). */
export function formRefusals(issues: readonly Issue[]): Issue[] {
  return issues.filter((i) => i.level === 'error' || i.level === 'form');
}
