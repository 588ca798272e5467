import { rcmsSort } from './rcms-sort-plugin.js';

export default rcmsSort('krsort', 'Sorts by key in descending order.', [
  { template: '{$m|@rcms_krsort|@json_encode}', vars: { m: { b: 1, c: 2, a: 3 } }, output: '{"c":2,"b":1,"a":3}' },
]);
