/** Date modifiers: date_format, PHP's date and strtotime, the platform's pg_dateformat pair. */
import type { Plugin } from '../types.js';
import date from './date.js';
import dateFormat from './date_format.js';
import pgDateformat from './pg_dateformat.js';
import pgDateformat2 from './pg_dateformat2.js';
import strtotime from './strtotime.js';

export const plugins: Plugin[] = [date, dateFormat, pgDateformat, pgDateformat2, strtotime];
