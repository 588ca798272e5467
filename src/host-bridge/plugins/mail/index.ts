import type { HostPlugin } from '../../bridge.js';

/** Host implementations of the mail plugins, by name. */
export const plugins: HostPlugin[] = [];
