import { el, onTextInput } from '../dom.js';
import { control, emptyText, type Widget } from './widget.js';

/** A path typed or chosen with the page's FileManagerAdapter, with Clear and a preview link. */
export const fileManager: Widget = (f, form) => {
  const t = form.t();
  const box = el('div', { class: 'jf-file-box' });
  const c = el('input', { type: 'text', class: 'jf-file-path', placeholder: '/files/user/…' });
  c.value = typeof f.value === 'string' ? f.value : '';
  const pick = el('button', { type: 'button', 'aria-label': `${t.choose}: ${f.node.label}` }, t.choose);
  const clear = el('button', { type: 'button', 'aria-label': `${t.clear}: ${f.node.label}` }, t.clear);
  const link = el('a', { class: 'jf-file-preview', target: '_blank', rel: 'noopener' });
  const show = (p: string) => {
    link.hidden = p === '';
    link.textContent = p === '' ? '' : `${form.t().openPreview}: ${p.slice(p.lastIndexOf('/') + 1)}`;
    if (p !== '') link.href = form.fileManager().previewUrl(p);
    else link.removeAttribute('href');
  };
  show(c.value);
  const set = (p: string) => {
    form.setValue(f.path, p === '' ? emptyText(f.node) : p);
    show(p);
  };
  onTextInput(c, () => set(c.value));
  pick.addEventListener('click', () => {
    void form
      .fileManager()
      .pick({ current: c.value, lang: form.lang(), opener: pick })
      .then((p) => {
        if (p === null) return;
        c.value = p;
        set(p);
        form.touch(f.pointer);
      });
  });
  clear.addEventListener('click', () => {
    c.value = '';
    set('');
    form.touch(f.pointer);
  });
  box.append(control(f, form, c), pick, clear, link);
  return { control: c, row: [f.label, box] };
};
