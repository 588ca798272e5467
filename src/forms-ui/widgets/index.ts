/**
 * The widget of each control kind. A Record over WidgetKind: a kind added to ControlKind
 * (src/forms/types.ts) without a widget here is a type error.
 */
import { checkbox } from './checkbox.js';
import { commaTextarea } from './comma-textarea.js';
import { date } from './date.js';
import { datetime } from './datetime.js';
import { fileManager } from './file-manager.js';
import { jsonTextarea } from './json-textarea.js';
import { multiSelect } from './multi-select.js';
import { number } from './number.js';
import { richText } from './rich-text.js';
import { select } from './select.js';
import { text, textarea } from './text.js';
import type { Widget, WidgetKind } from './widget.js';

export type { FormContext, Widget, WidgetKind } from './widget.js';

export const WIDGETS: Record<WidgetKind, Widget> = {
  text,
  textarea,
  select,
  'number-select': select,
  'multi-select': multiSelect,
  date,
  datetime,
  number,
  checkbox,
  'comma-textarea': commaTextarea,
  'json-textarea': jsonTextarea,
  'rich-text': richText,
  'file-manager': fileManager,
};
