import type { Plugin } from '../types.js';

/** Declarations of the privileged files plugins (implementations: src/host-bridge/plugins/files/). */
export const plugins: Plugin[] = [];
