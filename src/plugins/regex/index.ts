import type { Plugin } from '../types.js';
import pregMatch from './preg-match.js';
import pregReplace from './preg-replace.js';
import rcmsMatch from './rcms-match.js';
import rcmsMatchAll from './rcms-match-all.js';
import regexReplace from './regex-replace.js';
import split from './split.js';

export const plugins: Plugin[] = [regexReplace, pregReplace, pregMatch, split, rcmsMatch, rcmsMatchAll];
