import { el, onTextInput } from '../dom.js';
import { control, emptyText, labelled, type Field, type FormContext, type Rendered, type Widget } from './widget.js';

function textControl(f: Field, form: FormContext, c: HTMLInputElement | HTMLTextAreaElement): Rendered {
  c.value = typeof f.value === 'string' ? f.value : '';
  onTextInput(c, () => form.setValue(f.path, c.value === '' ? emptyText(f.node) : c.value));
  return labelled(f, control(f, form, c));
}

export const text: Widget = (f, form) => textControl(f, form, el('input', { type: 'text' }));

export const textarea: Widget = (f, form) => textControl(f, form, el('textarea', { rows: String(f.node.rows ?? 3) }));
