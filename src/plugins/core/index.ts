import type { Plugin } from '../types.js';
import assign from './assign.js';
import counter from './counter.js';
import cycle from './cycle.js';
import math from './math.js';
import fn from './function.js';
import ret from './return.js';

export const plugins: Plugin[] = [assign, counter, cycle, math, fn, ret];
