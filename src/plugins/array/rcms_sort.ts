import { rcmsSort } from './rcms-sort-plugin.js';

export default rcmsSort('sort', 'Sorts the values in ascending order and renumbers the keys.', [
  { template: "{$l|@rcms_sort|@implode:','}", vars: { l: [3, 10, 1] }, output: '1,3,10' },
]);
