/**
 * The forms UI's small design system: tokens (CSS custom properties on `<json-field-form>` and
 * the file picker) and the default styles of `<json-field-form>` written with them. Light DOM:
 * the page's CSS can override every rule, and a page restyles the whole form by setting a token
 * (`json-field-form { --jf-color-accent: #7a1fa2 }`). The table of tokens is in ./README.md
 * ("Design tokens"); test/forms-ui/style.test.ts checks it against TOKENS, and the contrast of
 * the colour pairs the rules use. PAGE_CSS styles the pages `smartcage serve` writes around the
 * form (server/pages.ts) with the same tokens.
 */

/**
 * The tokens, without their `--jf-` prefix. The rules take every colour, spacing, type size and
 * corner from them; only hairlines (1 px borders, the 4 px bar of the summary) are fixed.
 */
export const TOKENS = {
  // Spacing: a 4 px step.
  'space-1': '4px',
  'space-2': '8px',
  'space-3': '12px',
  'space-4': '16px',
  'space-5': '24px',
  // Type: one stack for both languages, Japanese faces before the generic fallback, so Latin
  // and kana come from faces that match on a Japanese page and an English one alike.
  font: 'system-ui, -apple-system, "Segoe UI", "Hiragino Sans", "Hiragino Kaku Gothic ProN", "Noto Sans JP", "Noto Sans CJK JP", "Yu Gothic UI", Meiryo, sans-serif',
  'font-mono': 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Noto Sans Mono CJK JP", monospace',
  'text-sm': '12px',
  'text-md': '14px',
  'text-lg': '16px',
  leading: '1.5',
  'weight-label': '600',
  // Colours (contrast on white: text 15.8, muted 6.7, border 4.6, accent 6.7, danger 6.6).
  'color-text': '#1f2328',
  'color-muted': '#545d68',
  'color-border': '#6e7781',
  'color-border-subtle': '#d0d7de',
  'color-surface': '#ffffff',
  'color-surface-alt': '#f6f8fa',
  'color-accent': '#0a5cad',
  'color-accent-text': '#ffffff',
  'color-focus': '#0a5cad',
  'color-danger': '#b42318',
  'color-danger-surface': '#fef3f2',
  'color-warning': '#93370d',
  'color-warning-surface': '#fffaeb',
  'color-info-surface': '#eef6fd',
  // Shapes.
  radius: '6px',
  'focus-width': '2px',
  'control-height': '36px',
  'button-height': '32px',
  'check-size': '18px',
} as const;

export type Token = keyof typeof TOKENS;

const v = (t: Token) => `var(--jf-${t})`;

const declarations = Object.entries(TOKENS)
  .map(([name, value]) => `--jf-${name}: ${value};`)
  .join(' ');

/** The text controls the widgets make (date and date-time are text on a Japanese page). */
const CONTROLS = [
  'input[type=text]',
  'input[type=date]',
  'input[type=datetime-local]',
  'textarea',
  'select',
  '.jf-richtext',
];
const FIELDS = CONTROLS.map((s) => `json-field-form ${s}`).join(', ');
/** The same controls when invalid: as specific as FIELDS and more, so the error state wins. */
const INVALID = CONTROLS.map((s) => `json-field-form ${s}[aria-invalid="true"]`).join(', ');

/** Default styles of `<json-field-form>` and its dialogs (light DOM: the page's CSS can override every rule). */
export const FORM_CSS = `
json-field-form, dialog.jf-picker { ${declarations} }
json-field-form:lang(ja), dialog.jf-picker:lang(ja) { --jf-leading: 1.7; }
json-field-form, dialog.jf-picker { display: block; font-family: ${v('font')}; font-size: ${v('text-md')}; line-height: ${v('leading')}; color: ${v('color-text')}; }
json-field-form *, json-field-form *::before, json-field-form *::after { box-sizing: border-box; }
json-field-form [hidden] { display: none !important; }
json-field-form .jf-field { margin: 0 0 ${v('space-4')}; min-width: 0; }
json-field-form label, json-field-form legend { display: block; font-weight: ${v('weight-label')}; margin-bottom: ${v('space-1')}; }
json-field-form .jf-checkbox { display: flex; flex-wrap: wrap; align-items: center; gap: 0 ${v('space-2')}; }
json-field-form .jf-checkbox label { display: inline; margin: 0; }
json-field-form .jf-checkbox > .jf-help, json-field-form .jf-checkbox > .jf-error { flex-basis: 100%; }
json-field-form .jf-mark { color: ${v('color-danger')}; margin-left: ${v('space-1')}; }
json-field-form .jf-sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
json-field-form .jf-help { font-size: ${v('text-sm')}; color: ${v('color-muted')}; margin: ${v('space-1')} 0 0; }
json-field-form .jf-error { color: ${v('color-danger')}; font-size: ${v('text-sm')}; }
json-field-form .jf-error:not(:empty) { margin-top: ${v('space-1')}; }
json-field-form .jf-error-line { display: block; }
json-field-form .jf-error-line::before { content: "! "; font-weight: 700; }

${FIELDS} { display: block; width: 100%; max-width: 32em; min-height: ${v('control-height')}; padding: ${v('space-2')} ${v('space-3')}; font: inherit; color: ${v('color-text')}; background: ${v('color-surface')}; border: 1px solid ${v('color-border')}; border-radius: ${v('radius')}; }
json-field-form textarea { resize: vertical; }
json-field-form select:not([multiple]) { height: ${v('control-height')}; padding-top: 0; padding-bottom: 0; }
json-field-form select[multiple] { padding: ${v('space-1')}; }
json-field-form input.jf-number { max-width: 12em; }
json-field-form .jf-richtext { min-height: 5em; }
json-field-form input[type=checkbox] { width: ${v('check-size')}; height: ${v('check-size')}; margin: 0; accent-color: ${v('color-accent')}; }
json-field-form [aria-invalid="true"], ${INVALID} { border-color: ${v('color-danger')}; box-shadow: inset 0 0 0 1px ${v('color-danger')}; background-color: ${v('color-danger-surface')}; }

json-field-form button, dialog.jf-picker button { display: inline-flex; align-items: center; gap: ${v('space-1')}; min-height: ${v('button-height')}; padding: ${v('space-1')} ${v('space-3')}; font: inherit; font-size: ${v('text-md')}; color: ${v('color-text')}; background: ${v('color-surface')}; border: 1px solid ${v('color-border')}; border-radius: ${v('radius')}; cursor: pointer; }
json-field-form button:hover, dialog.jf-picker button:hover { background: ${v('color-surface-alt')}; }
json-field-form button.jf-add { color: ${v('color-accent')}; border-color: ${v('color-accent')}; }
json-field-form button.jf-delete { color: ${v('color-danger')}; }
json-field-form button[aria-disabled=true] { opacity: .45; cursor: not-allowed; }

json-field-form :focus-visible, dialog.jf-picker :focus-visible { outline: ${v('focus-width')} solid ${v('color-focus')}; outline-offset: ${v('focus-width')}; }
json-field-form [aria-invalid="true"]:focus-visible { outline-color: ${v('color-danger')}; }

json-field-form .jf-file-box { display: flex; gap: ${v('space-2')}; align-items: center; flex-wrap: wrap; }
json-field-form .jf-file-box input { flex: 1 1 12em; min-width: 0; width: auto; }
json-field-form fieldset { min-width: 0; }
json-field-form fieldset.jf-cards { border: 1px solid ${v('color-border-subtle')}; border-radius: ${v('radius')}; padding: ${v('space-2')} ${v('space-4')} ${v('space-3')}; margin: 0 0 ${v('space-4')}; }
json-field-form fieldset.jf-cards > legend { padding: 0 ${v('space-1')}; margin: 0; }
json-field-form fieldset.jf-card { border: 1px solid ${v('color-border-subtle')}; border-radius: ${v('radius')}; background: ${v('color-surface-alt')}; margin: ${v('space-2')} 0; padding: ${v('space-2')} ${v('space-3')} ${v('space-3')}; }
json-field-form fieldset.jf-card > legend { padding: 0 ${v('space-1')}; margin: 0; font-size: ${v('text-md')}; }
json-field-form .jf-card-actions { display: flex; flex-wrap: wrap; gap: ${v('space-2')}; }
json-field-form .jf-add { margin: ${v('space-1')} 0 ${v('space-2')}; }

json-field-form .jf-alert:not(:empty) { color: ${v('color-warning')}; background: ${v('color-warning-surface')}; border: 1px solid ${v('color-warning')}; border-radius: ${v('radius')}; padding: ${v('space-2')} ${v('space-3')}; margin-bottom: ${v('space-3')}; }
json-field-form .jf-summary:not(:empty) { color: ${v('color-danger')}; background: ${v('color-danger-surface')}; border-left: 4px solid ${v('color-danger')}; padding: ${v('space-2')} ${v('space-3')}; margin-bottom: ${v('space-3')}; font-weight: ${v('weight-label')}; }
json-field-form .jf-notice { background: ${v('color-info-surface')}; border-radius: ${v('radius')}; padding: ${v('space-2')} ${v('space-3')}; }
json-field-form .jf-json-editor, json-field-form textarea.jf-json { width: 100%; max-width: none; font-family: ${v('font-mono')}; }
json-field-form .jf-toolbar { margin-top: ${v('space-2')}; }
json-field-form dialog.jf-preview { max-width: min(80vw, 48em); max-height: 80vh; border: 1px solid ${v('color-border-subtle')}; border-radius: ${v('radius')}; padding: ${v('space-4')}; }
json-field-form dialog.jf-preview h2, dialog.jf-picker h2 { font-size: ${v('text-lg')}; margin: 0 0 ${v('space-3')}; }
json-field-form .jf-preview-json { font-family: ${v('font-mono')}; background: ${v('color-surface-alt')}; padding: ${v('space-2')}; overflow: auto; max-height: 60vh; }
dialog.jf-picker { max-width: min(90vw, 36em); border: 1px solid ${v('color-border-subtle')}; border-radius: ${v('radius')}; padding: ${v('space-4')}; }
dialog.jf-picker ul { list-style: none; padding: 0; }
`;

/**
 * The pages of `smartcage serve` around the form (server/pages.ts `page()`: the samples, the
 * paste box, a site's index, editor, preview and playground): the same tokens, so the page's
 * own buttons and fields match the form's, and its submit button is the one primary action.
 * Its rules for controls are in :where() (no specificity), so inside the form FORM_CSS wins.
 */
export const PAGE_CSS = `
body { ${declarations} font-family: ${v('font')}; font-size: ${v('text-md')}; line-height: ${v('leading')}; color: ${v('color-text')}; max-width: 52em; margin: ${v('space-5')} auto; padding: 0 ${v('space-4')}; }
:lang(ja) body, body:lang(ja) { --jf-leading: 1.7; }
a { color: ${v('color-accent')}; }
pre { white-space: pre-wrap; font-family: ${v('font-mono')}; background: ${v('color-surface-alt')}; padding: ${v('space-2')}; border-radius: ${v('radius')}; }
:where(main input[type=text], main input:not([type]), main textarea, main select) { font: inherit; color: ${v('color-text')}; background: ${v('color-surface')}; border: 1px solid ${v('color-border')}; border-radius: ${v('radius')}; padding: ${v('space-1')} ${v('space-2')}; min-height: ${v('button-height')}; max-width: 100%; }
:where(main button) { font: inherit; min-height: ${v('button-height')}; padding: ${v('space-1')} ${v('space-3')}; color: ${v('color-text')}; background: ${v('color-surface')}; border: 1px solid ${v('color-border')}; border-radius: ${v('radius')}; cursor: pointer; }
:where(main button[type=submit]) { color: ${v('color-accent-text')}; background: ${v('color-accent')}; border-color: ${v('color-accent')}; font-weight: ${v('weight-label')}; }
:where(main :focus-visible) { outline: ${v('focus-width')} solid ${v('color-focus')}; outline-offset: ${v('focus-width')}; }
.demo-options { margin: 0 0 ${v('space-4')}; padding: ${v('space-2')} ${v('space-3')}; background: ${v('color-surface-alt')}; border-radius: ${v('radius')}; }
.paste textarea { width: 100%; font-family: ${v('font-mono')}; font-size: ${v('text-sm')}; }
.problems { color: ${v('color-danger')}; }
`;
