/** {increment_counter}: adds to a counter column's pending value (visible in the content after {sync_counter}). */
import type { HostPlugin } from '../../plugin-contract.js';
import { writeCounter } from './counter-target.js';

export const incrementCounter: HostPlugin = {
  name: 'increment_counter',
  run: (attrs, call) => writeCounter('increment_counter', attrs, call, (content, tenant, target, value) => content.addToCounter(tenant, target, value)),
};
