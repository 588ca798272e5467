/** HMAC (RFC 2104) over any of our hash algorithms, on bytes. */
import type { HashAlgorithm } from './algorithms.js';

export function hmac(algo: HashAlgorithm, key: Uint8Array, msg: Uint8Array): Uint8Array {
  const block = new Uint8Array(algo.blockSize);
  block.set(key.length > algo.blockSize ? algo.digest(key) : key);
  const inner = new Uint8Array(algo.blockSize + msg.length);
  for (let i = 0; i < algo.blockSize; i++) inner[i] = block[i] ^ 0x36;
  inner.set(msg, algo.blockSize);
  const innerDigest = algo.digest(inner);
  const outer = new Uint8Array(algo.blockSize + innerDigest.length);
  for (let i = 0; i < algo.blockSize; i++) outer[i] = block[i] ^ 0x5c;
  outer.set(innerDigest, algo.blockSize);
  return algo.digest(outer);
}
