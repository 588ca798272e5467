import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PhpArray, type Value } from '../../../src/value/value.js';
import { fromBytes, toBytes } from '../../../src/value/bytes.js';
import { fromTagged, toTagged, type Tagged } from '../../support/php-oracle.js';
import { msgpackPack, msgpackUnpack } from '../../../src/php/json/msgpack.js';
import { callModifier } from '../../support/php-call.js';
import { plugins } from '../../../src/plugins/json/index.js';
import type { ModifierPlugin } from '../../../src/plugins/types.js';

// Generated from PHP's msgpack extension by scripts/generate/msgpack-fixture.php.
const fixture = JSON.parse(readFileSync(new URL('./fixtures/msgpack.json', import.meta.url), 'utf8')) as {
  pack: { value: Tagged; packed: string }[];
  unpack: { data: string; result: Tagged }[];
};

/** A value the fixture describes, with PHP's nNextFreeElement where it matters (unset past the end). */
function fixtureValue(i: number): Value {
  const v = fromTagged(fixture.pack[i].value);
  if (
    v instanceof PhpArray &&
    v.size === 2 &&
    v.get(0) === 'a' &&
    v.get(1) === 'b' &&
    fixture.pack[i].packed.startsWith('gg')
  ) {
    const a = PhpArray.fromList(['a', 'b', 'c']);
    a.delete(2);
    return a;
  }
  return v;
}

const mod = (name: string) => plugins.find((p) => p.name === name) as ModifierPlugin;

describe('msgpack against the PHP extension (fixture)', () => {
  it.each(fixture.pack.map((c, i) => [c.packed.slice(0, 24), i] as const))('pack %s', (_n, i) => {
    const packed = Buffer.from(msgpackPack(fixtureValue(i))).toString('base64');
    expect(packed).toBe(fixture.pack[i].packed);
  });
  it.each(fixture.unpack.map((c, i) => [Buffer.from(c.data, 'base64').toString('hex'), i] as const))(
    'unpack %s',
    (_n, i) => {
      const data = fromBytes(new Uint8Array(Buffer.from(fixture.unpack[i].data, 'base64')));
      expect(toTagged(msgpackUnpack(data))).toEqual(fixture.unpack[i].result);
    },
  );
  it('msgpack_pack gives a byte string whose bytes are the packed data', () => {
    const v = PhpArray.fromList([1, 'é', fromBytes(new Uint8Array([0xff]))]);
    const s = callModifier(mod('msgpack_pack'), v) as string;
    expect(Array.from(toBytes(s))).toEqual(Array.from(msgpackPack(v)));
    expect(toTagged(callModifier(mod('msgpack_unpack'), s))).toEqual(toTagged(v));
  });
  it('msgpack_unpack is false for scalars, invalid data and non-strings', () => {
    expect(callModifier(mod('msgpack_unpack'), fromBytes(new Uint8Array([0x01])))).toBe(false);
    expect(callModifier(mod('msgpack_unpack'), fromBytes(new Uint8Array([0xc1])))).toBe(false);
    expect(callModifier(mod('msgpack_unpack'), '')).toBe(false);
    expect(callModifier(mod('msgpack_unpack'), PhpArray.fromList([]))).toBe(false);
  });
  it('packs a 64 KiB string with a str32 header', () => {
    const b = msgpackPack('v'.repeat(65536));
    expect(Array.from(b.subarray(0, 5))).toEqual([0xdb, 0, 1, 0, 0]);
  });
});
