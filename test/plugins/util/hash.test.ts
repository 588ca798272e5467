/**
 * hash(), hash_hmac() and crc32() against live PHP on seeded random inputs, and {rcms_hash} and the
 * algorithm-name cases against PHP's answers committed in test/fixtures/php/plugins/util/
 * (rcms-hash.json, hash-names.json).
 */
import { describe, expect, it } from 'vitest';
import { callPhp, toTagged, type OracleCall, type OracleResult } from '../../support/php-oracle.js';
import { phpGolden } from '../../support/php-golden.js';
import { phpHash, phpHashHmac } from '../../../src/php/hash/hash.js';
import { crc32 } from '../../../src/php/hash/crc32.js';
import { algorithmNames } from '../../../src/php/hash/algorithms.js';
import { fromBytes, toBytes } from '../../../src/value/bytes.js';
import { PhpTypeError } from '../../../src/value/convert.js';
import { PhpArray } from '../../../src/value/value.js';
import rcmsHash from '../../../src/plugins/util/rcms_hash.js';
import { Gen, makeCtx, run } from './support.js';

const ALGOS = algorithmNames();
const bytesArg = (s: string) => ({ $bytes: Buffer.from(toBytes(s)).toString('base64') });

/** Inputs of every kind: ASCII, Japanese, raw bytes (cut characters too), around block sizes. */
function inputs(): string[] {
  const g = new Gen(7);
  const sizes = [0, 1, 3, 55, 56, 57, 63, 64, 65, 111, 112, 113, 127, 128, 129, 200, 1000];
  const out: string[] = [];
  for (let i = 0; i < 110; i++) {
    const n = i < sizes.length ? sizes[i] : g.int(0, 300);
    switch (i % 4) {
      case 0:
        out.push(g.text(n, 'abcXYZ019 !"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~\t\n'));
        break;
      case 1:
        out.push(g.text(Math.ceil(n / 3), 'あいうえお漢字テスト日本語ｶﾀｶﾅ😀、。abc'));
        break;
      case 2:
        out.push(fromBytes(g.bytes(n)));
        break;
      default:
        // A Japanese text cut in the middle of a character: stray bytes must be hashed as they are.
        out.push(fromBytes(toBytes('日本語のテキスト'.repeat(1 + (n % 7))).subarray(0, 1 + (n % 20))));
    }
  }
  return out;
}

const data = inputs();
const g = new Gen(11);
const keys = data.map((_, i) =>
  i % 3 === 0 ? g.text(g.int(0, 200), 'keyKEY鍵0123') : fromBytes(g.bytes(g.int(0, 150))),
);

interface Case {
  call: OracleCall;
  ours: () => unknown;
}

const cases: Case[] = [];
data.forEach((s, i) => {
  const algo = ALGOS[i % ALGOS.length];
  const other = ALGOS[(i * 7 + 3) % ALGOS.length];
  cases.push({ call: { fn: 'hash', args: [algo, bytesArg(s)] }, ours: () => phpHash(algo, s) });
  cases.push({ call: { fn: 'hash', args: [other, bytesArg(s), true] }, ours: () => phpHash(other, s, true) });
  cases.push({ call: { fn: 'crc32', args: [bytesArg(s)] }, ours: () => crc32(toBytes(s)) });
  const hmacAlgo = ALGOS[(i * 5 + 1) % ALGOS.length];
  cases.push({
    call: { fn: 'hash_hmac', args: [hmacAlgo, bytesArg(s), bytesArg(keys[i])] },
    ours: () => phpHashHmac(hmacAlgo, s, keys[i]),
  });
  cases.push({
    call: { fn: 'hash_hmac', args: [other, bytesArg(s), bytesArg(keys[i]), true] },
    ours: () => phpHashHmac(other, s, keys[i], true),
  });
});
// Upper-case names and unknown names.
const nameCases: Case[] = [];
for (const algo of ['SHA256', 'Md5', 'SHA512/256', 'crc32b', 'sha3-999', '', 'md4x']) {
  nameCases.push({ call: { fn: 'hash', args: [algo, 'abc'] }, ours: () => phpHash(algo, 'abc') });
  nameCases.push({ call: { fn: 'hash_hmac', args: [algo, 'abc', 'k'] }, ours: () => phpHashHmac(algo, 'abc', 'k') });
}

let liveResults: OracleResult[] | undefined;
const nameResults = phpGolden(
  'plugins/util/hash-names',
  nameCases.map((c) => c.call),
);

function check(c: Case, r: OracleResult): void {
  if (!r.ok) {
    expect(() => c.ours(), r.error).toThrow(PhpTypeError);
    return;
  }
  expect(toTagged(c.ours() as never)).toEqual(r.value);
}

describe('hash functions against php', () => {
  it('covers every algorithm with hundreds of inputs', () => {
    expect(ALGOS).toEqual(
      expect.arrayContaining([
        'md5',
        'sha1',
        'sha224',
        'sha256',
        'sha384',
        'sha512',
        'sha512/256',
        'sha512/224',
        'crc32b',
      ]),
    );
    expect(cases.length + nameCases.length).toBeGreaterThanOrEqual(500);
  });

  it.each(cases.map((c, i) => [i, JSON.stringify(c.call.args).slice(0, 80)] as const))('live, seeded #%i %s', (i) => {
    check(cases[i], (liveResults ??= callPhp(cases.map((c) => c.call)))[i]);
  });

  it.each(nameCases.map((c, i) => [i, JSON.stringify(c.call.args)] as const))('algorithm name #%i %s', (i) => {
    check(nameCases[i], nameResults[i]);
  });
});

describe('{rcms_hash}', () => {
  const php = phpGolden('plugins/util/rcms-hash', [
    { fn: 'hash', args: ['sha256', 'こんにちは'] },
    { fn: 'hash_hmac', args: ['sha512', 'payload', ''] },
    { fn: 'hash', args: ['sha1', 'abc', true] },
    { fn: 'hash_hmac', args: ['sha256', '42', 'k'] },
  ]);

  it('hashes with sha256 by default', () => {
    const c = makeCtx();
    run(rcmsHash, { var: 'h', data: 'こんにちは' }, c);
    expect(toTagged(c.scope.h)).toEqual(php[0].value);
  });

  it('uses HMAC whenever key is given, even empty', () => {
    const c = makeCtx();
    run(rcmsHash, { var: 'h', algo: 'sha512', data: 'payload', key: '' }, c);
    expect(toTagged(c.scope.h)).toEqual(php[1].value);
  });

  it('stores raw bytes with binary=true', () => {
    const c = makeCtx();
    run(rcmsHash, { var: 'h', algo: 'sha1', data: 'abc', binary: true }, c);
    expect(toTagged(c.scope.h)).toEqual(php[2].value);
  });

  it('hashes numbers as their string form and writes dotted names', () => {
    const c = makeCtx();
    run(rcmsHash, { var: 'out.sig', data: 42, key: 'k' }, c);
    expect(toTagged((c.scope.out as PhpArray).get('sig'))).toEqual(php[3].value);
  });

  it('stores false with a warning for an unknown algorithm, or crc32b with a key', () => {
    for (const attrs of [
      { algo: 'nope', data: 'x' },
      { algo: 'crc32b', data: 'x', key: 'k' },
    ]) {
      const c = makeCtx();
      run(rcmsHash, { var: 'h', ...attrs }, c);
      expect(c.scope.h).toBe(false);
      expect(c.warnings.length).toBe(1);
    }
  });

  it('does nothing without data', () => {
    const c = makeCtx({ vars: { h: 'before' } });
    run(rcmsHash, { var: 'h' }, c);
    expect(c.scope.h).toBe('before');
  });

  it('refuses an array as data (PHP TypeError): false and a warning', () => {
    const c = makeCtx();
    run(rcmsHash, { var: 'h', data: PhpArray.fromList(['a']) }, c);
    expect(c.scope.h).toBe(false);
    expect(c.warnings[0]).toMatch(/array given/);
  });
});
