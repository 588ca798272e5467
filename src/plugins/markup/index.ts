/** Markup: XML to JSON, HTML5 syntax checking. */
import type { Plugin } from '../types.js';
import html5Check from './html5_check.js';
import xmltojson from './xmltojson.js';

export const plugins: Plugin[] = [html5Check, xmltojson];
