import { defineFunction } from '../types.js';
import { PhpTypeError, toBool, toStr } from '../../value/convert.js';
import { PhpArray, PhpObject, type Value } from '../../value/value.js';
import { phpHash, phpHashHmac } from '../../php/hash/hash.js';

function stringArg(v: Value, name: string): string {
  if (v instanceof PhpArray || v instanceof PhpObject)
    throw new PhpTypeError(`${name} must be of type string, ${v instanceof PhpArray ? 'array' : 'object'} given`);
  return toStr(v);
}

export default defineFunction({
  kind: 'function',
  name: 'rcms_hash',
  summary:
    "Stores PHP's hash(algo, data) in `var`, or hash_hmac(algo, data, key) when `key` is given (an empty key too). The data's bytes are hashed. Lowercase hex, or with `binary` the raw digest bytes. Algorithms: md5, sha1, sha224, sha256, sha384, sha512/224, sha512/256, sha512, crc32b (not with a key). An unknown algorithm stores false with a warning; a missing `data` does nothing.",
  attrs: {
    var: { type: 'varname', required: true },
    algo: { type: 'string', default: 'sha256', doc: 'Hash algorithm name (case-insensitive).' },
    data: { type: 'mixed', required: true, doc: 'What to hash.' },
    key: { type: 'string', doc: 'Secret key: the result is an HMAC.' },
    binary: { type: 'bool', default: false, doc: 'Store the raw digest bytes instead of hex.' },
  },
  examples: [
    {
      template: "{rcms_hash var=h data='abc'}{$h}",
      output: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    },
    {
      template:
        "{rcms_hash var=h algo='md5' data='abc' key='secret'}{$h}|{rcms_hash var=b algo='sha1' data='abc' binary=true}{$b|strlen}",
      output: 'd9bf7c3a63eae7031c4e6d7c9b78ba93|20',
    },
    {
      template: "{rcms_hash var=h algo='crc32b' data='The quick brown fox jumped over the lazy dog.'}{$h}",
      output: '82a34642',
    },
  ],
  run(attrs, ctx) {
    if (attrs.data === undefined || attrs.data === null) return;
    const name = toStr(attrs.var ?? null);
    const algo = attrs.algo === undefined || attrs.algo === null ? 'sha256' : toStr(attrs.algo);
    const binary = attrs.binary === undefined || attrs.binary === null ? false : toBool(attrs.binary);
    try {
      const data = stringArg(attrs.data, 'data');
      const key = attrs.key;
      ctx.assign(
        name,
        key === undefined || key === null
          ? phpHash(algo, data, binary)
          : phpHashHmac(algo, data, stringArg(key, 'key'), binary),
      );
    } catch (e) {
      if (!(e instanceof PhpTypeError)) throw e;
      ctx.warn(`{rcms_hash} ${e.message}`);
      ctx.assign(name, false);
    }
  },
});
