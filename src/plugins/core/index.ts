import type { Plugin } from '../types.js';
import assign from './assign.js';
import counter from './counter.js';
import cycle from './cycle.js';
import math from './math.js';

export const plugins: Plugin[] = [assign, counter, cycle, math];
