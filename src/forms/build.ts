/**
 * `buildForm(schema)`: the tree of controls the form UI renders. Pure data, no DOM.
 *
 * - The root object is a group whose children are its properties, in schema order. A root
 *   array of objects (spec: "array of objects, 2 levels, supported") is a cards field.
 * - Each property becomes a field of the kind `detectControl` picks, with `label` from
 *   `title` (the property name when there is none), `help` from `description`, the
 *   required mark from required.ts, `options` for selects (enum values stored, enumNames
 *   shown), `rows` for textareas, `formatOptions` for rich text, `minuteInterval` for
 *   date-time pickers, bounds for numbers and arrays.
 * - A cards field carries `item`, the group of one card (the item object's properties);
 *   `minItems`/`maxItems` travel with it for the card operations (cards.ts).
 * - A schema the form cannot show (lint `error` or `form` issues: bad schema, non-object
 *   root, deeper than three levels) is refused with FormSchemaError `form-refused`, whose
 *   message suggests splitting into linked fields for the depth case; the JSON editor
 *   remains available for such schemas.
 */
import { detectControl } from './detect.js';
import { formRefusals, lintSchema } from './lint.js';
import { message } from './messages.js';
import { requiredMark } from './required.js';
import { FormSchemaError } from './schema-error.js';
import { allowsNull, baseType, hasEnum, isSchema, pointer } from './schema-util.js';
import type { ControlKind, Issue, JsonSchema, JsonValue } from './types.js';

export interface SelectOption {
  /** The stored value (from `enum`). */
  value: JsonValue;
  /** The displayed label (from `enumNames`, else the value as text; null shows as ""). */
  label: string;
}

export interface FieldNode {
  kind: ControlKind;
  /** Property name in the enclosing object (the root group or a card). */
  name: string;
  /** JSON pointer of the field's schema inside the root schema. */
  schemaPath: string;
  label: string;
  help?: string;
  /** Shows the required mark (required.ts). */
  required: boolean;
  /** The type admits null (`[T, "null"]`); an emptied control stores null. */
  nullable: boolean;
  /** integer or number, for numeric controls (step 1 for integers). */
  numberType?: 'integer' | 'number';
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  options?: SelectOption[];
  rows?: number;
  formatOptions?: Record<string, unknown>;
  minuteInterval?: number;
  minItems?: number;
  maxItems?: number;
  /** For cards: the group of one card. */
  item?: GroupNode;
  schema: JsonSchema;
}

export interface GroupNode {
  kind: 'group';
  schemaPath: string;
  label?: string;
  help?: string;
  children: FieldNode[];
  schema: JsonSchema;
}

export interface BuiltForm {
  /**
   * A group for a root object; for a root array of objects, a cards field with name ""
   * whose value path is [] (the whole value).
   */
  root: GroupNode | FieldNode;
  /** Lint warnings of the schema (nothing that refuses the form). */
  warnings: Issue[];
}

/** Builds the form tree; throws FormSchemaError `form-refused` when the form UI cannot show the schema. */
export function buildForm(schema: unknown): BuiltForm {
  const issues = lintSchema(schema);
  const refusals = formRefusals(issues);
  if (refusals.length > 0) {
    throw new FormSchemaError('form-refused', message('form.refused', { first: refusals[0]!.message }), issues);
  }
  const s = schema as JsonSchema;
  // A root array has no enclosing `required` array, so it shows no mark; its minItems still
  // forces the first cards.
  const root = baseType(s) === 'object' ? group(s, []) : field('', s, [], false);
  return { root, warnings: issues.filter((i) => i.level === 'warning') };
}

function group(schema: JsonSchema, path: string[]): GroupNode {
  const children: FieldNode[] = [];
  const props = isSchema(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  for (const [name, sub] of Object.entries(props)) {
    children.push(field(name, sub, [...path, 'properties', name], required.has(name)));
  }
  const g: GroupNode = { kind: 'group', schemaPath: pointer(path), children, schema };
  if (typeof schema.title === 'string') g.label = schema.title;
  if (typeof schema.description === 'string') g.help = schema.description;
  return g;
}

export function optionsOf(schema: JsonSchema): SelectOption[] {
  const values = hasEnum(schema) ? schema.enum : [];
  const names = Array.isArray(schema.enumNames) ? schema.enumNames : [];
  return values.map((value, i) => ({ value, label: names[i] ?? (value === null ? '' : String(value)) }));
}

function field(name: string, schema: JsonSchema, path: string[], listed: boolean): FieldNode {
  const kind = detectControl(schema);
  const node: FieldNode = {
    kind,
    name,
    schemaPath: pointer(path),
    label: typeof schema.title === 'string' && schema.title !== '' ? schema.title : name,
    required: requiredMark(schema, listed),
    nullable: allowsNull(schema),
    schema,
  };
  if (typeof schema.description === 'string') node.help = schema.description;
  const base = baseType(schema);
  if (base === 'integer' || base === 'number') node.numberType = base;
  for (const k of ['minimum', 'maximum', 'minLength', 'maxLength', 'minItems', 'maxItems'] as const) {
    if (typeof schema[k] === 'number') node[k] = schema[k];
  }
  switch (kind) {
    case 'select':
    case 'number-select':
      node.options = optionsOf(schema);
      break;
    case 'multi-select':
      node.options = optionsOf(schema.items ?? {});
      break;
    case 'textarea':
      if (typeof schema.rows === 'number') node.rows = schema.rows;
      break;
    case 'rich-text':
      node.formatOptions = isSchema(schema.format_options) ? { ...schema.format_options } : {};
      break;
    case 'datetime':
      if (typeof schema.minuteInterval === 'number') node.minuteInterval = schema.minuteInterval;
      break;
    case 'cards':
      node.item = group(schema.items ?? {}, [...path, 'items']);
      break;
    default:
      break;
  }
  return node;
}
