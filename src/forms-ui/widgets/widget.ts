/**
 * The contract of a widget: the control of one kind of form field (ControlKind of src/forms),
 * built from the field and the form it belongs to. `<json-field-form>` lays out the row around
 * it (help text, error slot) and keeps the table of widgets in ./index.ts.
 */
import type { Coerced, ControlKind, FieldNode, JsonValue, Path } from '../../forms/index.js';
import type { FileManagerAdapter, RichTextAdapter, RichTextInstance } from '../adapters.js';
import type { Lang, UiText } from '../ui-text.js';

/** The kinds a widget renders; `cards` is a list of groups the element lays out itself. */
export type WidgetKind = Exclude<ControlKind, 'cards'>;

/** A field about to be rendered. */
export interface Field {
  node: FieldNode;
  path: Path;
  /** JSON pointer of the value: the key of the field's error slot. */
  pointer: string;
  /** The control's id; the label's is `${id}-label`. */
  id: string;
  /** The stored value at `path` when the field is rendered (null when absent). */
  value: JsonValue;
  /** The field's label (`for` = id), already holding its text and required mark. */
  label: HTMLLabelElement;
  /** Ids of the help and error elements, for aria-describedby. */
  describedBy: string;
}

/** What a widget may ask of its form. Functions, not values: handlers ask when they run. */
export interface FormContext {
  t(): UiText;
  lang(): Lang;
  timeZone(): { timeZone?: string };
  richText(): RichTextAdapter;
  fileManager(): FileManagerAdapter;
  /** The value at `path` now (undefined when absent). */
  valueAt(path: Path): JsonValue | undefined;
  setValue(path: Path, v: JsonValue): void;
  /** Stores a coerced text's value, or shows its coercion error and keeps the stored value. */
  coerced(pointer: string, path: Path, r: Coerced<JsonValue>): void;
  /** The field was changed or left: its errors may show. */
  touch(pointer: string): void;
  /** An editor to destroy before the next render. */
  keepEditor(editor: RichTextInstance): void;
}

export interface Rendered {
  /** The element that gets aria-invalid, and focus on a submit with errors. */
  control: HTMLElement;
  /** The row's elements before the help text, in order (most widgets: the label, then the control). */
  row: HTMLElement[];
}

export type Widget = (f: Field, form: FormContext) => Rendered;

/** Makes `c` the field's control: its id, aria-describedby, aria-required, errors after blur. */
export function control<T extends HTMLElement>(f: Field, form: FormContext, c: T): T {
  c.id = f.id;
  c.setAttribute('aria-describedby', f.describedBy);
  if (f.node.required) c.setAttribute('aria-required', 'true');
  c.addEventListener('blur', () => form.touch(f.pointer));
  return c;
}

/** The usual row: the label, then the control. */
export function labelled(f: Field, c: HTMLElement): Rendered {
  return { control: c, row: [f.label, c] };
}

/** What an emptied text control stores: null where the type admits it, else "". */
export function emptyText(node: FieldNode): JsonValue {
  return node.nullable ? null : '';
}
