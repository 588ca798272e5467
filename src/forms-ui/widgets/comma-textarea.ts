import { commaTextToList, listToCommaText } from '../../forms/index.js';
import { el, onTextInput } from '../dom.js';
import { control, labelled, type Widget } from './widget.js';

/** A list of strings as comma-separated text, rewritten to the stored list when left. */
export const commaTextarea: Widget = (f, form) => {
  const c = el('textarea', { rows: '2' });
  c.value = listToCommaText(f.value);
  onTextInput(c, () => form.setValue(f.path, commaTextToList(c.value)));
  c.addEventListener('change', () => {
    c.value = listToCommaText(form.valueAt(f.path));
  });
  return labelled(f, control(f, form, c));
};
