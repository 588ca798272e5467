import { numberToText, textToNumber } from '../../forms/index.js';
import { el, onTextInput } from '../dom.js';
import { control, labelled, type Widget } from './widget.js';

/** A text input, so full-width IME digits reach textToNumber; inputmode brings up the keypad. */
export const number: Widget = (f, form) => {
  const c = el('input', {
    type: 'text',
    inputmode: f.node.numberType === 'integer' ? 'numeric' : 'decimal',
    class: 'jf-number',
  });
  c.value = numberToText(f.value);
  onTextInput(c, () => form.coerced(f.pointer, f.path, textToNumber(c.value)));
  return labelled(f, control(f, form, c));
};
