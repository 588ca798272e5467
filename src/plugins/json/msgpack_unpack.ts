import { defineModifier } from '../types.js';
import { PhpArray, PhpObject } from '../../value/value.js';
import { msgpackUnpack } from '../../php/json/msgpack.js';

export default defineModifier({
  kind: 'modifier',
  name: 'msgpack_unpack',
  summary:
    'Decodes MessagePack data into an array or object; false when the input is not a string, the data is invalid, or it holds a scalar.',
  origin: 'platform',
  params: [],
  examples: [{ template: '{$l|@msgpack_pack|msgpack_unpack|@implode:","}', vars: { l: ['a', 'b'] }, output: 'a,b' }],
  run(input) {
    if (typeof input !== 'string') return false;
    const v = msgpackUnpack(input);
    return v instanceof PhpArray || v instanceof PhpObject ? v : false;
  },
});
