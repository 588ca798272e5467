import type { Plugin } from '../types.js';
import checkInnerUri from './check_inner_uri.js';
import defined from './defined.js';
import filterVar from './filter_var.js';
import isNumeric from './is_numeric.js';
import mbConvertKana from './mb_convert_kana.js';
import unset from './unset.js';

export const plugins: Plugin[] = [checkInnerUri, defined, filterVar, isNumeric, mbConvertKana, unset];
