import type { Plugin } from '../types.js';
import sleep from './sleep.js';

/** Declarations of the privileged clock plugins (implementations: src/host-bridge/plugins/clock/). */
export const plugins: Plugin[] = [sleep];
