/**
 * PHP's hash() and hash_hmac() on template strings: the input is hashed as its bytes
 * (stray bytes included); the result is lowercase hex, or with `binary` the raw digest as a
 * byte string.
 */
import { fromBytes, toBytes } from '../../value/bytes.js';
import { PhpTypeError } from '../../value/convert.js';
import { findAlgorithm, type HashAlgorithm } from './algorithms.js';
import { hmac } from './hmac.js';

function output(digest: Uint8Array, binary: boolean): string {
  if (binary) return fromBytes(digest);
  let hex = '';
  for (const b of digest) hex += b.toString(16).padStart(2, '0');
  return hex;
}

function algorithm(name: string, fn: string, needCrypto: boolean): HashAlgorithm {
  const algo = findAlgorithm(name);
  if (!algo || (needCrypto && !algo.cryptographic)) {
    // PHP 8 throws a ValueError here.
    throw new PhpTypeError(
      `${fn}(): Argument #1 ($algo) must be a valid ${needCrypto ? 'cryptographic ' : ''}hashing algorithm`,
    );
  }
  return algo;
}

export function phpHash(algoName: string, data: string, binary = false): string {
  return output(algorithm(algoName, 'hash', false).digest(toBytes(data)), binary);
}

export function phpHashHmac(algoName: string, data: string, key: string, binary = false): string {
  return output(hmac(algorithm(algoName, 'hash_hmac', true), toBytes(key), toBytes(data)), binary);
}
