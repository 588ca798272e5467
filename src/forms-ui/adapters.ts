/**
 * The two extension points of the form UI (src/forms/README.md): rich text and the file
 * manager. A CMS page plugs in its own editor (CKEditor, ...) and picker (CKFinder, ...);
 * the defaults here are plain: a contenteditable editor and a path picker over
 * `GET /api/files?path=/files/user/` (served by `smartcage serve`).
 */
import { uiText, type Lang } from './ui-text.js';

// ---- rich text ------------------------------------------------------------------------

export interface RichTextOptions {
  /** The `format_options` of the schema (height, width, toolbar, resource, ...). */
  formatOptions: Record<string, unknown>;
  /** Id of the label element, for aria-labelledby. */
  labelledBy: string;
  /** Ids of the help and error elements, for aria-describedby. */
  describedBy: string;
  required: boolean;
  lang: Lang;
  /** Called with the new HTML on every change. */
  onChange(html: string): void;
  /** Called when the editor loses focus (errors show after blur). */
  onBlur(): void;
}

/** One editor instance. The form creates one per rich-text field and per card, and destroys it before re-rendering. */
export interface RichTextInstance {
  getValue(): string;
  setValue(html: string): void;
  focus(): void;
  destroy(): void;
}

export interface RichTextAdapter {
  create(host: HTMLElement, initial: string, options: RichTextOptions): RichTextInstance;
}

function cssLength(v: unknown): string | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return `${v}px`;
  if (typeof v === 'string' && /^\d+(\.\d+)?(px|em|rem|%|vh|vw)?$/.test(v.trim()))
    return /\d$/.test(v.trim()) ? `${v.trim()}px` : v.trim();
  return undefined;
}

/**
 * The default editor: a contenteditable `div` with role textbox. `height`/`width` from
 * format_options size it; the other options belong to a real editor and are ignored.
 */
export const contentEditableAdapter: RichTextAdapter = {
  create(host, initial, o) {
    const el = document.createElement('div');
    el.className = 'jf-richtext';
    el.contentEditable = 'true';
    el.setAttribute('role', 'textbox');
    el.setAttribute('aria-multiline', 'true');
    el.setAttribute('aria-labelledby', o.labelledBy);
    if (o.describedBy) el.setAttribute('aria-describedby', o.describedBy);
    if (o.required) el.setAttribute('aria-required', 'true');
    el.tabIndex = 0;
    const h = cssLength(o.formatOptions.height);
    const w = cssLength(o.formatOptions.width);
    if (h) el.style.minHeight = h;
    if (w) el.style.width = w;
    el.innerHTML = initial;
    // Not while an IME composition is open (the text is not final): once at compositionend.
    const onInput = (e: Event) => {
      if (e instanceof InputEvent && e.isComposing) return;
      o.onChange(el.innerHTML === '<br>' ? '' : el.innerHTML);
    };
    const onBlur = () => o.onBlur();
    el.addEventListener('input', onInput);
    el.addEventListener('compositionend', onInput);
    el.addEventListener('blur', onBlur);
    host.appendChild(el);
    return {
      getValue: () => el.innerHTML,
      setValue: (html) => {
        el.innerHTML = html;
      },
      focus: () => el.focus(),
      destroy: () => {
        el.removeEventListener('input', onInput);
        el.removeEventListener('compositionend', onInput);
        el.removeEventListener('blur', onBlur);
        el.remove();
      },
    };
  },
};

// ---- file manager ---------------------------------------------------------------------

export interface FileManagerOptions {
  /** The path currently stored ("" when none). */
  current: string;
  lang: Lang;
  /** The element that opened the picker; focus returns there. */
  opener: HTMLElement;
}

export interface FileManagerAdapter {
  /** Opens the picker; resolves to the chosen path, or null when cancelled. */
  pick(options: FileManagerOptions): Promise<string | null>;
  /** The URL that previews a stored path (the link shown after selection). */
  previewUrl(path: string): string;
}

interface FileEntry {
  name: string;
  path: string;
  type: 'file' | 'dir';
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

function isFileEntry(v: unknown): v is FileEntry {
  return (
    isRecord(v) && typeof v.name === 'string' && typeof v.path === 'string' && (v.type === 'file' || v.type === 'dir')
  );
}

/** The entries of an /api/files answer (`{entries: [...]}`), or undefined when it is an error or not that shape. */
const fileEntries = (body: unknown): FileEntry[] | undefined =>
  isRecord(body) && Array.isArray(body.entries) && body.entries.every(isFileEntry) ? body.entries : undefined;

const errorOf = (body: unknown): string | undefined =>
  isRecord(body) && typeof body.error === 'string' ? body.error : undefined;

/**
 * The default picker: a modal `<dialog>` listing `GET {base}/api/files?path=...`; folders
 * open in place, a file is chosen with its button. Esc or Cancel closes it without a choice.
 */
export function pathPickerAdapter(base = '', root = '/files/user/'): FileManagerAdapter {
  return {
    previewUrl: (path) => base + path.split('/').map(encodeURIComponent).join('/'),
    pick({ current, lang, opener }) {
      const t = uiText(lang);
      return new Promise((resolve) => {
        const dlg = document.createElement('dialog');
        dlg.className = 'jf-picker';
        const titleId = `jf-picker-title-${Math.random().toString(36).slice(2)}`;
        dlg.setAttribute('aria-labelledby', titleId);
        const h = document.createElement('h2');
        h.id = titleId;
        h.textContent = t.pickFile;
        const where = document.createElement('p');
        where.className = 'jf-picker-path';
        const list = document.createElement('ul');
        const status = document.createElement('p');
        status.setAttribute('role', 'status');
        const cancel = document.createElement('button');
        cancel.type = 'button';
        cancel.textContent = t.cancel;
        dlg.append(h, where, status, list, cancel);
        let result: string | null = null;
        const finish = () => dlg.close();
        dlg.addEventListener('close', () => {
          dlg.remove();
          opener.focus();
          resolve(result);
        });
        cancel.addEventListener('click', finish);
        const load = async (dir: string) => {
          where.textContent = dir;
          list.replaceChildren();
          status.textContent = t.loading;
          try {
            const res = await fetch(`${base}/api/files?path=${encodeURIComponent(dir)}`);
            const body: unknown = await res.json();
            const entries = fileEntries(body);
            if (!res.ok || !entries) throw new Error(errorOf(body) ?? res.statusText);
            status.textContent = entries.length === 0 ? t.emptyFolder : '';
            const parent = dir.replace(/[^/]+\/$/, '');
            if (dir !== root && parent.length >= root.length)
              entries.unshift({ name: '..', path: parent, type: 'dir' });
            for (const e of entries) {
              const li = document.createElement('li');
              const b = document.createElement('button');
              b.type = 'button';
              b.textContent = e.type === 'dir' ? `${e.name}/` : e.name;
              b.setAttribute('aria-label', e.type === 'dir' ? t.openFolder(e.name) : t.chooseFile(e.name));
              b.addEventListener('click', () => {
                if (e.type === 'dir') void load(e.path.endsWith('/') ? e.path : e.path + '/');
                else {
                  result = e.path;
                  finish();
                }
              });
              li.appendChild(b);
              list.appendChild(li);
            }
            (list.querySelector('button') ?? cancel).focus();
          } catch (err) {
            status.textContent = t.loadFailed(err instanceof Error ? err.message : String(err));
          }
        };
        document.body.appendChild(dlg);
        dlg.showModal();
        const startDir = current.startsWith(root) ? current.slice(0, current.lastIndexOf('/') + 1) : root;
        void load(startDir);
      });
    },
  };
}
