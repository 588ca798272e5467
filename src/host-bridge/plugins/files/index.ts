import type { HostPlugin } from '../../bridge.js';

/** Host implementations of the files plugins, by name. */
export const plugins: HostPlugin[] = [];
