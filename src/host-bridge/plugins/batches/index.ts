import type { HostPlugin } from '../../plugin-contract.js';
import { batch } from './batch.js';

/** Host implementations of the batches plugins, by name. */
export const plugins: HostPlugin[] = [batch];
