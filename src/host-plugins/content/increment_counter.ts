/** {increment_counter}: adds to a counter column's pending value (visible in the content after {sync_counter}). */
import { implement } from '../plugin-contract.js';
import { writeCounter } from './counter-target.js';
import declaration from '../../plugins/host-content/increment_counter.js';

export const incrementCounter = implement(declaration, (attrs, call) =>
  writeCounter('increment_counter', attrs, call, (content, target, value) => content.addToCounter(target, value)),
);
