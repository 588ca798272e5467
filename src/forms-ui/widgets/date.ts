import { dateInputToValue, valueToDateInput } from '../../forms/index.js';
import { el } from '../dom.js';
import { control, labelled, type Widget } from './widget.js';

export const date: Widget = (f, form) => {
  const c = el('input', { type: 'date' });
  c.value = valueToDateInput(f.value);
  c.addEventListener('input', () => form.coerced(f.pointer, f.path, dateInputToValue(c.value)));
  return labelled(f, control(f, form, c));
};
