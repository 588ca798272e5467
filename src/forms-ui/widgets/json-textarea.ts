import { jsonTextToValue, valueToJsonText, type JsonSchema } from '../../forms/index.js';
import { el, onTextInput } from '../dom.js';
import { control, labelled, type Widget } from './widget.js';

function jsonExpect(schema: JsonSchema): 'object' | 'array' | 'any' {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('array')) return 'array';
  if (types.includes('object')) return 'object';
  return 'any';
}

/** A value edited as JSON text; text that is not JSON of the expected type keeps the stored value. */
export const jsonTextarea: Widget = (f, form) => {
  const c = el('textarea', { rows: '6', spellcheck: 'false', class: 'jf-json' });
  c.value = valueToJsonText(f.value);
  const expect = jsonExpect(f.node.schema);
  onTextInput(c, () => form.coerced(f.pointer, f.path, jsonTextToValue(c.value, expect)));
  return labelled(f, control(f, form, c));
};
