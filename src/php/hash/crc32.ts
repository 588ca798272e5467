/** CRC-32 as in zlib / PHP's crc32() and hash('crc32b'): reflected polynomial 0xEDB88320. */

const TABLE = (() => {
  const t = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  return t;
})();

/** The checksum as an unsigned 32-bit number. */
export function crc32(msg: Uint8Array): number {
  let c = -1;
  for (let i = 0; i < msg.length; i++) c = TABLE[(c ^ msg[i]) & 0xff] ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}

/** hash('crc32b') digest: the checksum's 4 bytes, big-endian. */
export function crc32b(msg: Uint8Array): Uint8Array {
  const c = crc32(msg);
  return new Uint8Array([c >>> 24, (c >>> 16) & 0xff, (c >>> 8) & 0xff, c & 0xff]);
}
