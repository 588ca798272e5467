import { sortFunction } from './by-reference.js';

export default sortFunction('ksort', 'Sorts by key ascending.', [
  { template: '{$l|@ksort}', vars: { l: [2, 1] }, output: '1' },
]);
