/**
 * JSON-schema forms for JSON-type extension fields: the form model and validation.
 * Pure TypeScript without Node or DOM APIs; the same module runs on the server and in the
 * browser. See README.md in this folder for the decisions.
 */
export type {
  ControlKind,
  FieldError,
  Issue,
  IssueLevel,
  JsonSchema,
  JsonValue,
  LocalizedMessage,
  Path,
  SchemaTypeName,
} from './types.js';
export { lintSchema, schemaErrors, formRefusals } from './lint.js';
export { detectControl } from './detect.js';
export { requiredMark } from './required.js';
export { initialValue } from './initial.js';
export { buildForm, optionsOf, type BuiltForm, type FieldNode, type GroupNode, type SelectOption } from './build.js';
export { formDepth } from './depth.js';
export {
  addAfter,
  addButtons,
  cardOperations,
  moveDown,
  moveUp,
  remove,
  type CardRefusal,
  type CardResult,
} from './cards.js';
export { getAt, schemaAt, setAt } from './value-path.js';
export {
  applyJsonText,
  commaTextToList,
  dateInputToValue,
  datetimeInputToValue,
  jsonTextToValue,
  listToCommaText,
  numberToText,
  slashDatetimeToValue,
  slashDateToValue,
  textToNumber,
  valueToDateInput,
  valueToDatetimeInput,
  valueToSlashDate,
  valueToSlashDatetime,
  valueToJsonText,
  type Coerced,
  type TimeZoneOptions,
} from './coerce.js';
export {
  createValidator,
  validatorFromCompiled,
  fieldOf,
  type CompiledValidate,
  type FormValidator,
  type ValidatedError,
} from './validator.js';
export { createAjv, formFormats, stripNullable, FILE_PATH_RE, type FormFormat } from './ajv-setup.js';
export { FormSchemaError } from './schema-error.js';
export { catalogue, message, type MessageKey } from './messages.js';
export { KEYWORDS, CUSTOM_KEYWORDS, FORMATS, FORMAT_OPTIONS, MINUTE_INTERVALS, MAX_FORM_DEPTH } from './keywords.js';
