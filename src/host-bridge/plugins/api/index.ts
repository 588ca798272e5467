import type { HostPlugin } from '../../bridge.js';

/** Host implementations of the api plugins, by name. */
export const plugins: HostPlugin[] = [];
