import { defineModifier } from '../types.js';
import { fromBytes } from '../../value/bytes.js';
import { msgpackPack } from '../../php/json/msgpack.js';

export default defineModifier({
  kind: 'modifier',
  name: 'msgpack_pack',
  summary:
    'MessagePack serialisation (as the PHP msgpack extension packs null, scalars, arrays and stdClass objects). The result is a binary string. Use `@` for arrays.',
  origin: 'platform',
  params: [],
  examples: [{ template: '{$l|@msgpack_pack|base64_encode}', vars: { l: [1, 'a'] }, output: 'kgGhYQ==' }],
  // The bytes are kept as a byte string: toBytes() of the result gives them back exactly.
  run: (input) => fromBytes(msgpackPack(input)),
});
