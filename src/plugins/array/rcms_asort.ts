import { rcmsSort } from './rcms-sort-plugin.js';

export default rcmsSort('asort', 'Sorts the values in ascending order, keeping keys.', [
  { template: '{$m|@rcms_asort|@json_encode}', vars: { m: { x: 3, y: 1, z: 2 } }, output: '{"y":1,"z":2,"x":3}' },
]);
