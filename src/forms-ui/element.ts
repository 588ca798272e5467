/**
 * `<json-field-form>`: the form UI of a JSON-type extension field, framework-free, rendered
 * into the page's light DOM (so `<label for>`, the CMS admin CSS and the surrounding `<form>`
 * keep working). The model, coercions, card operations and validation are src/forms; the
 * control of each field kind is a widget (./widgets/), laid out here with its help and errors.
 *
 * Attributes:
 * - `schema`: the JSON schema as JSON text (or set the `schema` property).
 * - `value`: the initial value as JSON text (or a child `<textarea>` holding it, or the
 *   `value` property). Without one, the spec's initial-value rules apply.
 * - `name`: name of the hidden textarea that carries the JSON value in the surrounding form.
 * - `build-ui`: "false" is the spec's option 'Build UI from JSON schema' switched off: a
 *   JSON editor only (a textarea with validation).
 * - `lang` (or the nearest `[lang]`): "ja" for Japanese messages, else English.
 * - `time-zone`: the site's IANA zone for date-time values (default: the browser's).
 *
 * Errors show for a field after it was changed or left (blur), and all at once when the
 * surrounding form is submitted (the submit is then cancelled and focus goes to the first
 * invalid field). Card refusals (maxItems/minItems) show the spec's alert: `window.alert`
 * (unless `nativeAlert` is false) and a `role=alert` region.
 */
import {
  addAfter,
  buildForm,
  createValidator,
  FormSchemaError,
  getAt,
  initialValue,
  jsonTextToValue,
  moveDown,
  moveUp,
  remove,
  setAt,
  valueToJsonText,
  type BuiltForm,
  type CardResult,
  type FieldNode,
  type FormValidator,
  type GroupNode,
  type JsonSchema,
  type JsonValue,
  type LocalizedMessage,
  type Path,
  type ValidatedError,
} from '../forms/index.js';
import {
  contentEditableAdapter,
  pathPickerAdapter,
  type FileManagerAdapter,
  type RichTextAdapter,
  type RichTextInstance,
} from './adapters.js';
import { el, onTextInput } from './dom.js';
import { precompiledValidator } from './precompiled.js';
import { FORM_CSS } from './style.js';
import { langOf, uiText, type Lang, type UiText } from './ui-text.js';
import { WIDGETS, type FormContext } from './widgets/index.js';

let instances = 0;

/** JSON pointer of a value path. */
export function pointerOf(path: Path): string {
  return path.map((s) => '/' + String(s).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}

interface Slot {
  /** The element that gets aria-invalid and focus. */
  control: HTMLElement;
  error: HTMLElement;
}

export class JsonFieldForm extends HTMLElement {
  static readonly observedAttributes = ['build-ui', 'lang', 'schema'];

  /** Rich-text editor factory; replace before the element is connected (or call `render()`). */
  richTextAdapter: RichTextAdapter = contentEditableAdapter;
  /**
   * File picker; the default lists `/api/files` of `smartcage serve`, under the `files-base`
   * attribute's path when the page gives one (a site served at /sites/KEY/).
   */
  fileManagerAdapter: FileManagerAdapter = pathPickerAdapter();
  /** Also show card refusals with window.alert (the spec's alert). */
  nativeAlert = true;

  private readonly uid = `jf${++instances}`;
  /**
   * Where the validator came from: `precompiled` (a `SmartcageValidators` script, no eval),
   * `compiled` (ajv in the page: needs `'unsafe-eval'` under a CSP), `unavailable` (the CSP
   * forbids compiling and no precompiled validator matches: no errors in the browser, the
   * server validates on save), `none` (no usable schema).
   */
  validatorSource: 'precompiled' | 'compiled' | 'unavailable' | 'none' = 'none';
  private _schema: JsonSchema | null = null;
  private _value: JsonValue = null;
  private valueSet = false;
  private validator: FormValidator | null = null;
  private schemaProblem: LocalizedMessage | null = null;
  private built: BuiltForm | null = null;
  private formProblem: LocalizedMessage | null = null;
  private touched = new Set<string>();
  private submitted = false;
  private coerceErrors = new Map<string, LocalizedMessage>();
  private slots = new Map<string, Slot>();
  private editors: RichTextInstance[] = [];
  private valueArea!: HTMLTextAreaElement;
  private body!: HTMLDivElement;
  private live!: HTMLDivElement;
  private alertBox!: HTMLDivElement;
  private summary!: HTMLDivElement;
  private previewButton!: HTMLButtonElement;
  private form: HTMLFormElement | null = null;
  private connected = false;
  /**
   * While a pointer is pressed, errors revealed by a blur wait until the click is over: the
   * error text would move the button being clicked (an Add below a card) away from under the
   * pointer between mousedown and mouseup, and the click would be lost.
   */
  private pointerActive = false;
  private pendingRefresh = false;
  private readonly onPointerDown = () => {
    this.pointerActive = true;
  };
  private readonly onPointerUp = () => {
    this.pointerActive = false;
    setTimeout(() => {
      if (this.pendingRefresh && !this.pointerActive) {
        this.pendingRefresh = false;
        this.refreshErrors();
      }
    }, 0);
  };
  /** What the widgets (./widgets/) may ask of this form. */
  private readonly widgetContext: FormContext = {
    t: () => this.t,
    lang: () => this.language,
    timeZone: () => this.tz,
    richText: () => this.richTextAdapter,
    fileManager: () => this.fileManagerAdapter,
    valueAt: (path) => getAt(this._value, path),
    setValue: (path, v) => this.setValue(path, v),
    coerced: (pointer, path, r) => this.coerced(pointer, path, r),
    touch: (pointer) => this.touch(pointer),
    keepEditor: (editor) => this.editors.push(editor),
  };
  private readonly onSubmit = (e: Event) => {
    const errors = this.validate();
    if (errors.length > 0 || this.coerceErrors.size > 0) {
      e.preventDefault();
      this.focusFirstInvalid();
    }
  };

  // ---- public API ---------------------------------------------------------------------

  get schema(): JsonSchema | null {
    return this._schema;
  }
  set schema(s: JsonSchema | null) {
    this.setSchema(s);
    if (this.connected) this.render();
  }

  /** The current JSON value. */
  get value(): JsonValue {
    return this._value;
  }
  set value(v: JsonValue) {
    this._value = v;
    this.valueSet = true;
    this.coerceErrors.clear();
    if (this.connected) {
      this.sync();
      this.render();
    }
  }

  get buildUi(): boolean {
    return this.getAttribute('build-ui') !== 'false';
  }
  set buildUi(on: boolean) {
    this.setAttribute('build-ui', on ? 'true' : 'false');
  }

  /** Validation errors of the current value (empty when valid or when the schema is unusable). */
  get errors(): ValidatedError[] {
    return this.validator ? this.validator.validate(this._value) : [];
  }

  /** Validates, shows every error (as on submit) and returns them. */
  validate(): ValidatedError[] {
    this.submitted = true;
    const errors = this.refreshErrors();
    const n = new Set(errors.map((e) => e.field)).size + this.coerceErrors.size;
    this.summary.textContent = n > 0 ? this.t.errorsSummary(n) : '';
    return errors;
  }

  // ---- lifecycle ----------------------------------------------------------------------

  connectedCallback(): void {
    const filesBase = this.getAttribute('files-base');
    if (filesBase !== null) this.fileManagerAdapter = pathPickerAdapter(filesBase.replace(/\/+$/, ''));
    if (!document.getElementById('jf-default-style')) {
      const style = el('style', { id: 'jf-default-style' });
      style.textContent = FORM_CSS;
      document.head.prepend(style);
    }
    if (!this.valueArea) this.setup();
    this.connected = true;
    this.form = this.closest('form');
    document.addEventListener('pointerdown', this.onPointerDown, true);
    document.addEventListener('pointerup', this.onPointerUp, true);
    document.addEventListener('pointercancel', this.onPointerUp, true);
    // capture: runs before the page's own submit handlers on the form, whenever they were added
    this.form?.addEventListener('submit', this.onSubmit, { capture: true });
    this.render();
  }

  disconnectedCallback(): void {
    this.connected = false;
    document.removeEventListener('pointerdown', this.onPointerDown, true);
    document.removeEventListener('pointerup', this.onPointerUp, true);
    document.removeEventListener('pointercancel', this.onPointerUp, true);
    this.form?.removeEventListener('submit', this.onSubmit, { capture: true });
    this.destroyEditors();
  }

  attributeChangedCallback(name: string, old: string | null, now: string | null): void {
    if (old === now) return;
    if (name === 'schema' && now !== null) {
      try {
        this.setSchema(JSON.parse(now) as JsonSchema);
      } catch {
        this.setSchema(null);
        this.schemaProblem = {
          en: 'The schema attribute is not valid JSON.',
          ja: 'schema属性が正しいJSONではありません。',
        };
      }
    }
    if (this.connected) this.render();
  }

  private setup(): void {
    const existing = this.querySelector(':scope > textarea');
    this.valueArea = existing instanceof HTMLTextAreaElement ? existing : el('textarea');
    this.valueArea.hidden = true;
    this.valueArea.className = 'jf-value';
    this.valueArea.setAttribute('aria-hidden', 'true');
    this.valueArea.tabIndex = -1;
    const name = this.getAttribute('name');
    if (name) this.valueArea.name = name;
    if (!this.valueSet) {
      const text = this.getAttribute('value') ?? (existing ? this.valueArea.value : '');
      if (text.trim() !== '') {
        try {
          this._value = JSON.parse(text) as JsonValue;
          this.valueSet = true;
        } catch {
          // unreadable stored value: start from the schema's initial value
        }
      }
    }
    this.replaceChildren();
    const toolbar = el('div', { class: 'jf-toolbar' });
    this.previewButton = el('button', { type: 'button', class: 'jf-preview-button' });
    this.previewButton.addEventListener('click', () => this.openPreview());
    toolbar.appendChild(this.previewButton);
    this.summary = el('div', { class: 'jf-summary', role: 'status' });
    this.body = el('div', { class: 'jf-body' });
    this.live = el('div', { class: 'jf-sr', 'aria-live': 'polite' });
    this.alertBox = el('div', { class: 'jf-alert', role: 'alert' });
    this.append(this.alertBox, this.summary, this.body, toolbar, this.live, this.valueArea);
    if (!this.valueSet && this._schema) this._value = initialValue(this._schema);
    this.sync();
  }

  private setSchema(s: JsonSchema | null): void {
    this._schema = s;
    this.validator = null;
    this.schemaProblem = null;
    this.built = null;
    this.formProblem = null;
    this.touched.clear();
    this.submitted = false;
    this.validatorSource = 'none';
    if (!s) return;
    try {
      // A precompiled validator first (works under a CSP without 'unsafe-eval'), else ajv here.
      const pre = precompiledValidator(s);
      this.validator = pre ?? createValidator(s);
      this.validatorSource = pre ? 'precompiled' : 'compiled';
    } catch (e) {
      if (e instanceof EvalError) {
        // The page's Content-Security-Policy forbids compiling: the form works, the server validates on save.
        this.validatorSource = 'unavailable';
      } else {
        this.schemaProblem = e instanceof FormSchemaError ? e.localized : { en: String(e), ja: String(e) };
      }
    }
    if (!this.schemaProblem) {
      try {
        this.built = buildForm(s);
      } catch (e) {
        // A refusal's message already says the form cannot be built and that the JSON editor remains.
        this.formProblem =
          e instanceof FormSchemaError
            ? e.localized
            : { en: `${uiText('en').formRefused} ${String(e)}`, ja: `${uiText('ja').formRefused} ${String(e)}` };
      }
    }
    if (!this.valueSet) this._value = initialValue(s);
  }

  private get language(): Lang {
    return langOf(this.closest('[lang]')?.getAttribute('lang'));
  }

  private get t(): UiText {
    return uiText(this.language);
  }

  private msg(m: LocalizedMessage): string {
    return m[this.language];
  }

  // ---- rendering ----------------------------------------------------------------------

  private destroyEditors(): void {
    for (const ed of this.editors) ed.destroy();
    this.editors = [];
  }

  /** Rebuilds the controls from the schema and the current value. */
  render(): void {
    if (!this.valueArea) return;
    this.destroyEditors();
    this.slots.clear();
    this.body.replaceChildren();
    this.previewButton.textContent = this.t.preview;
    this.summary.textContent = '';
    if (!this._schema) return;
    if (this.schemaProblem) {
      this.body.appendChild(el('p', { class: 'jf-notice', role: 'note' }, this.msg(this.schemaProblem)));
      this.renderJsonEditor();
      return;
    }
    if (this.validatorSource === 'unavailable') {
      this.body.appendChild(el('p', { class: 'jf-notice', role: 'note' }, this.t.noValidator));
    }
    if (!this.buildUi || !this.built) {
      if (this.buildUi && this.formProblem) {
        this.body.appendChild(el('p', { class: 'jf-notice', role: 'note' }, this.msg(this.formProblem)));
      }
      this.renderJsonEditor();
    } else {
      const root = this.built.root;
      if (root.kind === 'group') this.renderGroup(root, [], this.body);
      else this.renderField(root, [], this.body);
      const rootError = el('div', { class: 'jf-error', id: `${this.uid}-root-err` });
      this.body.appendChild(rootError);
      this.slots.set('', { control: this.body, error: rootError });
    }
    this.refreshErrors();
  }

  private idOf(pointer: string): string {
    return `${this.uid}-v${pointer.replace(/[^A-Za-z0-9_-]/g, (c) => (c === '/' ? '-' : `_${c.charCodeAt(0).toString(16)}_`))}`;
  }

  private renderJsonEditor(): void {
    const id = this.idOf('') + '-json';
    const wrap = el('div', { class: 'jf-field jf-json-only' });
    const label = el(
      'label',
      { for: id, id: `${id}-label` },
      this._schema?.title ? `${this._schema.title} (${this.t.json})` : this.t.json,
    );
    const ta = el('textarea', {
      id,
      class: 'jf-json-editor',
      rows: '16',
      spellcheck: 'false',
      'aria-describedby': `${id}-err`,
    });
    ta.value = valueToJsonText(this._value);
    const err = el('div', { class: 'jf-error', id: `${id}-err` });
    onTextInput(ta, () => {
      const r = jsonTextToValue(ta.value, 'any');
      if (r.ok) {
        this.coerceErrors.delete('');
        this.setValue([], r.value, false);
      } else {
        this.coerceErrors.set('', r.error);
        this.refreshErrors();
      }
    });
    ta.addEventListener('blur', () => this.touch(''));
    wrap.append(label, ta, err);
    this.body.appendChild(wrap);
    this.slots.set('', { control: ta, error: err });
  }

  private renderGroup(group: GroupNode, path: Path, into: HTMLElement): void {
    for (const child of group.children) this.renderField(child, [...path, child.name], into);
  }

  private labelContent(label: HTMLElement, node: FieldNode): void {
    label.append(document.createTextNode(node.label));
    if (node.required) {
      label.append(el('span', { class: 'jf-mark', 'aria-hidden': 'true' }, '*'));
      label.append(el('span', { class: 'jf-sr' }, ` (${this.t.required})`));
    }
  }

  private renderField(node: FieldNode, path: Path, into: HTMLElement): void {
    const pointer = pointerOf(path);
    const id = this.idOf(pointer);
    const helpId = `${id}-help`;
    const errId = `${id}-err`;
    const describedBy = node.help ? `${helpId} ${errId}` : errId;
    const value = getAt(this._value, path) ?? null;
    const help = node.help ? el('p', { class: 'jf-help', id: helpId }, node.help) : null;
    const err = el('div', { class: 'jf-error', id: errId });

    if (node.kind === 'cards') {
      const fs = el('fieldset', { class: 'jf-cards', 'data-pointer': pointer, 'aria-describedby': describedBy, id });
      const legend = el('legend');
      this.labelContent(legend, node);
      fs.appendChild(legend);
      if (help) fs.appendChild(help);
      fs.appendChild(err);
      this.renderCards(node, path, Array.isArray(value) ? value : [], fs);
      into.appendChild(fs);
      this.slots.set(pointer, { control: fs, error: err });
      return;
    }

    const wrap = el('div', { class: `jf-field jf-${node.kind}`, 'data-pointer': pointer });
    const label = el('label', { for: id, id: `${id}-label` });
    this.labelContent(label, node);
    const { control, row } = WIDGETS[node.kind](
      { node, path, pointer, id, value, label, describedBy },
      this.widgetContext,
    );
    wrap.append(...row);
    if (help) wrap.appendChild(help);
    wrap.appendChild(err);
    into.appendChild(wrap);
    this.slots.set(pointer, { control, error: err });
  }

  private get tz(): { timeZone?: string } {
    const z = this.getAttribute('time-zone');
    return z ? { timeZone: z } : {};
  }

  private renderCards(node: FieldNode, path: Path, items: JsonValue[], fs: HTMLElement): void {
    const t = this.t;
    const list = el('div', { class: 'jf-card-list' });
    const pointer = pointerOf(path);
    const addButton = (after: number) => {
      const b = el(
        'button',
        {
          type: 'button',
          class: 'jf-add',
          'data-after': String(after),
          'aria-label': after < 0 ? t.addFirst : t.addAfter(after + 1),
        },
        `+ ${t.add}`,
      );
      b.addEventListener('click', () => this.cardOp(path, 'add', after));
      return b;
    };
    if (items.length === 0) list.appendChild(addButton(-1));
    items.forEach((_, i) => {
      const n = i + 1;
      const card = el('fieldset', { class: 'jf-card', 'data-card': `${pointer}/${i}`, 'data-index': String(i) });
      card.appendChild(el('legend', {}, node.item?.label ? `${node.item.label} ${n}` : t.item(n)));
      if (node.item) this.renderGroup(node.item, [...path, i], card);
      const actions = el('div', { class: 'jf-card-actions' });
      const btn = (cls: string, text: string, name: string, op: 'up' | 'down' | 'delete', inert: boolean) => {
        const b = el('button', { type: 'button', class: cls, 'aria-label': name }, text);
        if (inert) b.setAttribute('aria-disabled', 'true');
        b.addEventListener('click', () => {
          if (b.getAttribute('aria-disabled') !== 'true') this.cardOp(path, op, i);
        });
        return b;
      };
      actions.append(
        btn('jf-up', `↑ ${t.up}`, t.moveUp(n), 'up', i === 0),
        btn('jf-down', `↓ ${t.down}`, t.moveDown(n), 'down', i === items.length - 1),
        btn('jf-delete', `✕ ${t.del}`, t.remove(n), 'delete', false),
      );
      card.appendChild(actions);
      list.appendChild(card);
      list.appendChild(addButton(i));
    });
    fs.appendChild(list);
  }

  private cardOp(path: Path, op: 'add' | 'up' | 'down' | 'delete', index: number): void {
    const schema = this._schema!;
    let r: CardResult;
    if (op === 'add') r = addAfter(schema, this._value, path, index);
    else if (op === 'delete') r = remove(schema, this._value, path, index);
    else if (op === 'up') r = moveUp(schema, this._value, path, index);
    else r = moveDown(schema, this._value, path, index);
    if (!r.ok) {
      this.showAlert(this.msg(r.refusal.message));
      return;
    }
    if (!r.changed) return;
    this.alertBox.textContent = '';
    this._value = r.value;
    this.touch(pointerOf(path), false);
    this.sync();
    this.render();
    const pointer = pointerOf(path);
    const card = (i: number) => this.querySelector<HTMLElement>(`[data-card="${CSS.escape(`${pointer}/${i}`)}"]`);
    if (op === 'add') {
      card(index + 1)
        ?.querySelector<HTMLElement>('input, select, textarea, [contenteditable], button')
        ?.focus();
    } else if (op === 'up' || op === 'down') {
      const to = op === 'up' ? index - 1 : index + 1;
      const b = card(to)?.querySelector<HTMLElement>(op === 'up' ? '.jf-up' : '.jf-down');
      b?.focus();
      this.live.textContent = this.t.moved(to + 1);
    } else {
      const next = card(index) ?? card(index - 1);
      (
        next?.querySelector<HTMLElement>('input, select, textarea, [contenteditable], button') ??
        this.querySelector<HTMLElement>(`[data-pointer="${CSS.escape(pointer)}"] .jf-add, .jf-add`)
      )?.focus();
    }
  }

  private showAlert(text: string): void {
    // Re-set the text so screen readers announce a repeated refusal again.
    this.alertBox.textContent = '';
    this.alertBox.textContent = text;
    if (this.nativeAlert) window.alert(text);
  }

  // ---- value and errors ---------------------------------------------------------------

  private coerced(
    pointer: string,
    path: Path,
    r: { ok: true; value: JsonValue } | { ok: false; error: LocalizedMessage },
  ): void {
    if (r.ok) {
      this.coerceErrors.delete(pointer);
      this.setValue(path, r.value);
    } else {
      this.coerceErrors.set(pointer, r.error);
      this.touched.add(pointer);
      this.refreshErrors();
    }
  }

  private setValue(path: Path, v: JsonValue, touch = true): void {
    this._value = setAt(this._value, path, v);
    if (touch) this.touched.add(pointerOf(path));
    this.sync();
    this.refreshErrors();
  }

  private touch(pointer: string, refresh = true): void {
    this.touched.add(pointer);
    if (!refresh) return;
    if (this.pointerActive) this.pendingRefresh = true;
    else this.refreshErrors();
  }

  /** Writes the value to the hidden textarea and tells the page. */
  private sync(): void {
    if (!this.valueArea) return;
    this.valueArea.value = JSON.stringify(this._value);
    this.dispatchEvent(new CustomEvent('value-change', { detail: { value: this._value }, bubbles: true }));
  }

  /** The rendered slot that shows errors of a control pointer (the nearest rendered ancestor). */
  private slotFor(field: string): [string, Slot] | undefined {
    let p = field;
    for (;;) {
      const s = this.slots.get(p);
      if (s) return [p, s];
      if (p === '') return undefined;
      p = p.slice(0, p.lastIndexOf('/'));
    }
  }

  private refreshErrors(): ValidatedError[] {
    const errors = this.validator ? this.validator.validate(this._value) : [];
    const jsonOnly = this.slots.size === 1 && this.slots.has('') && !(this.buildUi && this.built);
    const bySlot = new Map<string, string[]>();
    const add = (p: string, text: string) => {
      const list = bySlot.get(p) ?? [];
      if (!list.includes(text)) list.push(text);
      bySlot.set(p, list);
    };
    for (const [p, m] of this.coerceErrors) {
      const s = this.slotFor(p);
      if (s) add(s[0], this.msg(m));
    }
    for (const e of errors) {
      const s = this.slotFor(jsonOnly ? '' : e.field);
      if (!s) continue;
      if (this.coerceErrors.has(s[0])) continue;
      const visible = this.submitted || this.touched.has(s[0]) || (jsonOnly && this.touched.has(''));
      if (!visible) continue;
      add(
        s[0],
        jsonOnly || s[0] !== e.field || e.path !== e.field
          ? `${e.path || '/'}: ${this.msg(e.message)}`
          : this.msg(e.message),
      );
    }
    for (const [p, slot] of this.slots) {
      const lines = bySlot.get(p) ?? [];
      slot.error.replaceChildren(...lines.map((l) => el('span', { class: 'jf-error-line' }, l)));
      if (lines.length > 0) slot.control.setAttribute('aria-invalid', 'true');
      else slot.control.removeAttribute('aria-invalid');
    }
    return errors;
  }

  private focusFirstInvalid(): void {
    const first = this.querySelector<HTMLElement>('[aria-invalid="true"]');
    if (!first) return;
    if (first instanceof HTMLFieldSetElement)
      first.querySelector<HTMLElement>('button, input, select, textarea')?.focus();
    else first.focus();
  }

  // ---- JSON Preview ---------------------------------------------------------------------

  private openPreview(): void {
    const t = this.t;
    const dlg = el('dialog', { class: 'jf-preview', 'aria-labelledby': `${this.uid}-preview-title` });
    const h = el('h2', { id: `${this.uid}-preview-title` }, t.previewTitle);
    // Not a control (aria-readonly is not allowed on it: axe aria-allowed-attr); a focusable
    // named region so the keyboard can scroll a long value.
    const pre = el('pre', {
      class: 'jf-preview-json',
      tabindex: '0',
      role: 'region',
      'aria-labelledby': `${this.uid}-preview-title`,
    });
    pre.textContent = JSON.stringify(this._value, null, 2);
    const close = el('button', { type: 'button', class: 'jf-preview-close' }, t.close);
    close.addEventListener('click', () => dlg.close());
    dlg.addEventListener('close', () => {
      dlg.remove();
      this.previewButton.focus();
    });
    dlg.append(h, pre, close);
    this.appendChild(dlg);
    dlg.showModal();
    close.focus();
  }
}

/** Registers `<json-field-form>` once. */
export function defineJsonFieldForm(name = 'json-field-form'): void {
  if (!customElements.get(name)) customElements.define(name, JsonFieldForm);
}
