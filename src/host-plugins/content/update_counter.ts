/** {update_counter}: sets a counter column's pending value (visible in the content after {sync_counter}). */
import { implement } from '../plugin-contract.js';
import { writeCounter } from './counter-target.js';
import declaration from '../../plugins/host-content/update_counter.js';

export const updateCounter = implement(declaration, (attrs, call) =>
  writeCounter('update_counter', attrs, call, (content, target, value) => content.setCounter(target, value)),
);
