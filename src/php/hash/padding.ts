/**
 * Merkle–Damgård padding shared by the SHA family: the message, a 0x80 byte, zeros, and the
 * bit length big-endian in the last 8 (SHA-1/256) or 16 (SHA-512) bytes of a block.
 */
export function padMessage(msg: Uint8Array, blockSize: 64 | 128): Uint8Array {
  const lengthBytes = blockSize === 64 ? 8 : 16;
  const total = Math.ceil((msg.length + 1 + lengthBytes) / blockSize) * blockSize;
  const out = new Uint8Array(total);
  out.set(msg);
  out[msg.length] = 0x80;
  // The bit length fits in 53 bits for any string we can hold; write it as two 32-bit words.
  const bits = msg.length * 8;
  const view = new DataView(out.buffer);
  view.setUint32(total - 8, Math.floor(bits / 0x100000000));
  view.setUint32(total - 4, bits >>> 0);
  return out;
}

/** 32-bit words to big-endian bytes, keeping the first `outBytes`. */
export function wordsToBytes(words: ArrayLike<number>, outBytes: number): Uint8Array {
  const out = new Uint8Array(words.length * 4);
  const view = new DataView(out.buffer);
  for (let i = 0; i < words.length; i++) view.setUint32(i * 4, words[i] >>> 0);
  return out.subarray(0, outBytes);
}
