import { rcmsSort } from './rcms-sort-plugin.js';

export default rcmsSort('ksort', 'Sorts by key in ascending order.', [
  { template: '{$m|@rcms_ksort|@json_encode}', vars: { m: { b: 1, c: 2, a: 3 } }, output: '{"a":3,"b":1,"c":2}' },
]);
