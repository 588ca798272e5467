import type { HostPlugin } from '../../plugin-contract.js';
import { sleep } from './sleep.js';

/** Host implementations of the clock plugins, by name. */
export const plugins: HostPlugin[] = [sleep];
