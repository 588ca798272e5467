import { sortFunction } from './by-reference.js';

export default sortFunction('asort', 'Sorts the values ascending, keeping keys.', [
  { template: '{$l|@asort}', vars: { l: [2, 1] }, output: '1' },
]);
