import { sortFunction } from './by-reference.js';

export default sortFunction('sort', 'Sorts the values (ascending, keys renumbered).', [
  { template: '{$l|@sort}', vars: { l: [2, 1] }, output: '1' },
]);
