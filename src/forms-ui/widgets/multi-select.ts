import { el } from '../dom.js';
import { control, labelled, type Widget } from './widget.js';

export const multiSelect: Widget = (f, form) => {
  const c = el('select', { multiple: '' });
  const options = f.node.options ?? [];
  c.size = Math.min(Math.max(options.length, 2), 8);
  const current = Array.isArray(f.value) ? f.value : [];
  options.forEach((o, i) => {
    const opt = el('option', { value: String(i) }, o.label);
    opt.selected = current.some((v) => v === o.value);
    c.appendChild(opt);
  });
  c.addEventListener('change', () => {
    form.setValue(
      f.path,
      Array.from(c.selectedOptions).map((o) => options[Number(o.value)]!.value),
    );
    form.touch(f.pointer);
  });
  return labelled(f, control(f, form, c));
};
