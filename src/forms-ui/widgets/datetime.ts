import { datetimeInputToValue, valueToDatetimeInput } from '../../forms/index.js';
import { el } from '../dom.js';
import { control, labelled, type Widget } from './widget.js';

/** `datetime-local` in the site's time zone; `step` is minuteInterval minutes, else one second. */
export const datetime: Widget = (f, form) => {
  const c = el('input', { type: 'datetime-local', step: String((f.node.minuteInterval ?? 0) * 60 || 1) });
  c.value = valueToDatetimeInput(f.value, form.timeZone());
  c.addEventListener('input', () => form.coerced(f.pointer, f.path, datetimeInputToValue(c.value, form.timeZone())));
  return labelled(f, control(f, form, c));
};
