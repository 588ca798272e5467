/**
 * `createValidator(schema)`: lints the schema, compiles it with the shared ajv setup, and
 * returns `validate(value) -> FieldError[]` with messages from our en/ja catalogue.
 *
 * Mapping from ajv errors to ours (README.md "Validation messages"):
 * - `required`: located at the missing property (`/a/b` rather than `/a`).
 * - `type` where the value is `null` and the type does not allow null: reported as
 *   `required` (an empty select, date or number input writes null; spec: "a type that does
 *   not allow null makes input required"; also the [K] enum-with-null pattern).
 * - `minLength` where the value is `""`: reported as `required` (the spec's string rule).
 * - `enum`: lists the allowed choices by their enumNames labels when present.
 * - `format`: a message per format (date, date-time, file-manager).
 * - When a field has a `required` error, other errors at the same path are dropped: the
 *   editor has to fill it in first, and one message per empty field reads better.
 * Every error also carries `field`, the pointer of the form control that shows it (a
 * comma textarea shows the errors of its items; a JSON textarea those of its content).
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import { createAjv, stripNullable } from './ajv-setup.js';
import { detectControl } from './detect.js';
import { schemaErrors, lintSchema } from './lint.js';
import { message, typeWord, type MessageKey } from './messages.js';
import { FormSchemaError } from './schema-error.js';
import { allowsNull, baseType, isSchema, pointerSegment } from './schema-util.js';
import type { FieldError, Issue, JsonSchema, LocalizedMessage } from './types.js';

export interface FormValidator {
  readonly schema: JsonSchema;
  /** Lint findings that did not refuse the schema (warnings, form-only refusals). */
  readonly issues: readonly Issue[];
  validate(value: unknown): ValidatedError[];
}

export interface ValidatedError extends FieldError {
  /** Pointer of the form control that shows this error. */
  field: string;
}

/** What ajv's compile returns, and what a precompiled (standalone) validator module exports. */
export type CompiledValidate = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

function lintOrThrow(schema: unknown): Issue[] {
  const issues = lintSchema(schema);
  const errors = schemaErrors(issues);
  if (errors.length > 0) {
    throw new FormSchemaError(
      'schema-invalid',
      message('schema.invalid', { count: errors.length, first: errors[0]!.message }),
      issues,
    );
  }
  return issues;
}

/**
 * Throws FormSchemaError (code `schema-invalid`) when the schema has lint errors or does not
 * compile. Throws the EvalError itself when the page's Content-Security-Policy forbids
 * `new Function` (that is not a problem of the schema: use a precompiled validator,
 * `validatorFromCompiled`).
 */
export function createValidator(schema: unknown): FormValidator {
  const issues = lintOrThrow(schema);
  const s = schema as JsonSchema;
  let compiled: ValidateFunction;
  try {
    compiled = createAjv().compile(stripNullable(s));
  } catch (e) {
    if (e instanceof EvalError) throw e;
    const detail = e instanceof Error ? e.message : String(e);
    throw new FormSchemaError(
      'schema-invalid',
      message('schema.compile', { detail: { en: detail, ja: detail } }),
      issues,
    );
  }
  return wrap(s, issues, compiled);
}

/**
 * A validator over a function ajv compiled elsewhere (the standalone code of
 * `standaloneValidatorScript`, made on the server): the same lint and the same error
 * mapping as `createValidator`, without compiling anything (no `new Function`).
 */
export function validatorFromCompiled(schema: unknown, compiled: CompiledValidate): FormValidator {
  return wrap(schema as JsonSchema, lintOrThrow(schema), compiled);
}

function wrap(s: JsonSchema, issues: Issue[], compiled: CompiledValidate): FormValidator {
  return {
    schema: s,
    issues,
    validate(value: unknown): ValidatedError[] {
      if (compiled(value)) return [];
      const mapped = (compiled.errors ?? []).map((e) => mapError(e, s));
      const requiredAt = new Set(mapped.filter((e) => e.keyword === 'required').map((e) => e.path));
      return mapped.filter((e) => e.keyword === 'required' || !requiredAt.has(e.path));
    },
  };
}

function mapError(e: ErrorObject, root: JsonSchema): ValidatedError {
  const parent: JsonSchema = isSchema(e.parentSchema) ? e.parentSchema : {};
  const params: Record<string, unknown> = e.params;
  let path = e.instancePath;
  let keyword = e.keyword;
  let msg: LocalizedMessage;
  const key = (k: string) => `validate.${k}` as MessageKey;
  switch (e.keyword) {
    case 'required':
      path += '/' + pointerSegment(String(params.missingProperty));
      msg = message('validate.required');
      break;
    case 'type':
      if (e.data === null && !allowsNull(parent)) {
        keyword = 'required';
        msg = message('validate.required');
      } else {
        msg = message('validate.type', { type: typeWord(baseType(parent) ?? String(params.type)) });
      }
      break;
    case 'minLength':
      if (e.data === '') {
        keyword = 'required';
        msg = message('validate.required');
      } else {
        msg = message('validate.minLength', { limit: Number(params.limit) });
      }
      break;
    case 'maxLength':
    case 'minimum':
    case 'maximum':
    case 'minItems':
    case 'maxItems':
      msg = message(key(e.keyword), { limit: Number(params.limit) });
      break;
    case 'uniqueItems': {
      const [a, b] = [Number(params.i), Number(params.j)];
      msg = message('validate.uniqueItems', { first: Math.min(a, b) + 1, second: Math.max(a, b) + 1 });
      break;
    }
    case 'pattern':
      msg = message('validate.pattern', { pattern: String(params.pattern) });
      break;
    case 'enum': {
      const values = Array.isArray(parent.enum) ? parent.enum : [];
      const names =
        Array.isArray(parent.enumNames) && parent.enumNames.length === values.length ? parent.enumNames : undefined;
      const list = values.map((v, i) => (names ? names[i]! : JSON.stringify(v))).join(', ');
      const listJa = values.map((v, i) => (names ? names[i]! : JSON.stringify(v))).join('、');
      msg = message('validate.enum', { allowed: { en: list, ja: listJa } });
      break;
    }
    case 'format': {
      const f = String(params.format);
      keyword = `format`;
      msg =
        f === 'date' || f === 'date-time' || f === 'file-manager'
          ? message(key(`format.${f}`))
          : message('validate.format', { format: f });
      break;
    }
    case 'additionalProperties':
      path += '/' + pointerSegment(String(params.additionalProperty));
      msg = message('validate.additionalProperties', { property: String(params.additionalProperty) });
      break;
    default:
      msg = message('validate.invalid');
  }
  return { path, keyword, ajvKeyword: e.keyword, message: msg, field: fieldOf(path, root) };
}

/**
 * The pointer of the control that shows a value path: walks object properties and card
 * indexes (root object or root cards > card object > ...); stops at the first leaf control.
 */
export function fieldOf(path: string, root: JsonSchema): string {
  const segs = path === '' ? [] : path.slice(1).split('/');
  let schema: JsonSchema = root;
  let out = '';
  let i = 0;
  for (;;) {
    if (detectControl(schema) === 'cards' && baseType(schema) === 'array') {
      if (i >= segs.length) return out;
      out += '/' + segs[i]!; // the card index
      i++;
      schema = schema.items ?? {};
    }
    if (baseType(schema) !== 'object' || !isSchema(schema.properties) || i >= segs.length) return out;
    const seg = segs[i]!;
    const prop: unknown = schema.properties[seg.replace(/~1/g, '/').replace(/~0/g, '~')];
    out += '/' + seg;
    i++;
    if (!isSchema(prop) || detectControl(prop) !== 'cards') return out;
    schema = prop;
  }
}
