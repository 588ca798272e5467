import {
  datetimeInputToValue,
  slashDatetimeToValue,
  valueToDatetimeInput,
  valueToSlashDatetime,
} from '../../forms/index.js';
import { el, onTextInput } from '../dom.js';
import { DATE_HINT } from './date.js';
import { control, labelled, type Widget } from './widget.js';

/**
 * `datetime-local` in the site's time zone; `step` is minuteInterval minutes, else one second.
 * On a Japanese page, text in the Japanese order, `YYYY/MM/DD HH:mm:ss` (see ./date.ts).
 */
export const datetime: Widget = (f, form) => {
  if (form.lang() === 'ja') {
    const c = el('input', {
      type: 'text',
      class: 'jf-datetime-text',
      placeholder: `${DATE_HINT} HH:mm:ss`,
      autocomplete: 'off',
    });
    c.value = valueToSlashDatetime(f.value, form.timeZone());
    onTextInput(c, () => form.coerced(f.pointer, f.path, slashDatetimeToValue(c.value, form.timeZone())));
    return labelled(f, control(f, form, c));
  }
  const c = el('input', { type: 'datetime-local', step: String((f.node.minuteInterval ?? 0) * 60 || 1) });
  c.value = valueToDatetimeInput(f.value, form.timeZone());
  c.addEventListener('input', () => form.coerced(f.pointer, f.path, datetimeInputToValue(c.value, form.timeZone())));
  return labelled(f, control(f, form, c));
};
