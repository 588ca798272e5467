import { el } from '../dom.js';
import { emptyText, type Widget } from './widget.js';

/** The page's RichTextAdapter in a host element; the form destroys the editor before re-rendering. */
export const richText: Widget = (f, form) => {
  const host = el('div', { class: 'jf-richtext-host', id: `${f.id}-host` });
  const editor = form.richText().create(host, typeof f.value === 'string' ? f.value : '', {
    formatOptions: f.node.formatOptions ?? {},
    labelledBy: `${f.id}-label`,
    describedBy: f.describedBy,
    required: f.node.required,
    lang: form.lang(),
    onChange: (html) => form.setValue(f.path, html === '' ? emptyText(f.node) : html),
    onBlur: () => form.touch(f.pointer),
  });
  form.keepEditor(editor);
  // The label's `for` cannot point into the editor; clicking it focuses the editor.
  f.label.removeAttribute('for');
  f.label.addEventListener('click', () => editor.focus());
  const focusable = host.querySelector<HTMLElement>('[contenteditable], [tabindex], iframe, textarea, input') ?? host;
  return { control: focusable, row: [f.label, host] };
};
