/**
 * Browser entry of the form UI (bundled into dist/forms-ui.js by scripts/build-forms-ui.mjs as
 * the global `SmartcageForms`). Registers `<json-field-form>`; also exposes the validator so
 * pages (and the browser tests) validate with exactly the code the form uses.
 */
import { defineJsonFieldForm } from './element.js';
import { mountDemo } from './demo.js';

export { JsonFieldForm, defineJsonFieldForm, pointerOf } from './element.js';
export {
  contentEditableAdapter,
  pathPickerAdapter,
  type FileManagerAdapter,
  type FileManagerOptions,
  type RichTextAdapter,
  type RichTextInstance,
  type RichTextOptions,
} from './adapters.js';
export { precompiledValidator } from './precompiled.js';
export { createValidator, buildForm, initialValue, FormSchemaError } from '../forms/index.js';
export { uiText, type Lang } from './ui-text.js';
export { mountDemo } from './demo.js';

defineJsonFieldForm();
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', () => mountDemo(document));
else mountDemo(document);
