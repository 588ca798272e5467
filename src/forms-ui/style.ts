/** Default styles of `<json-field-form>` (light DOM: the page's CSS can override every rule). */
export const FORM_CSS = `
json-field-form { display: block; font: 14px/1.5 system-ui, sans-serif; }
json-field-form .jf-field { margin: 0 0 12px; }
json-field-form label { display: block; font-weight: 600; margin-bottom: 2px; }
json-field-form .jf-checkbox label { display: inline; margin-left: 6px; }
json-field-form .jf-mark { color: #c62828; margin-left: 3px; }
json-field-form .jf-sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
json-field-form .jf-help { font-size: 12px; color: #555; margin: 2px 0 0; }
json-field-form .jf-error { color: #c62828; font-size: 13px; }
json-field-form .jf-error-line { display: block; }
json-field-form [aria-invalid="true"] { border-color: #c62828; outline: 1px solid #c62828; }
json-field-form input[type=text], json-field-form textarea, json-field-form select { box-sizing: border-box; max-width: 100%; width: 32em; padding: 4px; }
json-field-form input.jf-number { width: 10em; }
json-field-form .jf-richtext { border: 1px solid #888; min-height: 5em; padding: 6px; background: #fff; max-width: 100%; width: 32em; box-sizing: border-box; }
json-field-form .jf-richtext:focus { outline: 2px solid #1565c0; }
json-field-form .jf-file-box { display: flex; gap: 6px; align-items: center; flex-wrap: wrap; }
json-field-form .jf-file-box input { width: 22em; }
json-field-form fieldset.jf-cards { border: 1px solid #bbb; padding: 8px 12px; margin: 0 0 12px; }
json-field-form fieldset.jf-cards > legend { font-weight: 600; }
json-field-form fieldset.jf-card { border: 1px solid #ddd; border-radius: 6px; background: #fafafa; margin: 8px 0; padding: 8px 12px; }
json-field-form .jf-card-actions { display: flex; gap: 6px; }
json-field-form button[aria-disabled=true] { opacity: .45; cursor: not-allowed; }
json-field-form .jf-add { margin: 2px 0 6px; }
json-field-form .jf-alert:not(:empty) { background: #fff3e0; border: 1px solid #ef6c00; padding: 6px 10px; margin-bottom: 8px; }
json-field-form .jf-summary:not(:empty) { color: #c62828; margin-bottom: 8px; }
json-field-form .jf-notice { background: #e3f2fd; padding: 6px 10px; }
json-field-form .jf-json-editor { width: 100%; font-family: ui-monospace, monospace; }
json-field-form .jf-toolbar { margin-top: 8px; }
json-field-form dialog.jf-preview { max-width: 80vw; max-height: 80vh; }
json-field-form .jf-preview-json { background: #f5f5f5; padding: 8px; overflow: auto; max-height: 60vh; }
dialog.jf-picker ul { list-style: none; padding: 0; }
`;
