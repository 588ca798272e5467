import { el } from '../dom.js';
import { control, labelled, type Widget } from './widget.js';

/** One choice of the enum (labels from `enumNames`); a value outside it shows an empty choice. */
export const select: Widget = (f, form) => {
  const c = el('select');
  const options = f.node.options ?? [];
  const selected = options.findIndex((o) => o.value === f.value);
  if (selected < 0) {
    c.appendChild(el('option', { value: '' }, ''));
  }
  options.forEach((o, i) => {
    const opt = el('option', { value: String(i) }, o.label);
    if (i === selected) opt.selected = true;
    c.appendChild(opt);
  });
  if (selected < 0) c.value = '';
  c.addEventListener('change', () => {
    const o = c.value === '' ? undefined : options[Number(c.value)];
    form.setValue(f.path, o ? o.value : null);
    form.touch(f.pointer);
  });
  return labelled(f, control(f, form, c));
};
