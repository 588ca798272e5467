import debugPrintVar from './debug_print_var.js';
import escape from './escape.js';
import htmlEntityDecode from './html_entity_decode.js';
import htmlspecialcharsDecode from './htmlspecialchars_decode.js';
import nl2br from './nl2br.js';
import rcmsStripTags from './rcms_strip_tags.js';
import stripTags from './strip_tags.js';
import type { Plugin } from '../types.js';

export const plugins: Plugin[] = [
  debugPrintVar,
  escape,
  htmlEntityDecode,
  htmlspecialcharsDecode,
  nl2br,
  rcmsStripTags,
  stripTags,
];
