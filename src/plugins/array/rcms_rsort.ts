import { rcmsSort } from './rcms-sort-plugin.js';

export default rcmsSort('rsort', 'Sorts the values in descending order and renumbers the keys.', [
  { template: "{$l|@rcms_rsort|@implode:','}", vars: { l: ['b', 'c', 'a'] }, output: 'c,b,a' },
]);
