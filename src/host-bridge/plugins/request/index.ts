import type { HostPlugin } from '../../plugin-contract.js';
import { assignGlobals } from './assign_globals.js';

/** Host implementations of the request plugins, by name. */
export const plugins: HostPlugin[] = [assignGlobals];
