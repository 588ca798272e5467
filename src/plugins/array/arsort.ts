import { sortFunction } from './by-reference.js';

export default sortFunction('arsort', 'Sorts the values descending, keeping keys.', [
  { template: '{$l|@arsort}', vars: { l: [2, 1] }, output: '1' },
]);
