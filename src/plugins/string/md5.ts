import { defineModifier } from '../types.js';
import { fromBinary } from '../../value/bytes.js';
import { boolArg, strArg } from '../../php/args.js';
import { md5, md5Binary } from '../../php/string/md5.js';

export default defineModifier({
  kind: 'modifier',
  name: 'md5',
  origin: 'php',
  summary: 'MD5 of the UTF-8 bytes, as 32 hex digits (raw bytes with binary=true).',
  params: [{ name: 'binary', type: 'bool', default: false }],
  examples: [{ template: '{$s|md5}', vars: { s: '日本語' }, output: '00110af8b4393ef3f72c50be5b332bec' }],
  run(input, [binary]) {
    const s = strArg(input, 'md5', 1);
    return boolArg(binary, 'md5', 2, 'binary') ? fromBinary(md5Binary(s)) : md5(s);
  },
});
