/** Number and string formatting modifiers (PHP's sprintf, number_format, round...). */
import type { Plugin } from '../types.js';
import abs from './abs.js';
import boolval from './boolval.js';
import ceil from './ceil.js';
import floatval from './floatval.js';
import floor from './floor.js';
import intval from './intval.js';
import max from './max.js';
import min from './min.js';
import mtRand from './mt_rand.js';
import numberFormat from './number_format.js';
import round from './round.js';
import sprintf from './sprintf.js';
import stringFormat from './string_format.js';
import strval from './strval.js';
import rcmsFileSize from './rcms_file_size.js';

export const plugins: Plugin[] = [
  rcmsFileSize,
  abs,
  boolval,
  ceil,
  floatval,
  floor,
  intval,
  max,
  min,
  mtRand,
  numberFormat,
  round,
  sprintf,
  stringFormat,
  strval,
];
