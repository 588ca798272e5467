import { sortFunction } from './by-reference.js';

export default sortFunction('krsort', 'Sorts by key descending.', [
  { template: '{$l|@krsort}', vars: { l: [2, 1] }, output: '1' },
]);
