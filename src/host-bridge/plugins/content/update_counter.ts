/** {update_counter}: sets a counter column's pending value (visible in the content after {sync_counter}). */
import type { HostPlugin } from '../../plugin-contract.js';
import { writeCounter } from './counter-target.js';

export const updateCounter: HostPlugin = {
  name: 'update_counter',
  run: (attrs, call) => writeCounter('update_counter', attrs, call, (content, tenant, target, value) => content.setCounter(tenant, target, value)),
};
