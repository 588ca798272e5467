import { sortFunction } from './by-reference.js';

export default sortFunction('rsort', 'Sorts the values (descending, keys renumbered).', [
  { template: '{$l|@rsort}', vars: { l: [2, 1] }, output: '1' },
]);
