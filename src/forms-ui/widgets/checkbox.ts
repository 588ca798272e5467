import { el } from '../dom.js';
import { control, type Widget } from './widget.js';

/** The box before its label. */
export const checkbox: Widget = (f, form) => {
  const c = el('input', { type: 'checkbox' });
  c.checked = f.value === true;
  c.addEventListener('change', () => {
    form.setValue(f.path, c.checked);
    form.touch(f.pointer);
  });
  control(f, form, c);
  return { control: c, row: [c, f.label] };
};
