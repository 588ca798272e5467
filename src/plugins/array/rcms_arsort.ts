import { rcmsSort } from './rcms-sort-plugin.js';

export default rcmsSort('arsort', 'Sorts the values in descending order, keeping keys.', [
  { template: '{$m|@rcms_arsort|@json_encode}', vars: { m: { x: 3, y: 1, z: 2 } }, output: '{"x":3,"z":2,"y":1}' },
]);
