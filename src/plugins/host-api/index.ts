import type { Plugin } from '../types.js';

/** Declarations of the privileged api plugins (implementations: src/host-bridge/plugins/api/). */
export const plugins: Plugin[] = [];
