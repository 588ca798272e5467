/**
 * The hash algorithms we carry, by PHP's hash_algos() name. `blockSize` is what HMAC pads the
 * key to; PHP refuses HMAC over non-cryptographic checksums such as crc32b.
 */
import { md5Binary } from '../string/md5.js';
import { fromBytes } from '../../value/bytes.js';
import { crc32b } from './crc32.js';
import { sha1 } from './sha1.js';
import { sha224, sha256 } from './sha256.js';
import { sha384, sha512, sha512_224, sha512_256 } from './sha512.js';

export interface HashAlgorithm {
  digest(msg: Uint8Array): Uint8Array;
  blockSize: number;
  cryptographic: boolean;
}

/** md5.ts hashes a template string; a byte string round-trips exactly through fromBytes. */
function md5(msg: Uint8Array): Uint8Array {
  const bin = md5Binary(fromBytes(msg));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

const ALGORITHMS: ReadonlyMap<string, HashAlgorithm> = new Map([
  ['md5', { digest: md5, blockSize: 64, cryptographic: true }],
  ['sha1', { digest: sha1, blockSize: 64, cryptographic: true }],
  ['sha224', { digest: sha224, blockSize: 64, cryptographic: true }],
  ['sha256', { digest: sha256, blockSize: 64, cryptographic: true }],
  ['sha384', { digest: sha384, blockSize: 128, cryptographic: true }],
  ['sha512/224', { digest: sha512_224, blockSize: 128, cryptographic: true }],
  ['sha512/256', { digest: sha512_256, blockSize: 128, cryptographic: true }],
  ['sha512', { digest: sha512, blockSize: 128, cryptographic: true }],
  ['crc32b', { digest: crc32b, blockSize: 4, cryptographic: false }],
]);

/** PHP looks algorithm names up case-insensitively. */
export function findAlgorithm(name: string): HashAlgorithm | undefined {
  return ALGORITHMS.get(name.toLowerCase());
}

export function algorithmNames(): string[] {
  return Array.from(ALGORITHMS.keys());
}
