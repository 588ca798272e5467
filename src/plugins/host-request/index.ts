import type { Plugin } from '../types.js';
import assignGlobals from './assign_globals.js';

/** Declarations of the privileged request plugins (implementations: src/host-bridge/plugins/request/). */
export const plugins: Plugin[] = [assignGlobals];
