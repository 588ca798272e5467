import { dateInputToValue, slashDateToValue, valueToDateInput, valueToSlashDate } from '../../forms/index.js';
import { el, onTextInput } from '../dom.js';
import { control, labelled, type Widget } from './widget.js';

/** The format a Japanese page's date text is written in (also its placeholder). */
export const DATE_HINT = 'YYYY/MM/DD';

/**
 * `<input type=date>`, except on a Japanese page: Chromium draws that in the browser's locale
 * whatever the page's `lang` (mm/dd/yyyy in an English browser), so there the date is text in
 * the Japanese order, `YYYY/MM/DD` (src/forms-ui/README.md "Dates on a Japanese page").
 */
export const date: Widget = (f, form) => {
  if (form.lang() === 'ja') {
    const c = el('input', { type: 'text', class: 'jf-date-text', placeholder: DATE_HINT, autocomplete: 'off' });
    c.value = valueToSlashDate(f.value);
    onTextInput(c, () => form.coerced(f.pointer, f.path, slashDateToValue(c.value)));
    return labelled(f, control(f, form, c));
  }
  const c = el('input', { type: 'date' });
  c.value = valueToDateInput(f.value);
  c.addEventListener('input', () => form.coerced(f.pointer, f.path, dateInputToValue(c.value)));
  return labelled(f, control(f, form, c));
};
