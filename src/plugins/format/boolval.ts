import { defineModifier } from '../types.js';
import { phpBoolval } from '../../php/format/intval.js';

export default defineModifier({
  kind: 'modifier',
  name: 'boolval',
  origin: 'php',
  summary: 'PHP boolval(): false for "", "0", 0, 0.0, null and empty arrays.',
  params: [],
  examples: [{ template: "[{'0'|boolval}][{'0.0'|boolval}][{$e|boolval}]", vars: { e: '' }, output: '[][1][]' }],
  run(input) {
    return phpBoolval(input);
  },
});
